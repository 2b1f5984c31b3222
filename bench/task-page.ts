/**
 * The task list page's first load for a user with 1,000 tasks (docs/performance.md, "Task list page: first load").
 *
 * Against a server that is already running, built for production:
 *   npx next build
 *   RATE_LIMIT_POINTS=100000 npm start                          # PORT=3000; or the e2e build on its port
 *   node --import tsx bench/task-page.ts --url http://127.0.0.1:3000
 * The server's default API rate limit (600 requests a minute) also works: the seeding then waits out each 429.
 *
 * It registers a new user (Europe/Prague, English), creates their tasks through `POST /api/v1/tasks` (titles,
 * due dates, priorities, tags and statuses varied like people write them), then loads `/en/tasks`:
 *   1. server: `GET /en/tasks` with the session cookie from Node, --runs times with the list in the server's
 *      30-second cache, and --runs times right after a write to one of the user's tasks (the list is read from
 *      the database): time to the response headers (TTFB) and to the last byte;
 *   2. browser: Chromium (/usr/bin/chromium through @playwright/test), --runs times in a new browser context
 *      (empty cache: every script is downloaded) and --runs times reloading in one context (scripts cached):
 *      TTFB, first contentful paint, the first task row in the document, and "usable": the quick-add field
 *      enabled, which happens once React has hydrated the page. All from the page's own clock
 *      (`performance.now()`, 0 at the start of the navigation).
 * Each figure is printed as p50 / p95 / max in a Markdown table; the target is "usable" under 1 s. The user and
 * their tasks stay in the server's database (use a throwaway one).
 *
 * Flags, or the environment variable in brackets:
 *   --url     (BENCH_URL)     the running server, http://127.0.0.1:3000
 *   --tasks   (BENCH_TASKS)   tasks the user gets, 1000
 *   --runs    (BENCH_RUNS)    loads per row, 10
 */
import { parseArgs } from "node:util";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { messageOf, positive, printMachine, progress, settingsOrExit } from "./harness";
import { registerPageUser, seedTasks, send } from "./page-user";
import { SESSION_COOKIE } from "../lib/auth/actor";

const PAGE_PATH = "/en/tasks";
const TARGET_MS = 1000;
const QUICK_ADD = "#quick-add-title";
const FIRST_ROW = "ul.task-list > li";

interface Settings {
  url: string;
  tasks: number;
  runs: number;
}

function readSettings(): Settings {
  const { values } = parseArgs({
    options: { url: { type: "string" }, tasks: { type: "string" }, runs: { type: "string" } },
    strict: true,
  });
  return {
    url: (values.url ?? process.env.BENCH_URL ?? "http://127.0.0.1:3000").replace(/\/$/, ""),
    tasks: positive("tasks", values.tasks ?? process.env.BENCH_TASKS ?? "1000"),
    runs: positive("runs", values.runs ?? process.env.BENCH_RUNS ?? "10"),
  };
}

/** A write to one of the user's tasks: it drops the user's cached lists, so the next load reads the database. */
async function touchTask(url: string, token: string, taskId: string, n: number): Promise<void> {
  const response = await send(`${url}/api/v1/tasks/${taskId}`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ description: `Touched ${n}` }),
  });
  if (response.status !== 200) throw new Error(`PATCH /api/v1/tasks/{id}: ${response.status}`);
}

// Measurements

