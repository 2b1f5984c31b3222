/**
 * Takes the README's screenshots again: docs/screenshots/tasks.png (the task list) and docs/screenshots/board.png
 * (the board). It starts `server.ts` from the current build on a fresh embedded database in a temporary directory,
 * registers a demo user, creates a few tasks through the API and photographs both pages in Debian's Chromium
 * (`/usr/bin/chromium`, as the e2e tests use): whole pages 1280 pixels wide, in English, in the light theme.
 *
 * Usage: `npm run build`, then `npm run screenshots`. SCREENSHOT_PORT (default 3300) is the port the server listens
 * on for the while; CHROMIUM the browser to use.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type APIRequestContext } from "@playwright/test";

const PORT = Number(process.env.SCREENSHOT_PORT ?? 3300);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const OUT_DIR = path.resolve("docs/screenshots");

interface Group {
  id: string;
  name: string;
}

/** Days from now at a given hour (local to the server's clock: good enough for a picture). */
function dueIn(days: number, hour: number): string {
  const at = new Date();
  at.setDate(at.getDate() + days);
  at.setHours(hour, 0, 0, 0);
  return at.toISOString();
}

async function waitForReady(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const ready = await fetch(`${BASE_URL}/readyz`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not become ready on ${BASE_URL}`);
}

async function post(request: APIRequestContext, url: string, data: unknown): Promise<{ id: string }> {
  const answer = await request.post(url, { data, headers: { Origin: BASE_URL } });
  if (!answer.ok()) throw new Error(`POST ${url}: ${answer.status()} ${await answer.text()}`);
  return (await answer.json()) as { id: string };
}

/** A demo user with a handful of tasks across groups, statuses, priorities and due dates. */
async function seed(request: APIRequestContext): Promise<void> {
  await post(request, "/api/v1/auth/register", {
    name: "Eva Nováková",
    email: "eva@example.com",
    password: "screenshots-only-password",
    locale: "en",
    timeZone: "Europe/Prague",
  });
  const { items: groups } = (await (await request.get("/api/v1/groups?lang=en")).json()) as { items: Group[] };
  const group = (name: string) => groups.find((candidate) => candidate.name === name)?.id;
  const tasks = [
    {
      title: "Prepare the quarterly report",
      groupId: group("Work"),
      priority: "high",
      status: "in_progress",
      dueAt: dueIn(2, 17),
    },
    { title: "Review the onboarding checklist", groupId: group("Work"), priority: "normal", dueAt: dueIn(4, 10), tags: ["team"] },
    { title: "Book flights to Brno", groupId: group("Personal"), priority: "urgent", dueAt: dueIn(1, 9) },
    { title: "Buy groceries for the weekend", groupId: group("Shopping"), priority: "low", dueAt: dueIn(0, 18) },
    { title: "Call the plumber about the kitchen tap", groupId: group("Home"), priority: "normal", status: "in_progress" },
    { title: "Renew the car insurance", groupId: group("Finance"), priority: "high", dueAt: dueIn(6, 12) },
    { title: "Dentist appointment", groupId: group("Health"), priority: "normal", status: "done", dueAt: dueIn(-1, 8) },
    { title: "Read chapter 3 of the statistics book", groupId: group("Study"), priority: "low", dueAt: dueIn(3, 20) },
  ];
  for (const task of tasks) await post(request, "/api/v1/tasks", task);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "spolu-screenshots-"));
  const server = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_URL: BASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  try {
    await waitForReady(Date.now() + 120_000);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    try {
      const context = await browser.newContext({
        baseURL: BASE_URL,
        viewport: { width: 1280, height: 800 },
        locale: "en-US",
        colorScheme: "light",
        timezoneId: "Europe/Prague",
      });
      const page = await context.newPage();
      await seed(page.request);
      mkdirSync(OUT_DIR, { recursive: true });
      await page.goto("/en/tasks");
      await page.getByText("Prepare the quarterly report").first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(OUT_DIR, "tasks.png"), fullPage: true });
      await page.goto("/en/board");
      await page.getByText("Prepare the quarterly report").first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(OUT_DIR, "board.png"), fullPage: true });
      console.log(`Wrote ${path.relative(process.cwd(), OUT_DIR)}/tasks.png and board.png`);
    } finally {
      await browser.close();
    }
  } finally {
    server.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
