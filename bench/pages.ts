/**
 * The board and the task list in Chromium for a user with 1,000 tasks: `npm run bench:pages` (docs/performance.md,
 * "Board and task list in the browser", reads the figures). Build first: `npx next build`.
 *
 * It starts server.ts (built for production, pages served, jobs on, PGlite in a temporary directory), registers a
 * user (Europe/Prague, English) and creates --tasks tasks through `POST /api/v1/tasks`, spread evenly over the four
 * statuses, every one with a due date (bench/page-user.ts varies titles, priorities and tags). Then Chromium
 * (/usr/bin/chromium, 1280×800) loads each page once unmeasured and --runs times in a new browser context (empty
 * cache), one page after the other:
 *   - the floor: the home page (/en), the same shell (header, fonts, React) with little on it;
 *   - /en/board and /en/tasks.
 * Per load, on the page's own clock (0 at the start of the navigation):
 *   - interactive: the board's hydrated marker (`.board[data-hydrated]`, set by the board's first effect) with
 *     its first card in the document; the task list's quick-add field enabled (it is disabled until hydrated, as
 *     bench/task-page.ts reads it) with its first row; the floor's load event's end;
 *   - DOM elements: `document.getElementsByTagName("*").length` once the network has been idle for 500 ms after
 *     that (a column that loads more cards on its own counts them);
 *   - blocking: the total blocking time until then, the part beyond 50 ms of each long task the page's
 *     PerformanceObserver ("longtask", registered before the page's scripts) saw.
 * Each figure is printed as p50 / p95 / max in a Markdown table. Targets: the board interactive under 1 s (p95)
 * and under 800 DOM elements (max).
 *
 * Flags, or the environment variable in brackets:
 *   --tasks   (BENCH_TASKS)   tasks the user gets, 1000
 *   --runs    (BENCH_RUNS)    measured loads per page, 5
 */
import { parseArgs } from "node:util";
import { chromium, type Browser } from "@playwright/test";
import {
  makeTempDir,
  messageOf,
  positive,
  printMachine,
  progress,
  reportStderr,
  SERVER_READY,
  serverEnv,
  settingsOrExit,
  startChild,
  stopChild,
} from "./harness";
import { dueAt, registerPageUser, seedTasks, taskBody } from "./page-user";
import { SESSION_COOKIE } from "../lib/auth/actor";

const STATUSES = ["todo", "in_progress", "done", "cancelled"] as const;
const TARGET_INTERACTIVE_MS = 1000;
const TARGET_ELEMENTS = 800;

interface Settings {
  tasks: number;
  runs: number;
}

function readSettings(): Settings {
  const { values } = parseArgs({ options: { tasks: { type: "string" }, runs: { type: "string" } }, strict: true });
  return {
    tasks: positive("tasks", values.tasks ?? process.env.BENCH_TASKS ?? "1000"),
    runs: positive("runs", values.runs ?? process.env.BENCH_RUNS ?? "5"),
  };
}

/** A page measured, and what says it is interactive (a selector; none: its load event). */
interface Target {
  label: string;
  path: string;
  ready: string[];
}

const TARGETS: Target[] = [
  { label: "floor: home page", path: "/en", ready: [] },
  { label: "board", path: "/en/board", ready: [".board[data-hydrated]", ".board-card"] },
  { label: "task list", path: "/en/tasks", ready: ["#quick-add-title:enabled", "ul.task-list > li"] },
];

/**
 * Notes the long tasks (and when each selector first matched) on the page's clock. Runs before the page's own
 * scripts. A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
 */
const WATCH_PAGE = `
  const bench = (window.bench = { longTasks: [], ready: {} });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
  bench.watch = (selectors) => {
    const check = () => {
      for (const selector of selectors)
        if (bench.ready[selector] === undefined && document.querySelector(selector)) bench.ready[selector] = performance.now();
      return selectors.every((selector) => bench.ready[selector] !== undefined);
    };
    if (check()) return;
    const observer = new MutationObserver(() => check() && observer.disconnect());
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  };
`;