interface Row {
  label: string;
  figures: Record<string, number[]>;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

function addFigure(row: Row, name: string, value: number) {
  (row.figures[name] ??= []).push(value);
}

/** One load from Node: time to the headers and to the last byte. */
async function serverLoad(url: string, token: string): Promise<{ ttfb: number; total: number }> {
  const start = performance.now();
  const response = await fetch(`${url}${PAGE_PATH}`, { headers: { Cookie: `${SESSION_COOKIE}=${token}` }, redirect: "manual" });
  const ttfb = performance.now() - start;
  const html = await response.text();
  const total = performance.now() - start;
  if (response.status !== 200 || !html.includes("task-list"))
    throw new Error(`GET ${PAGE_PATH}: ${response.status}, no task list in the page`);
  return { ttfb, total };
}

/**
 * Notes, on the page's clock, when the first task row is in the document and when the quick-add field is
 * enabled (the page renders it disabled and enables it once hydrated). Runs before the page's own scripts. A
 * string, not a function: tsx would wrap a function's inner functions in a helper the page does not have.
 */
const WATCH_PAGE = `
  const marks = (window.benchMarks = {});
  const check = () => {
    if (marks.row === undefined && document.querySelector(${JSON.stringify(FIRST_ROW)})) marks.row = performance.now();
    const input = document.querySelector(${JSON.stringify(QUICK_ADD)});
    if (marks.usable === undefined && input && !input.disabled) marks.usable = performance.now();
    return marks.row !== undefined && marks.usable !== undefined;
  };
  const observer = new MutationObserver(() => {
    if (check()) observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
`;

async function browserLoad(context: BrowserContext, url: string, reload: boolean): Promise<Record<string, number>> {
  const page = context.pages()[0] ?? (await context.newPage());
  if (reload) await page.reload({ waitUntil: "commit" });
  else await page.goto(`${url}${PAGE_PATH}`, { waitUntil: "commit" });
  await page.waitForSelector(FIRST_ROW, { state: "visible" });
  await page.waitForSelector(`${QUICK_ADD}:enabled`);
  return page.evaluate(() => {
    const marks = (window as unknown as { benchMarks: Record<string, number> }).benchMarks;
    const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    return {
      ttfb: navigation?.responseStart ?? Number.NaN,
      fcp: paint?.startTime ?? Number.NaN,
      row: marks.row ?? Number.NaN,
      usable: marks.usable ?? Number.NaN,
    };
  });
}

async function newContext(browser: Browser, url: string, token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url }]);
  await context.addInitScript(WATCH_PAGE);
  return context;
}

function printRows(rows: Row[]) {
  const names = ["ttfb", "total", "fcp", "row", "usable"] as const;
  const titles = { ttfb: "TTFB", total: "last byte", fcp: "first paint", row: "first row", usable: "usable" };
  const cell = (values: number[] | undefined) =>
    values?.length
      ? `${percentile(values, 0.5).toFixed(0)} / ${percentile(values, 0.95).toFixed(0)} / ${Math.max(...values).toFixed(0)}`
      : "–";
  const lines = [
    `| Load | ${names.map((name) => `${titles[name]} ms`).join(" | ")} |`,
    `|---|${names.map(() => "---:").join("|")}|`,
    ...rows.map((row) => `| ${row.label} | ${names.map((name) => cell(row.figures[name])).join(" | ")} |`),
  ];
  process.stdout.write(`${lines.join("\n")}\nEach cell: p50 / p95 / max over the runs, in ms from the start of the request.\n`);
}

async function main(settings: Settings) {
  printMachine(`GET ${PAGE_PATH} of ${settings.url}, ${settings.runs} loads per row, ${settings.tasks} tasks`);
  const token = await registerPageUser(settings.url);
  progress(`creating ${settings.tasks} tasks`);
  const someTask = await seedTasks(settings.url, token, settings.tasks);

  // One unmeasured load of each kind: the server's first render of the page compiles and caches modules.
  await serverLoad(settings.url, token);
  const cached: Row = { label: "server, list cached", figures: {} };
  const uncached: Row = { label: "server, list read from the database", figures: {} };
  for (let run = 0; run < settings.runs; run++) {
    await serverLoad(settings.url, token);
    const hit = await serverLoad(settings.url, token);
    addFigure(cached, "ttfb", hit.ttfb);
    addFigure(cached, "total", hit.total);
    await touchTask(settings.url, token, someTask, run);
    const miss = await serverLoad(settings.url, token);
    addFigure(uncached, "ttfb", miss.ttfb);
    addFigure(uncached, "total", miss.total);
  }

  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const fresh: Row = { label: "browser, new context (empty cache)", figures: {} };
  const reloaded: Row = { label: "browser, reload (scripts cached)", figures: {} };
  try {
    const warm = await newContext(browser, settings.url, token);
    await browserLoad(warm, settings.url, false);
    for (let run = 0; run < settings.runs; run++) {
      const context = await newContext(browser, settings.url, token);
      try {
        for (const [name, value] of Object.entries(await browserLoad(context, settings.url, false)))
          addFigure(fresh, name, value);
      } finally {
        await context.close();
      }
      for (const [name, value] of Object.entries(await browserLoad(warm, settings.url, true))) addFigure(reloaded, name, value);
    }
    await warm.close();
  } finally {
    await browser.close();
  }

  printRows([cached, uncached, fresh, reloaded]);
  const usable = percentile(fresh.figures.usable ?? [], 0.95);
  process.stdout.write(
    `\nTarget: usable under ${TARGET_MS} ms (p95, empty cache): ${usable < TARGET_MS ? "PASS" : "FAIL"} (${usable.toFixed(0)} ms)\n`,
  );
}

main(settingsOrExit(readSettings)).catch((error: unknown) => {
  process.stderr.write(`Benchmark failed: ${messageOf(error)}\n`);
  process.exitCode = 1;
});
