import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { GoalsPage } from "./pages/goals-page";
import { collectErrors } from "./page-errors";

// A long flow (several pages, axe runs, a local partner): more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

/*
 * The goal pages: signed out, /en/goals sends the visitor to sign in. Signed in, a goal is created on the list
 * page, two progress reports draw the chart on the goal's page, the built-in planner (no AI is configured here)
 * writes a study plan, and applying it makes its sessions into tasks, which the API then lists. Both pages pass axe.
 */

const ZONE = "Europe/Prague";

/** A local date in the user's time zone, `days` from today there. */
function localDate(days = 0): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(),
  );
  const [year, month, day] = today.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

test("goals: create a goal, report progress, generate and apply a study plan", async ({ page }) => {
  const errors = collectErrors(page);
  const goals = new GoalsPage(page);

  await goals.goto();
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Fgoals$/);

  const account = { name: "Gita Goals", email: `goals-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const registered = await page.request.post("/api/v1/auth/register", { data: { ...account, locale: "en", timeZone: ZONE } });
  expect(registered.status()).toBe(201);

  // The list: empty at first; an empty title is refused next to the field.
  await goals.goto();
  await expect(goals.heading).toHaveText("Goals");
  await expect(page.getByText("No goals yet. Create your first one above.")).toBeVisible();
  await expectAccessible(page);
  await goals.newGoalForm.getByRole("button", { name: "Create goal" }).click();
  await expect(goals.newGoalForm.getByText("Enter a goal of 1 to 200 characters.")).toBeVisible();
  await expect(goals.newGoalForm.getByLabel("Goal", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await goals.createGoal({
    title: "Pass the B2 German exam",
    description: "Grammar: the four cases\nVocabulary for work and travel\nListening to podcasts",
    targetDate: localDate(20),
  });
  await expect(page).toHaveURL(/\/en\/goals\/[0-9a-f-]{36}$/);
  const goalId = goals.goalId();
  await expect(goals.heading).toHaveText("Pass the B2 German exam");
  await expect(goals.progressBar()).toHaveAttribute("aria-valuenow", "0");

  // Two progress reports draw the chart, with a table beside it.
  await expect(goals.reports.getByText("No reports yet: add the first one to start the chart.")).toBeVisible();
  await goals.addReport({ date: localDate(-1), value: 20, note: "Started the grammar book" });
  await expect(goals.reports.getByRole("status")).toHaveText("Report added.");
  await goals.addReport({ date: localDate(), value: 35, note: "First mock listening test" });
  await expect(goals.reportRows).toHaveCount(2);
  await expect(goals.reportRows.nth(0)).toContainText("Started the grammar book");
  await expect(goals.reportRows.nth(1)).toContainText("35%");
  // Measured by hand, the goal shows what its newest report says, and the section says why.
  await expect(goals.progressBar()).toHaveAttribute("aria-valuenow", "35");
  await expect(page.locator(".goal-header")).toContainText("35% done");
  await expect(goals.reports).toContainText("The newest report (by date) sets the goal’s progress.");
  await expect(goals.chart).toBeVisible();
  await expect(goals.chart.locator("circle")).toHaveCount(2);
  await expect(goals.chart.locator("desc")).toContainText("2 reports from");
  await expect(goals.chart.locator("desc")).toContainText("latest: 35%");

  // The built-in planner writes the study plan, on the days of the week ticked (Tuesdays and Thursdays), skipping
  // public holidays unless told otherwise.
  await expect(goals.studyPlan.getByText(/^No study plan yet\. The built-in planner/)).toBeVisible();
  const days = goals.studyPlan.getByRole("group", { name: "Days for sessions" });
  await expect(days.getByRole("checkbox", { name: "No sessions on public holidays" })).toBeChecked();
  await days.getByRole("checkbox", { name: "Tuesday" }).check();
  await days.getByRole("checkbox", { name: "Thursday" }).check();
  await goals.studyPlan.getByRole("button", { name: "Generate a study plan" }).click();
  await expect(goals.studyPlan.getByRole("status")).toHaveText("The study plan is ready.");
  await expect(goals.studyPlan.getByText("Written by the built-in planner")).toBeVisible();
  const dates = await goals.sessions.locator("time").evaluateAll((times) => times.map((time) => time.getAttribute("datetime")!));
  expect(dates.length).toBeGreaterThanOrEqual(4);
  expect(dates.filter((date) => ![2, 4].includes(new Date(`${date}T00:00:00Z`).getUTCDay()))).toEqual([]);
  await expect(goals.sessions.first().getByRole("heading")).toContainText("Grammar: the four cases");
  await expect(goals.sessions.first().getByRole("listitem").first()).toHaveText(
    "Work through “Grammar: the four cases”: read or watch one good source and take notes",
  );
  const sessionCount = await goals.sessions.count();
  expect(sessionCount).toBeGreaterThanOrEqual(4);
  await expect(goals.sessions.last().getByRole("heading")).toContainText("Final review: Pass the B2 German exam");
  await expectAccessible(page);

  // Applying it makes one task per session, linked to the goal. The progress (35 %) came from reports, set by hand:
  // the page asks first, and nothing is made until the person agrees.
  await expect(goals.applyButton).toHaveText(`Create ${sessionCount} tasks`);
  await goals.applyButton.click();
  await expect(goals.studyPlan.getByRole("alert")).toContainText("Its progress was set by hand.");
  await expect(goals.linkedTasks.getByRole("link")).toHaveCount(0);
  await expect(goals.progressBar()).toHaveAttribute("aria-valuenow", "35");
  await expectAccessible(page);
  await goals.studyPlan.getByRole("button", { name: "Apply and let the tasks measure progress" }).click();
  await expect(goals.studyPlan.getByRole("status")).toHaveText(`${sessionCount} tasks were created.`);
  await expect(goals.applyButton).toHaveCount(0);
  await expect(goals.linkedTasks.getByRole("link")).toHaveCount(sessionCount);
  await expect(goals.linkedTasks.getByRole("link").first()).toHaveText("Grammar: the four cases");

  // Now the linked tasks measure the goal (none done yet): the reports section explains why it no longer shows 35 %.
  await expect(goals.progressBar()).toHaveAttribute("aria-valuenow", "0");
  await expect(goals.reports).toContainText(
    "The goal’s progress (0%) comes from its linked tasks, not from these reports: they are kept as your own history.",
  );

  const goal = await (await page.request.get(`/api/v1/goals/${goalId}`)).json();
  expect(goal).toMatchObject({ progressMode: "tasks", progress: 0 });
  expect(goal.linkedTasks).toHaveLength(sessionCount);
  const tasks = await (await page.request.get("/api/v1/tasks?limit=100")).json();
  const titles = tasks.items.map((task: { title: string }) => task.title);
  expect(titles).toEqual(expect.arrayContaining(["Grammar: the four cases", "Final review: Pass the B2 German exam"]));
  const firstTask = tasks.items.find((task: { id: string }) => task.id === goal.linkedTasks[0].id);
  expect(firstTask.subtasks.total).toBeGreaterThanOrEqual(3);

  // The list shows the goal with its progress and its linked tasks.
  await page.getByRole("link", { name: "All goals" }).click();
  await expect(page).toHaveURL(/\/en\/goals$/);
  const card = goals.goalCards.filter({ hasText: "Pass the B2 German exam" });
  await expect(goals.progressBar(card)).toHaveAttribute("aria-valuenow", "0");
  await expect(card).toContainText(`0 of ${sessionCount} linked tasks done`);
  await expectAccessible(page);

  // Another user's goal, or none, is the 404 page.
  const missing = await goals.goto("en", randomUUID());
  expect(missing?.status()).toBe(404);

  expect(errors).toEqual([]);
});
