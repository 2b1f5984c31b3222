import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { BoardPage } from "./pages/board-page";

/*
 * The kanban board: each test registers its own user through the API (in the browser's context, so the page
 * is signed in), creates tasks through the API, and then uses the board as a person would: with the mouse,
 * with the keyboard only, with the Move buttons, and from a second browser that sees the changes live.
 */

interface Account {
  email: string;
  password: string;
}

async function register(request: APIRequestContext): Promise<Account> {
  const account = { email: `board-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const response = await request.post("/api/v1/auth/register", {
    data: { ...account, name: "Eva Board", locale: "en", timeZone: "Europe/Prague" },
  });
  expect(response.status()).toBe(201);
  return account;
}

/** Creates tasks in this order (each goes to the end of the board order) and answers their ids. */
async function createTasks(request: APIRequestContext, tasks: Record<string, unknown>[]): Promise<string[]> {
  const ids = [];
  for (const task of tasks) {
    const response = await request.post("/api/v1/tasks", { data: task });
    expect(response.status()).toBe(201);
    ids.push((await response.json()).id as string);
  }
  return ids;
}

/** Uncaught errors in the page, and React's complaints (hydration...) in the console. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  return errors;
}

test("signed out, the board sends the visitor to sign in and keeps the filter for afterwards", async ({ page }) => {
  await new BoardPage(page).goto("en", "?groupId=abc");
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Fboard%3FgroupId%3Dabc$/);
});

test("cards dragged with the mouse across and within columns keep their places after a reload", async ({ page }) => {
  const errors = collectErrors(page);
  const board = new BoardPage(page);
  await register(page.request);
  await createTasks(page.request, [{ title: "Write the report" }, { title: "Book the flights" }, { title: "Call the plumber" }]);

  await board.goto();
  await expect(board.heading).toHaveText("Board");
  await board.expectTitles("To do", ["Write the report", "Book the flights", "Call the plumber"]);
  await expect(board.column("In progress")).toContainText("No tasks");

  // Across columns: into the empty "In progress" column.
  let moved = board.nextMove();
  await board.dragWithMouse("Write the report", board.dropArea("In progress"));
  await board.expectTitles("In progress", ["Write the report"]);
  await board.expectTitles("To do", ["Book the flights", "Call the plumber"]);
  expect((await moved).status()).toBe(200);

  // Within a column: the last card onto the first takes its place.
  moved = board.nextMove();
  await board.dragWithMouse("Call the plumber", board.card("Book the flights"), "top");
  await board.expectTitles("To do", ["Call the plumber", "Book the flights"]);
  expect((await moved).status()).toBe(200);

  // Across columns again, above the card already there.
  moved = board.nextMove();
  await board.dragWithMouse("Book the flights", board.card("Write the report"), "top");
  await board.expectTitles("In progress", ["Book the flights", "Write the report"]);
  expect((await moved).status()).toBe(200);

  await page.reload();
  await board.expectTitles("To do", ["Call the plumber"]);
  await board.expectTitles("In progress", ["Book the flights", "Write the report"]);
  await expect(board.column("In progress")).toContainText("2 tasks");
  expect(errors).toEqual([]);
});

test("a card moved with the keyboard only is announced and stays there after a reload", async ({ page }) => {
  const board = new BoardPage(page);
  await register(page.request);
  await createTasks(page.request, [{ title: "Water the plants" }, { title: "Pay the rent" }, { title: "Renew the passport" }]);
  await board.goto();
  await board.expectTitles("To do", ["Water the plants", "Pay the rent", "Renew the passport"]);

  // Space picks the card up, the arrow moves it to the next column, Space drops it.
  await board.handle("Water the plants").focus();
  await page.keyboard.press("Space");
  await expect(board.dragAnnouncement).toHaveText("Picked up “Water the plants” in “To do”, position 1 of 3.");
  await page.keyboard.press("ArrowRight");
  await board.expectTitles("In progress", ["Water the plants"]);
  const moved = board.nextMove();
  await page.keyboard.press("Space");
  await expect(board.dragAnnouncement).toHaveText("Dropped “Water the plants” in “In progress”, position 1 of 1.");
  expect((await moved).status()).toBe(200);
  await expect(board.handle("Water the plants")).toBeFocused();

  // Within a column: down one place.
  await board.handle("Pay the rent").focus();
  await page.keyboard.press("Space");
  await expect(board.dragAnnouncement).toHaveText("Picked up “Pay the rent” in “To do”, position 1 of 2.");
  await page.keyboard.press("ArrowDown");
  await expect(board.dragAnnouncement).toHaveText("“Pay the rent” is over “To do”, position 2 of 2.");
  const reordered = board.nextMove();
  await page.keyboard.press("Space");
  await board.expectTitles("To do", ["Renew the passport", "Pay the rent"]);
  expect((await reordered).status()).toBe(200);

  // Escape puts the card back and sends nothing.
  let sent = false;
  page.on("request", (request) => {
    if (request.url().endsWith("/move")) sent = true;
  });
  await board.handle("Renew the passport").focus();
  await page.keyboard.press("Space");
  await expect(board.dragAnnouncement).toHaveText("Picked up “Renew the passport” in “To do”, position 1 of 2.");
  await page.keyboard.press("ArrowRight");
  await board.expectTitles("In progress", ["Renew the passport", "Water the plants"]);
  await page.keyboard.press("Escape");
  await board.expectTitles("To do", ["Renew the passport", "Pay the rent"]);
  await expect(board.dragAnnouncement).toContainText(
    "Moving cancelled. “Renew the passport” is back in “To do”, position 1 of 2.",
  );

  await page.reload();
  await board.expectTitles("To do", ["Renew the passport", "Pay the rent"]);
  await board.expectTitles("In progress", ["Water the plants"]);
  expect(sent).toBe(false);
});

test("a move refused by the server puts the card back and says so", async ({ page }) => {
  const board = new BoardPage(page);
  await register(page.request);
  await createTasks(page.request, [{ title: "Fix the bike" }]);
  await board.goto();
  await page.route("**/api/v1/tasks/*/move", (route) =>
    route.fulfill({ status: 503, contentType: "application/problem+json", body: "{}" }),
  );

  await board.moveWithMenu("Fix the bike", "To “Done”");
  await expect(board.alert).toHaveText(
    "“Fix the bike” could not be moved, so it is back where it was. Check your connection and try again.",
  );
  await board.expectTitles("To do", ["Fix the bike"]);
  await board.expectTitles("Done", []);
});

test("a second browser sees moves and new tasks live, without reloading", async ({ page, browser }) => {
  const board = new BoardPage(page);
  const account = await register(page.request);
  await createTasks(page.request, [{ title: "Plan the trip" }, { title: "Buy a tent" }]);

  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    const otherBoard = new BoardPage(otherPage);
    expect((await other.request.post("/api/v1/auth/login", { data: account })).status()).toBe(200);
    await otherBoard.goto();
    await board.goto();
    await otherBoard.expectTitles("To do", ["Plan the trip", "Buy a tent"]);
    await expect(otherPage.getByText("Live", { exact: true })).toBeVisible();

    // Moved here with the Move button (focus stays on it), seen there.
    const moved = board.nextMove();
    await board.moveWithMenu("Buy a tent", "To “In progress”");
    expect((await moved).status()).toBe(200);
    await expect(page.getByRole("button", { name: "Move “Buy a tent”" })).toBeFocused();
    await otherBoard.expectTitles("In progress", ["Buy a tent"]);
    await otherBoard.expectTitles("To do", ["Plan the trip"]);

    // Created elsewhere (through the API), seen on both.
    await createTasks(other.request, [{ title: "Pack the bags", status: "in_progress" }]);
    await board.expectTitles("In progress", ["Buy a tent", "Pack the bags"]);
    await otherBoard.expectTitles("In progress", ["Buy a tent", "Pack the bags"]);

    // Moved there, up one place, seen here.
    await otherBoard.moveWithMenu("Pack the bags", "Up one place");
    await board.expectTitles("In progress", ["Pack the bags", "Buy a tent"]);
  } finally {
    await other.close();
  }
});

test("the group and project filters show only their tasks and are kept in the URL", async ({ page }) => {
  const board = new BoardPage(page);
  await register(page.request);
  const groups = (await (await page.request.get("/api/v1/groups?lang=en")).json()).items as {
    id: string;
    key: string;
    name: string;
  }[];
  const work = groups.find((group) => group.key === "work")!;
  const home = groups.find((group) => group.key === "home")!;
  const project = await page.request.post("/api/v1/projects", { data: { name: "Kitchen renovation" } });
  expect(project.status()).toBe(201);
  const projectId = (await project.json()).id as string;
  await createTasks(page.request, [
    { title: "Prepare the slides", groupId: work.id },
    { title: "Clean the windows", groupId: home.id },
    { title: "Order the tiles", groupId: home.id, projectId },
  ]);

  await board.goto();
  await board.expectTitles("To do", ["Prepare the slides", "Clean the windows", "Order the tiles"]);
  await board.groupFilter.selectOption({ label: work.name });
  await expect(page).toHaveURL(new RegExp(`/en/board\\?groupId=${work.id}$`));
  await board.expectTitles("To do", ["Prepare the slides"]);

  await page.reload();
  await expect(board.groupFilter).toHaveValue(work.id);
  await board.expectTitles("To do", ["Prepare the slides"]);

  await board.groupFilter.selectOption({ label: "All groups" });
  await expect(page).toHaveURL(/\/en\/board$/);
  await board.expectTitles("To do", ["Prepare the slides", "Clean the windows", "Order the tiles"]);

  await board.projectFilter.selectOption({ label: "Kitchen renovation" });
  await expect(page).toHaveURL(new RegExp(`/en/board\\?projectId=${projectId}$`));
  await board.expectTitles("To do", ["Order the tiles"]);
});

for (const locale of ["en", "he"]) {
  test(`a long column shows its first 50 cards and loads the rest when scrolled to its end (${locale})`, async ({ page }) => {
    // 57 tasks written through the API and axe over a page of 50 cards: longer than the default 30 s on a busy machine.
    test.setTimeout(120_000);
    const errors = collectErrors(page);
    const board = new BoardPage(page);
    await register(page.request);
    const titles = Array.from({ length: 56 }, (_, index) => `Errand ${String(index + 1).padStart(2, "0")}`);
    await createTasks(
      page.request,
      titles.map((title) => ({ title })),
    );
    await createTasks(page.request, [{ title: "Started", status: "in_progress" }]);

    await board.goto(locale);
    const todo = page.locator("[data-status='todo']");
    const cards = todo.locator(".board-card-title");
    await expect(cards).toHaveText(titles.slice(0, 50));
    await expect(todo.locator(".board-column-count")).toHaveText(locale === "en" ? "56 tasks" : /56/);
    await expect(todo.locator(".board-column-more")).toHaveText(locale === "en" ? "Showing 50 of 56" : /50.*56/);

    // The column scrolls on its own; at its end the next cards load, and the page itself has not moved.
    const body = todo.locator(".board-column-body");
    expect(await body.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    const more = page.waitForResponse((response) => /\/api\/v1\/board\?.*cursor=/.test(response.url()));
    await body.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    expect((await more).status()).toBe(200);
    await expect(cards).toHaveText(titles);
    await expect(todo.locator(".board-column-more")).toHaveCount(0);
    await expect(todo.getByRole("button", { name: locale === "en" ? "Show more" : "הצגת עוד" })).toHaveCount(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.locator("[data-status='in_progress'] .board-card-title")).toHaveText(["Started"]);

    // A card loaded this way moves like any other, and is where it was put after a reload.
    const card = board.card("Errand 56");
    await card.locator(".board-move-button").click();
    const moved = board.nextMove();
    // Its choices: up one place, then the other columns in order ("In progress" first).
    await card.locator(".board-move-list button").nth(1).click();
    expect((await moved).status()).toBe(200);
    await page.reload();
    await expect(page.locator("[data-status='in_progress'] .board-card-title")).toHaveText(["Started", "Errand 56"]);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });
}

test("the board with full cards passes axe and fits a phone screen without sideways scrolling", async ({ page }) => {
  const board = new BoardPage(page);
  await register(page.request);
  const [report] = await createTasks(page.request, [
    { title: "Quarterly report", priority: "high", dueAt: "2031-03-14T09:00:00Z", tags: ["work", "finance"] },
    { title: "Garden", status: "in_progress", priority: "urgent" },
    { title: "Old idea", status: "cancelled" },
  ]);
  for (const [title, done] of [
    ["Draft", true],
    ["Review", false],
  ] as const) {
    expect((await page.request.post(`/api/v1/tasks/${report}/subtasks`, { data: { title, done } })).status()).toBe(201);
  }

  await board.goto();
  const card = board.card("Quarterly report");
  await expect(card).toContainText("1 of 2 subtasks done");
  await expect(card).toContainText("Priority: High");
  await expect(card).toContainText("Due Mar 14");
  await expect(card.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText(["work", "finance"]);
  await expect(card.getByRole("link", { name: "Quarterly report" })).toHaveAttribute("href", `/en/tasks/${report}`);
  await expectAccessible(page);

  // The Move list open too.
  await page.getByRole("button", { name: "Move “Garden”" }).click();
  await expectAccessible(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await board.goto();
  await expect(board.column("To do")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
