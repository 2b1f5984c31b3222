import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { TaskDetailPage } from "./pages/task-detail-page";
import { collectErrors } from "./page-errors";

/*
 * The task page, arranged through the API: a user registered with `page.request` (which shares the browser's
 * cookies, so the page is signed in) creates a task, then edits it on /en/tasks/{id}. The user's time zone is
 * Asia/Tokyo, not the browser's, so dates must be read and written in the profile's zone.
 */

const TIME_ZONE = "Asia/Tokyo";

async function register(request: APIRequestContext, name: string) {
  const email = `detail-${randomUUID()}@example.com`;
  const response = await request.post("/api/v1/auth/register", {
    data: { name, email, password: `pw-${randomUUID()}`, locale: "en", timeZone: TIME_ZONE },
  });
  expect(response.status()).toBe(201);
  const body = await response.json();
  return { id: body.user.id as string, email, token: body.token as string };
}

async function createTask(request: APIRequestContext, data: Record<string, unknown>, token?: string) {
  const response = await request.post("/api/v1/tasks", { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; title: string };
}

async function readTask(page: Page, id: string) {
  const response = await page.request.get(`/api/v1/tasks/${id}`);
  expect(response.status()).toBe(200);
  return response.json();
}

test("task page: edit every field, with errors next to the field and changes kept after a reload", async ({ page }) => {
  const errors = collectErrors(page);
  await register(page.request, "Dana Detail");
  const task = await createTask(page.request, { title: "Plan the trip" });
  const detail = new TaskDetailPage(page);

  await detail.goto(task.id);
  await expect(detail.heading).toHaveText("Plan the trip");
  await expect(detail.badges.getByText("To do", { exact: true })).toBeVisible();
  await expectAccessible(page);

  // Repeating without a due date: the API refuses, and the form says why.
  await detail.repeat("Weekly", 1);
  await expect(
    detail.recurrence.getByRole("alert").filter({ hasText: "A repeating task needs a due date. Set the due date first." }),
  ).toBeVisible();
  expect((await readTask(page, task.id)).recurrence).toBeNull();

  // A bad field: an empty title is refused next to the field, and nothing is saved.
  await detail.edit("Title", "   ");
  await expect(detail.details.getByRole("alert").filter({ hasText: "Enter a title of 1 to 500 characters." })).toBeVisible();
  await expect(detail.field("Title")).toHaveAttribute("aria-invalid", "true");
  expect((await readTask(page, task.id)).title).toBe("Plan the trip");

  await detail.edit("Title", "Plan the summer trip");
  await expect(detail.status.filter({ hasText: "Saved" })).toBeVisible();
  await expect(detail.heading).toHaveText("Plan the summer trip");
  await expect(detail.field("Title")).not.toHaveAttribute("aria-invalid");

  await detail.edit("Description", "Flights first.\nThen the hotel.");
  await detail.choose("Priority", "High");
  await expect(detail.badges.getByText("Priority: High")).toBeVisible();
  // 09:30 on 1 December 2026 in Tokyo (UTC+9) is 00:30 UTC, whatever the browser's zone.
  await detail.edit("Due", "2026-12-01T09:30");
  await expect.poll(async () => (await readTask(page, task.id)).dueAt).toBe("2026-12-01T00:30:00.000Z");
  await detail.addTag("travel");
  await detail.addTag("family");
  await expect(detail.tags).toHaveText(["travel", "family"]);
  await detail.details.getByRole("button", { name: "Remove tag family" }).click();
  await expect(detail.tags).toHaveText(["travel"]);
  await detail.addTag("summer");
  await expect(detail.tags).toHaveText(["travel", "summer"]);

  // Weekly from the due date, now that there is one.
  await detail.repeat("Weekly", 1);
  await expect(detail.recurrence.getByText("Every week, from the scheduled date")).toBeVisible();

  // A repeating task keeps its due date.
  await detail.details.getByRole("button", { name: "Remove due date" }).click();
  await expect(
    detail.details.getByRole("alert").filter({ hasText: "A repeating task needs a due date: stop repeating it first." }),
  ).toBeVisible();

  await page.reload();
  await expect(detail.heading).toHaveText("Plan the summer trip");
  await expect(detail.field("Description")).toHaveValue("Flights first.\nThen the hotel.");
  await expect(detail.field("Priority")).toHaveValue("high");
  await expect(detail.field("Due")).toHaveValue("2026-12-01T09:30");
  await expect(detail.tags).toHaveText(["travel", "summer"]);
  await expect(detail.recurrence.getByText("Every week, from the scheduled date")).toBeVisible();
  expect(await readTask(page, task.id)).toMatchObject({
    title: "Plan the summer trip",
    priority: "high",
    tags: ["travel", "summer"],
    recurrence: { frequency: "weekly", interval: 1, anchor: "scheduled", until: null, count: null },
  });

  // Status by hand.
  await detail.choose("Status", "In progress");
  await expect(detail.badges.getByText("In progress", { exact: true })).toBeVisible();

  expect(errors).toEqual([]);
});

test("task page: subtasks are added, reordered with the keyboard, and ticking them all completes the task", async ({ page }) => {
  const errors = collectErrors(page);
  await register(page.request, "Sam Subtasks");
  const task = await createTask(page.request, { title: "Move house" });
  const detail = new TaskDetailPage(page);
  await detail.goto(task.id);

  for (const title of ["Pack boxes", "Book the van", "Clean the flat"]) {
    await detail.addSubtask(title);
    await expect(detail.status.filter({ hasText: `Added “${title}”.` })).toBeVisible();
  }
  await expect.poll(() => detail.subtaskTitles()).toEqual(["Pack boxes", "Book the van", "Clean the flat"]);
  await expect(detail.badges.getByText("0 of 3 subtasks done")).toBeVisible();

  // The drag handle with the keyboard: pick up, two places up, drop; each step is announced.
  const announced = (text: string) => expect(page.getByText(text, { exact: true })).toBeAttached();
  await detail.dragHandle("Clean the flat").focus();
  await page.keyboard.press("Space");
  await announced("Picked up “Clean the flat” at position 3 of 3.");
  await page.keyboard.press("ArrowUp");
  await announced("“Clean the flat” is over position 2 of 3.");
  await page.keyboard.press("ArrowUp");
  await announced("“Clean the flat” is over position 1 of 3.");
  await page.keyboard.press("Space");
  await expect.poll(() => detail.subtaskTitles()).toEqual(["Clean the flat", "Pack boxes", "Book the van"]);
  await expect(detail.status.filter({ hasText: "Moved “Clean the flat” to position 1 of 3." })).toBeVisible();

  // The move buttons with the keyboard; focus stays on the moved subtask's buttons.
  await detail.subtasks.getByRole("button", { name: "Move down: Pack boxes" }).focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => detail.subtaskTitles()).toEqual(["Clean the flat", "Book the van", "Pack boxes"]);
  await expect(detail.subtasks.getByRole("button", { name: "Move up: Pack boxes" })).toBeFocused();

  await page.reload();
  await expect.poll(() => detail.subtaskTitles()).toEqual(["Clean the flat", "Book the van", "Pack boxes"]);

  // Renamed in place.
  const second = detail.subtasks.getByLabel("Subtask 2", { exact: true });
  await second.fill("Book the big van");
  await second.press("Enter");
  await expect(detail.status.filter({ hasText: "Saved" })).toBeVisible();

  // Ticking the last open one completes the task, without a reload; reopening one reopens it.
  for (const title of ["Clean the flat", "Book the big van", "Pack boxes"]) await detail.subtaskCheckbox(title).check();
  await expect(detail.badges.getByText("Done", { exact: true })).toBeVisible();
  await expect(detail.field("Status")).toHaveValue("done");
  await expect(detail.badges.getByText("3 of 3 subtasks done")).toBeVisible();
  await detail.subtaskCheckbox("Book the big van").uncheck();
  await expect(detail.badges.getByText("In progress", { exact: true })).toBeVisible();
  await expect(detail.field("Status")).toHaveValue("in_progress");

  // Deleted.
  await detail.subtasks.getByRole("button", { name: "Delete subtask: Pack boxes" }).click();
  await expect.poll(() => detail.subtaskTitles()).toEqual(["Clean the flat", "Book the big van"]);

  await page.reload();
  await expect(detail.subtaskCheckbox("Clean the flat")).toBeChecked();
  await expect(detail.subtaskCheckbox("Book the big van")).not.toBeChecked();
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("task page: signed out goes to sign-in, another user's task is not found, Hebrew is right to left, deleting leads to the list", async ({
  page,
  browser,
  request,
}) => {
  // Signed out: to the sign-in page, which comes back here.
  const stranger = await register(request, "Other Owner");
  const foreign = await createTask(request, { title: `Secret plans ${randomUUID()}` }, stranger.token);
  await page.goto(`/en/tasks/${foreign.id}`);
  await expect(page).toHaveURL(new RegExp(`/en/sign-in\\?next=%2Fen%2Ftasks%2F${foreign.id}$`));

  // Signed in as someone else: the 404 page, without a trace of the task.
  await register(page.request, "Nosy Neighbour");
  const response = await page.goto(`/en/tasks/${foreign.id}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(page.locator("body")).not.toContainText(foreign.title);
  expect((await page.goto("/en/tasks/not-a-task-id"))?.status()).toBe(404);

  // Hebrew: right to left, in Hebrew.
  const mine = await createTask(page.request, { title: "לקנות חלב" });
  const detail = new TaskDetailPage(page);
  await detail.goto(mine.id, "he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "he");
  await expect(detail.heading).toHaveText("לקנות חלב");
  await expect(page.getByRole("link", { name: "כל המשימות" }).first()).toBeVisible();
  await expectAccessible(page);

  // Deleting asks first, then leads to the task list; the task is gone.
  await detail.goto(mine.id);
  await page.getByRole("button", { name: "Delete this task" }).click();
  await expect(page.getByText("Delete “לקנות חלב” with its subtasks? This cannot be undone.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page).toHaveURL(/\/en\/tasks$/);
  expect((await page.request.get(`/api/v1/tasks/${mine.id}`)).status()).toBe(404);

  // Someone who may only read the task (a project viewer) sees it as text.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  const viewer = await register(viewerPage.request, "Vera Viewer");
  const project = await page.request.post("/api/v1/projects", { data: { name: "Garden" } });
  expect(project.status()).toBe(201);
  const projectId = (await project.json()).id;
  // The viewer joins by accepting the invitation that adding them makes.
  const invited = await page.request.post(`/api/v1/projects/${projectId}/members`, {
    data: { userId: viewer.id, role: "viewer" },
  });
  expect(invited.status()).toBe(202);
  const invitationId = (await invited.json()).invitation.id as string;
  expect((await viewerPage.request.post(`/api/v1/invitations/${invitationId}/accept`)).status()).toBe(200);
  const shared = await createTask(page.request, { title: "Prune the roses", projectId });
  const viewerDetail = new TaskDetailPage(viewerPage);
  await viewerDetail.goto(shared.id);
  await expect(viewerDetail.heading).toHaveText("Prune the roses");
  await expect(viewerPage.getByText("You can see this task but not change it.")).toBeVisible();
  // Nothing of the task is editable; the only text field is the comment box (anyone who sees a task may comment).
  await expect(viewerPage.getByRole("textbox")).toHaveCount(1);
  await expect(viewerPage.getByRole("textbox", { name: "Add a comment" })).toBeVisible();
  await expect(viewerDetail.people.getByText("Nosy Neighbour")).toBeVisible();
  await viewerContext.close();
});

test("task page: a change to a task someone else changed meanwhile is refused, with a reload", async ({ page }) => {
  const errors = collectErrors(page);
  const me = await register(page.request, "Dana Conflict");
  const task = await createTask(page.request, { title: "Plan the trip" });
  // The page hears nothing live (as when its socket is away), so it still shows the task as it was.
  await page.routeWebSocket(/\/ws\//, (socket) => socket.close());
  await page.route(/\/ws\//, (route) => route.abort());
  const detail = new TaskDetailPage(page);
  await detail.goto(task.id);
  await expect(detail.heading).toHaveText("Plan the trip");

  // Another device changes the title.
  const other = await page.request.patch(`/api/v1/tasks/${task.id}`, {
    data: { title: "Plan the trip to Brno" },
    headers: { Authorization: `Bearer ${me.token}` },
  });
  expect(other.status()).toBe(200);

  await detail.edit("Title", "Plan the trip to Prague");
  const notice = page.getByRole("alert").filter({ hasText: "Someone else changed this task while you were editing it" });
  await expect(notice).toBeVisible();
  expect((await readTask(page, task.id)).title).toBe("Plan the trip to Brno");

  await notice.getByRole("button", { name: "Reload the task" }).click();
  await expect(detail.heading).toHaveText("Plan the trip to Brno");
  expect(errors.filter((error) => !/websocket|\/ws\/|ERR_FAILED/i.test(error))).toEqual([]);
});
