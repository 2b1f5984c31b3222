import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "./fixtures";
import { expectAccessible } from "./axe";
import { AssistantPage } from "./pages/assistant-page";
import { collectErrors } from "./page-errors";

/*
 * The assistant's pages with the built-in assistant (no AI endpoint in the e2e server): the chat answers what is
 * due today with the user's own task, a proposed "add task" is confirmed and the task exists; the briefing lists
 * an overdue task; the reports page; signed-out visitors go to the sign-in page. Axe on each page.
 */

/** Registers a user in UTC through the API: `page.request` shares the browser's cookies, so the page is signed in. */
async function register(request: APIRequestContext, timeZone = "UTC") {
  const response = await request.post("/api/v1/auth/register", {
    data: {
      name: "Ada Assistant",
      email: `assistant-${randomUUID()}@example.com`,
      password: `pw-${randomUUID()}`,
      locale: "en",
      timeZone,
    },
  });
  expect(response.status()).toBe(201);
}

async function createTask(request: APIRequestContext, title: string, dueAt: string): Promise<string> {
  const response = await request.post("/api/v1/tasks", { data: { title, dueAt } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

test("chat: the built-in assistant names today's task, and a proposed task is confirmed into the task list", async ({ page }) => {
  const errors = collectErrors(page);
  const assistant = new AssistantPage(page);
  await register(page.request);
  const title = `Renew the passport ${randomUUID().slice(0, 6)}`;
  await createTask(page.request, title, `${todayUtc()}T23:59:00Z`);

  await assistant.gotoChat();
  await expect(assistant.heading).toHaveText("Assistant");
  await expect(page.getByText("Answers come from the built-in assistant")).toBeVisible();
  await expect(page.getByText("No messages yet.")).toBeVisible();
  await expectAccessible(page);

  await assistant.ask("What is due today?");
  await expect(assistant.answers.last()).toContainText("Due today (1 task):");
  await expect(assistant.answers.last()).toContainText(title);
  await expect(assistant.answers.last()).toContainText("Answered by the built-in assistant");
  await expect(assistant.messageBox).toHaveValue("");

  const plant = `Water the ferns ${randomUUID().slice(0, 6)}`;
  await assistant.ask(`add task ${plant} tomorrow`);
  const action = assistant.action(plant);
  await expect(action).toContainText(`Add the task “${plant}”, due`);
  await expectAccessible(page);
  await action.getByRole("button", { name: "Confirm" }).click();
  await expect(action).toContainText("Done.");
  await expect(action.getByRole("link", { name: "Open the task" })).toHaveAttribute("href", /^\/en\/tasks\/[0-9a-f-]{36}$/);
  const tasks = await page.request.get(`/api/v1/tasks?q=${encodeURIComponent(plant)}`);
  expect(((await tasks.json()) as { items: { title: string }[] }).items.map((task) => task.title)).toEqual([plant]);

  // Kept after a reload (rendered on the server), and cleared on request.
  await page.reload();
  await expect(assistant.answers).toHaveCount(2);
  await expect(assistant.action(plant)).toContainText("Done.");
  await page.getByRole("button", { name: "Clear the conversation" }).click();
  await page.getByRole("button", { name: "Delete the conversation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The conversation was cleared." })).toBeVisible();
  await expect(assistant.answers).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("chat: a message sent while the assistant is answering is queued, shown as such, and answered next", async ({ page }) => {
  const errors = collectErrors(page);
  const assistant = new AssistantPage(page);
  await register(page.request);
  const title = `Call the plumber ${randomUUID().slice(0, 6)}`;
  await createTask(page.request, title, `${todayUtc()}T23:59:00Z`);
  await assistant.gotoChat();

  // The first answer is held on the network until the second message has been sent (a slow answer, as people see one).
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let chatRequests = 0;
  await page.route("**/api/v1/chat", async (route) => {
    chatRequests += 1;
    if (chatRequests === 1) await held;
    await route.continue();
  });

  await assistant.ask("What is due today?");
  await expect(assistant.log.locator(".chat-message-assistant[aria-busy='true']")).toContainText("Answering…");
  await assistant.ask("What is overdue?");
  const queued = assistant.log.locator(".chat-message-queued");
  await expect(queued).toHaveText(/Queued.*What is overdue\?/);
  await expect(
    page.getByRole("status").filter({ hasText: "Queued: it is sent as soon as the current answer ends." }),
  ).toBeVisible();
  await expect(assistant.messageBox).toHaveValue("");

  release();
  await expect(assistant.answers.first()).toContainText(title);
  await expect(assistant.answers).toHaveCount(2);
  await expect(assistant.log.locator(".chat-message-assistant[aria-busy='true']")).toHaveCount(0);
  await expect(queued).toHaveCount(0);
  const questions = assistant.log.locator(".chat-message-user .chat-text");
  await expect(questions).toHaveText(["What is due today?", "What is overdue?"]);
  expect(chatRequests).toBe(2);

  // Both were stored, in the order they were sent.
  await page.reload();
  await expect(assistant.log.locator(".chat-message-user .chat-text")).toHaveText(["What is due today?", "What is overdue?"]);
  await expect(assistant.answers).toHaveCount(2);
  expect(errors).toEqual([]);
});

test("briefing: today's and overdue tasks, goals and reviews; another day", async ({ page }) => {
  const errors = collectErrors(page);
  const assistant = new AssistantPage(page);
  await register(page.request);
  const late = `Send the invoice ${randomUUID().slice(0, 6)}`;
  await createTask(page.request, late, new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString());

  await assistant.gotoBriefing();
  await expect(assistant.heading).toHaveText("Your day");
  const overdue = assistant.section(/^Overdue \(1\)$/);
  await expect(overdue.getByRole("link", { name: late })).toHaveAttribute("href", /^\/en\/tasks\//);
  await expect(overdue).toContainText("Overdue since");
  await expect(assistant.section("In short")).toContainText(`Start with “${late}”.`);
  await expect(assistant.section("In short")).toContainText("Answered by the built-in assistant");
  await expect(assistant.section("Reviews")).toContainText("No cards are due for review this day.");
  await expectAccessible(page);

  await page.getByRole("link", { name: "Next day" }).click();
  await expect(page).toHaveURL(/\/en\/briefing\?date=\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole("main").getByRole("link", { name: "Today" })).toBeVisible();
  expect(errors).toEqual([]);
});

test("weekly reports: the list, empty until the first Monday", async ({ page }) => {
  const assistant = new AssistantPage(page);
  await register(page.request);
  await assistant.gotoReports();
  await expect(assistant.heading).toHaveText("Weekly reports");
  await expect(page.getByText("No reports yet.")).toBeVisible();
  await expectAccessible(page);
  const missing = await page.goto("/en/reports/2026-01-05");
  expect(missing?.status()).toBe(404);
});

test("Hebrew: the chat reads right to left and passes axe", async ({ page }) => {
  const assistant = new AssistantPage(page);
  await register(page.request);
  await assistant.gotoChat("he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(assistant.heading).toHaveText("עוזר");
  await expectAccessible(page);
});

test("signed out, the assistant's pages send the visitor to sign in and back", async ({ page }) => {
  for (const path of ["/en/chat", "/en/briefing", "/en/reports"]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/en/sign-in\\?next=${encodeURIComponent(path)}$`));
  }
});
