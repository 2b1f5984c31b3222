import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { TaskDetailPage } from "./pages/task-detail-page";
import { SiteHeader } from "./pages/site-header";

/*
 * Templates and time tracking in the browser: a built-in template is previewed and applied to a group from the
 * templates page (its tasks then exist, with their subtasks); a timer is started and stopped on a task's page,
 * and the time page reports it. Both pages pass axe, and the menu links to them.
 */

const ZONE = "Europe/Prague";

async function register(page: Page, name: string) {
  const account = { name, email: `tt-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, locale: "en", timeZone: ZONE };
  const registered = await page.request.post("/api/v1/auth/register", { data: account });
  expect(registered.status()).toBe(201);
}

test("templates: preview a built-in template and apply it to a group", async ({ page }) => {
  await page.goto("/en/templates");
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Ftemplates$/);
  await register(page, "Tereza Templates");

  await page.goto("/en/tasks");
  await new SiteHeader(page).follow("Templates");
  await expect(page).toHaveURL(/\/en\/templates$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Templates");
  const card = page.locator("article", { has: page.getByRole("heading", { name: "Weekly review", exact: true }) });
  await expect(card).toBeVisible();
  await expectAccessible(page);

  await card.getByText("Preview: 3 tasks").click();
  await expect(card.getByText("Plan the coming week")).toBeVisible();
  await expect(card.getByText("Pick three priorities")).toBeVisible();
  await expect(card.getByText("due on the start day at 12:00")).toBeVisible();

  await card.getByLabel("Task group").selectOption({ label: "Work" });
  await card.getByLabel("Start date").fill("2026-03-28");
  await card.getByRole("button", { name: "Apply template" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Created 3 tasks from “Weekly review”.");

  const listed = await page.request.get("/api/v1/tasks?limit=50");
  const tasks = (await listed.json()).items as { title: string; dueAt: string; subtasks: { total: number } }[];
  expect(tasks.map((task) => task.title).sort()).toEqual([
    "Clear your inboxes",
    "Look back at the past week",
    "Plan the coming week",
  ]);
  const plan = tasks.find((task) => task.title === "Plan the coming week")!;
  expect(plan).toMatchObject({ dueAt: "2026-03-28T11:00:00.000Z", subtasks: { total: 3 } });
});

test("time tracking: start and stop a timer on a task, then see it in the report", async ({ page }) => {
  await register(page, "Tomas Timer");
  const created = await page.request.post("/api/v1/tasks", { data: { title: "Write the quarterly report" } });
  expect(created.status()).toBe(201);
  const task = (await created.json()) as { id: string };

  const detail = new TaskDetailPage(page);
  await detail.goto(task.id);
  const timer = page.locator("section", { has: page.getByRole("heading", { level: 2, name: "Time tracking", exact: true }) });
  await expect(timer.getByText("Task total 0:00:00")).toBeVisible();
  await timer.getByRole("button", { name: "Start timer" }).click();
  await expect(detail.status).toHaveText("Timer started.");
  await expect(timer.getByText("Running for")).toBeVisible();
  await expect(timer.locator("time")).toHaveText(/^0:00:0[1-9]$/, { timeout: 5_000 });
  await expectAccessible(page);

  // The timer survives a reload: it runs on the server.
  await page.reload();
  await expect(timer.getByRole("button", { name: "Stop timer" })).toBeVisible();
  await timer.getByRole("button", { name: "Stop timer" }).click();
  await expect(detail.status).toHaveText("Timer stopped.");
  await expect(timer.getByRole("button", { name: "Start timer" })).toBeVisible();
  await expect(timer.getByText("Running for")).toHaveCount(0);
  const time = (await (await page.request.get(`/api/v1/tasks/${task.id}/time`)).json()) as {
    totalSeconds: number;
    running: unknown;
  };
  expect(time.running).toBeNull();
  expect(time.totalSeconds).toBeGreaterThanOrEqual(1);

  await new SiteHeader(page).follow("Time");
  await expect(page).toHaveURL(/\/en\/time$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Time");
  await expect(page.getByRole("row", { name: /Write the quarterly report/ })).toBeVisible();
  await page.getByLabel("Group by").selectOption("day");
  await page.getByRole("button", { name: "Show report" }).click();
  await expect(page.getByRole("columnheader", { name: "Day" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute(
    "href",
    /\/api\/v1\/time-entries\/export\.csv\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/,
  );
  await expectAccessible(page);
});
