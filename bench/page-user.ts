/**
 * The user the page benchmarks load pages as (bench/task-page.ts, bench/pages.ts): registered through the API
 * (Europe/Prague, English), with tasks created through `POST /api/v1/tasks` whose titles, due dates, priorities,
 * tags and statuses vary the way people write them, the same on every run.
 */
import { randomBytes } from "node:crypto";
import { progress } from "./harness";

const SEED_CONCURRENCY = 8;
const VERBS = ["Call", "Email", "Buy", "Fix", "Plan", "Review", "Book", "Pay", "Clean", "Write", "Check", "Order"];
const OBJECTS = [
  "the plumber",
  "groceries",
  "the car",
  "the report",
  "tickets",
  "the rent",
  "the garden",
  "a gift",
  "the dentist",
  "the slides",
];
const TAGS = ["home", "work", "family", "errands", "health", "finance"];
const STATUSES = ["todo", "todo", "todo", "todo", "todo", "todo", "todo", "in_progress", "in_progress", "done"];
const PRIORITIES = ["normal", "normal", "normal", "low", "high", "urgent"];
const DAY_MS = 24 * 3600 * 1000;

/** Task `n`'s body: varied, and the same on every run (a fifth of them without a due date). */
export function taskBody(n: number, now: number): Record<string, unknown> {
  const at = (values: readonly string[], salt: number) => values[(n * 7 + salt * 13) % values.length]!;
  return {
    title: `${at(VERBS, 1)} ${at(OBJECTS, 2)} #${n}`,
    ...(n % 3 === 0 ? { description: "Details written down so that nothing is forgotten." } : {}),
    status: at(STATUSES, 3),
    priority: at(PRIORITIES, 4),
    ...(n % 5 === 4 ? {} : { dueAt: dueAt(n, now) }),
    tags: TAGS.filter((_, index) => (n + index) % 4 === 0).slice(0, 2),
  };
}

/** Task `n`'s due date: from 30 days ago to 90 days ahead, at varied hours. */
export function dueAt(n: number, now: number): string {
  return new Date(now + ((n % 120) - 30) * DAY_MS + (n % 24) * 3600 * 1000).toISOString();
}

/** Sends a request, waiting out 429 answers (the server's rate limit) as long as they last. */
export async function send(url: string, init: RequestInit): Promise<Response> {
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    const seconds = Number(response.headers.get("retry-after") ?? 5);
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, seconds) * 1000));
  }
}

/** Registers a new user; answers their session token. */
export async function registerPageUser(url: string): Promise<string> {
  const response = await send(`${url}/api/v1/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "Page Bench",
      email: `page-bench-${Date.now()}-${randomBytes(4).toString("hex")}@example.com`,
      password: randomBytes(18).toString("base64url"),
      locale: "en",
      timeZone: "Europe/Prague",
    }),
  });
  if (response.status !== 201) throw new Error(`POST /api/v1/auth/register: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** Creates `count` tasks with `body(n, now)`, a few at a time; answers the last one's id. */
export async function seedTasks(
  url: string,
  token: string,
  count: number,
  body: (n: number, now: number) => Record<string, unknown> = taskBody,
): Promise<string> {
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const now = Date.now();
  let next = 0;
  let lastId = "";
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const response = await send(`${url}/api/v1/tasks`, { method: "POST", headers, body: JSON.stringify(body(n, now)) });
      if (response.status !== 201) throw new Error(`POST /api/v1/tasks: ${response.status} ${await response.text()}`);
      lastId = ((await response.json()) as { id: string }).id;
      if ((n + 1) % 200 === 0) progress(`${n + 1} tasks`);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  const list = await fetch(`${url}/api/v1/tasks?limit=1`, { headers });
  if (list.status !== 200) throw new Error(`GET /api/v1/tasks: ${list.status}`);
  return lastId;
}
