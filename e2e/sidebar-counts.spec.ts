import { expect, test, type Locator, type Page } from "./fixtures";
import { collectErrors, createTask, registerUser, TasksPage } from "./pages/tasks-page";

/*
 * The task list's sidebar counts follow changes without a reload: the user's own (a task completed, a task added to
 * a group with quick add) and a collaborator's, arriving over /ws. Each number is both the visible figure and the
 * link's description for screen readers ("2 open tasks"); an empty view or group shows neither. The user lives in
 * Asia/Tokyo (no daylight saving time), so that "today" can be computed here.
 */

const TIME_ZONE = "Asia/Tokyo";
const OFFSET_MS = 9 * 3600 * 1000;

/** 12:00 in Tokyo on the day `days` after today, as an ISO instant. */
function tokyoNoon(days: number): string {
  const local = new Date(Date.now() + OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, 12) - OFFSET_MS).toISOString();
}

const open = (count: number) => (count === 1 ? "1 open task" : `${count} open tasks`);

/** A sidebar link's count, seen (the figure) and heard (its description); 0 shows neither. */
async function expectCount(link: Locator, count: number) {
  if (count === 0) {
    await expect(link).toHaveAccessibleDescription("");
    await expect(link.locator(".tasks-sidebar-count")).toHaveCount(0);
  } else {
    await expect(link).toHaveAccessibleDescription(open(count));
    await expect(link.locator(".tasks-sidebar-count")).toHaveText(String(count));
  }
}

/** Marks the document, so that a test can tell it was never reloaded. */
async function markDocument(page: Page) {
  await page.evaluate(() => document.documentElement.setAttribute("data-e2e-unreloaded", "yes"));
}

test("the sidebar's counts follow own changes and a collaborator's, without a reload", async ({ page, browser }) => {
  const errors = collectErrors(page);
  const tasks = new TasksPage(page);
  await registerUser(page.request, "Counting Carla", TIME_ZONE);
  await createTask(page.request, { title: "Overdue report", dueAt: tokyoNoon(-2), status: "in_progress" });
  await createTask(page.request, { title: "Noon call", dueAt: tokyoNoon(0) });
  await createTask(page.request, { title: "Dentist", dueAt: tokyoNoon(3) });
  const lunch = await createTask(page.request, { title: "Team lunch" });

  // The first numbers are in the server's HTML.
  const html = await (await page.request.get("/en/tasks")).text();
  expect(html).toContain(`<span id="view-today-open" class="visually-hidden">${open(2)}</span>`);

  await tasks.goto();
  await tasks.ready();
  await markDocument(page);
  const views = page.getByRole("navigation", { name: "Views" });
  const today = views.getByRole("link", { name: "Today", exact: true });
  const upcoming = views.getByRole("link", { name: "Upcoming", exact: true });
  const personal = tasks.sidebar.getByRole("link", { name: "Personal", exact: true });
  const work = tasks.sidebar.getByRole("link", { name: "Work", exact: true });
  await expectCount(today, 2);
  await expectCount(upcoming, 2);
  await expectCount(personal, 4);
  await expectCount(work, 0);

  // Completing a task due today: Today, Upcoming and its group drop.
  await tasks.checkbox("Noon call").click();
  await expectCount(today, 1);
  await expectCount(upcoming, 1);
  await expectCount(personal, 3);

  // Quick add into another group: that group rises.
  await tasks.addTask("Buy paint +Work");
  await expect(tasks.row("Buy paint")).toBeVisible();
  await expectCount(work, 1);
  await expectCount(personal, 3);

  // A collaborator on "Team lunch", in their own browser, sets it due today and later completes it.
  const otherContext = await browser.newContext();
  try {
    const otherPage = await otherContext.newPage();
    const helper = await registerUser(otherPage.request, "Helping Hugo", TIME_ZONE);
    const asked = await page.request.post(`/api/v1/tasks/${lunch.id}/collaboration-requests`, {
      data: { kind: "collaborate", userId: helper.id },
    });
    expect(asked.status()).toBe(201);
    const accepted = await otherPage.request.post(`/api/v1/collaboration-requests/${(await asked.json()).id}/accept`);
    expect(accepted.status()).toBe(200);

    const due = await otherPage.request.patch(`/api/v1/tasks/${lunch.id}`, { data: { dueAt: tokyoNoon(0) } });
    expect(due.status()).toBe(200);
    await expectCount(today, 2);
    await expectCount(upcoming, 2);

    const done = await otherPage.request.patch(`/api/v1/tasks/${lunch.id}`, { data: { status: "done" } });
    expect(done.status()).toBe(200);
    await expectCount(today, 1);
    await expectCount(upcoming, 1);
    await expectCount(personal, 2);
  } finally {
    await otherContext.close();
  }

  // The numbers were read through the API, never by reloading the page; a reload shows the same ones.
  await expect(page.locator("html")).toHaveAttribute("data-e2e-unreloaded", "yes");
  await page.reload();
  await expectCount(today, 1);
  await expectCount(work, 1);
  await expectCount(personal, 2);
  expect(errors).toEqual([]);
});