interface Load {
  interactive: number;
  elements: number;
  blocking: number;
}

async function load(browser: Browser, url: string, token: string, target: Target): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url }]);
    await context.addInitScript(`${WATCH_PAGE}\nwindow.bench.watch(${JSON.stringify(target.ready)});`);
    const page = await context.newPage();
    const response = await page.goto(`${url}${target.path}`, { waitUntil: "load" });
    if (response?.status() !== 200) throw new Error(`GET ${target.path}: ${response?.status()}`);
    for (const selector of target.ready) await page.waitForSelector(selector, { state: "attached" });
    await page.waitForLoadState("networkidle");
    return await page.evaluate(() => {
      const bench = (window as unknown as { bench: { longTasks: number[]; ready: Record<string, number> } }).bench;
      const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      const marks = Object.values(bench.ready);
      return {
        interactive: marks.length > 0 ? Math.max(...marks) : (navigation?.loadEventEnd ?? Number.NaN),
        elements: document.getElementsByTagName("*").length,
        blocking: bench.longTasks.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0),
      };
    });
  } finally {
    await context.close();
  }
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

const cell = (values: number[]) =>
  `${percentile(values, 0.5).toFixed(0)} / ${percentile(values, 0.95).toFixed(0)} / ${Math.max(...values).toFixed(0)}`;

/** Task `n`: as the task list benchmark writes it, but every status in turn and always due. */
function boardTask(n: number, now: number): Record<string, unknown> {
  return { ...taskBody(n, now), status: STATUSES[n % STATUSES.length], dueAt: dueAt(n, now) };
}

async function main(settings: Settings) {
  printMachine(`Chromium, ${settings.runs} loads per page in new contexts, a user with ${settings.tasks} tasks`);
  const server = await startChild(
    "server",
    "server.ts",
    serverEnv({ DATA_DIR: makeTempDir(), SERVE_PAGES: "true" }),
    SERVER_READY,
  );
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const token = await registerPageUser(server.url);
    progress(`creating ${settings.tasks} tasks`);
    await seedTasks(server.url, token, settings.tasks, boardTask);

    const rows: { target: Target; loads: Load[] }[] = TARGETS.map((target) => ({ target, loads: [] }));
    for (const row of rows) await load(browser, server.url, token, row.target);
    for (let run = 0; run < settings.runs; run++) {
      progress(`run ${run + 1} of ${settings.runs}`);
      for (const row of rows) row.loads.push(await load(browser, server.url, token, row.target));
    }

    const lines = [
      "| Page | interactive ms | DOM elements | blocking ms |",
      "|---|---:|---:|---:|",
      ...rows.map(
        ({ target, loads }) =>
          `| ${target.label} (${target.path}) | ${cell(loads.map((each) => each.interactive))} | ` +
          `${cell(loads.map((each) => each.elements))} | ${cell(loads.map((each) => each.blocking))} |`,
      ),
    ];
    process.stdout.write(`${lines.join("\n")}\nEach cell: p50 / p95 / max over the runs.\n\n`);

    const board = rows[1]!.loads;
    const interactive = percentile(
      board.map((each) => each.interactive),
      0.95,
    );
    const elements = Math.max(...board.map((each) => each.elements));
    const verdict = (pass: boolean) => (pass ? "PASS" : "FAIL");
    process.stdout.write(
      `Target: board interactive under ${TARGET_INTERACTIVE_MS} ms (p95): ${verdict(interactive < TARGET_INTERACTIVE_MS)} (${interactive.toFixed(0)} ms)\n` +
        `Target: board under ${TARGET_ELEMENTS} DOM elements (max): ${verdict(elements < TARGET_ELEMENTS)} (${elements})\n`,
    );
  } finally {
    await browser.close();
    reportStderr(server);
    await stopChild(server);
  }
}

main(settingsOrExit(readSettings)).catch((error: unknown) => {
  process.stderr.write(`Benchmark failed: ${messageOf(error)}\n`);
  process.exitCode = 1;
});
