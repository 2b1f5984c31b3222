import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "./fixtures";
import { expectAccessible } from "./axe";
import { BoardPage } from "./pages/board-page";
import { collectErrors } from "./page-errors";

/*
 * The kanban board: each test registers its own user through the API (in the browser's context, so the page
 * is signed in), creates tasks through the API, and then uses the board as a person would: with the mouse,
 * with the keyboard only, with the Move buttons, and from a second browser that sees the changes live.
 */

interface Account {
  email: string;
  password: string;
}

async function register(request: APIRequestContext, name = "Eva Board"): Promise<Account & { id: string }> {
  const account = { email: `board-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const response = await request.post("/api/v1/auth/register", {
    data: { ...account, name, locale: "en", timeZone: "Europe/Prague" },
  });
  expect(response.status()).toBe(201);
  return { ...account, id: (await response.json()).user.id as string };
}

/** Assigns someone to the owner's task the way people do: the owner asks, they accept (in their own session). */
async function assign(owner: APIRequestContext, taskId: string, who: APIRequestContext, whoId: string) {
  const asked = await owner.post(`/api/v1/tasks/${taskId}/collaboration-requests`, { data: { kind: "assign", userId: whoId } });
  expect(asked.status()).toBe(201);
  const accepted = await who.post(`/api/v1/collaboration-requests/${(await asked.json()).id}/accept`);
  expect(accepted.status()).toBe(200);
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
    expect(
      (await other.request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } })).status(),
    ).toBe(200);
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
  test(`a long column shows its first 8 cards and loads the rest when scrolled to its end (${locale})`, async ({ page }) => {
    // 57 tasks written through the API and axe over a column of 56 cards: longer than the default 30 s on a busy machine.
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
    await expect(cards).toHaveText(titles.slice(0, 8));
    await expect(todo.locator(".board-column-count")).toHaveText(locale === "en" ? "56 tasks" : /56/);
    await expect(todo.locator(".board-column-more")).toHaveText(locale === "en" ? "Showing 8 of 56" : /8.*56/);

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

test("a card dragged by its body, not its handle, lands in another column; a click on its link still opens it", async ({
  page,
}) => {
  const errors = collectErrors(page);
  const board = new BoardPage(page);
  await register(page.request);
  const [insurance, mail] = await createTasks(page.request, [
    { title: "Renew the insurance", dueAt: "2031-06-01T08:00:00Z" },
    { title: "Sort the mail" },
  ]);
  await createTasks(page.request, [{ title: "Repaint the door", status: "in_progress" }]);
  await board.goto();

  // Grabbed by its due date: plain text on the card, neither the handle nor the link nor a button.
  const moved = board.nextMove();
  await board.dragWithMouse(
    "Renew the insurance",
    board.card("Repaint the door"),
    "top",
    board.card("Renew the insurance").locator(".board-due"),
  );
  await board.expectTitles("In progress", ["Renew the insurance", "Repaint the door"]);
  expect((await moved).status()).toBe(200);
  const saved = await page.request.get(`/api/v1/tasks/${insurance}`);
  expect((await saved.json()).status).toBe("in_progress");

  await board.card("Sort the mail").getByRole("link", { name: "Sort the mail" }).click();
  await expect(page).toHaveURL(new RegExp(`/en/tasks/${mail}$`));
  expect(errors).toEqual([]);
});

for (const locale of ["en", "he"] as const) {
  test(`cards show their assignees' initials and due chips, overdue said in words (${locale})`, async ({ page, playwright }) => {
    test.setTimeout(60_000);
    const board = new BoardPage(page);
    const me = await register(page.request);
    const [party, bank] = await createTasks(page.request, [
      { title: "Plan the party", assigneeIds: [me.id], dueAt: "2031-03-14T09:00:00Z" },
      { title: "Call the bank", dueAt: new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString() },
    ]);
    const others: { name: string; request: APIRequestContext; id: string }[] = [];
    for (const name of ["Jan Novák", "Olga Dvořák", "Petr Svoboda", "Dana Král"]) {
      const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
      others.push({ name, request, id: (await register(request, name)).id });
    }
    try {
      for (const other of others) await assign(page.request, party!, other.request, other.id);
      await assign(page.request, bank!, others[0]!.request, others[0]!.id);
    } finally {
      await Promise.all(others.map((other) => other.request.dispose()));
    }

    await board.goto(locale);
    const assignees = (title: string) =>
      board
        .card(title)
        .getByRole("list", { name: locale === "en" ? "Assignees" : "אחראים" })
        .getByRole("img");
    // Five people: the first three by name, then "+2".
    await expect(assignees("Plan the party")).toHaveText(["EB", "JN", "OD", "+2"]);
    const more = locale === "en" ? "and 2 more people" : "ועוד שני אנשים";
    for (const [index, name] of ["Eva Board", "Jan Novák", "Olga Dvořák", more].entries())
      await expect(assignees("Plan the party").nth(index)).toHaveAccessibleName(name);
    await expect(assignees("Call the bank")).toHaveText(["JN"]);

    const date = (iso: string) =>
      new Intl.DateTimeFormat(locale, { timeZone: "Europe/Prague", day: "numeric", month: "short" }).format(new Date(iso));
    const bankDue = (await (await page.request.get(`/api/v1/tasks/${bank}`)).json()).dueAt as string;
    const words = locale === "en" ? ["Due ", "Overdue since "] : ["יעד: ", "באיחור מאז "];
    await expect(board.card("Plan the party").locator("time")).toHaveText(`${words[0]}${date("2031-03-14T09:00:00Z")}`);
    await expect(board.card("Call the bank").locator("time")).toHaveText(`${words[1]}${date(bankDue)}`);
    await expect(page.locator("html")).toHaveAttribute("dir", locale === "he" ? "rtl" : "ltr");

    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await expectAccessible(page);
    }
  });
}

test.describe("on a phone with a touch screen", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("a card dragged by a finger (a long press on its body) lands in another column and stays there after a reload", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    const board = new BoardPage(page);
    await register(page.request);
    const [insurance] = await createTasks(page.request, [
      { title: "Renew the insurance", dueAt: "2031-06-01T08:00:00Z" },
      { title: "Sort the mail" },
    ]);
    await createTasks(page.request, [{ title: "Repaint the door", status: "in_progress" }]);
    await board.goto();
    await expect(page.locator(".board-live")).toHaveText("Live");
    await board.expectTitles("To do", ["Renew the insurance", "Sort the mail"]);

    // On a phone the columns are 85 % of the screen wide and snap into place as the board scrolls sideways, so only a
    // sliver of "In progress" shows beside "To do" (a finger dropping there would also make the board scroll by
    // itself). To drop on a known spot, the test turns the snapping off and brings the edge between the two columns
    // to the middle of the screen: the card and the drop area are then both under a finger.
    const card = board.card("Renew the insurance");
    await card.scrollIntoViewIfNeeded();
    await board.column("In progress").evaluate((column) => {
      const columns = column.closest<HTMLElement>(".board-columns");
      if (!columns) throw new Error("no .board-columns around the column");
      columns.style.scrollSnapType = "none";
      columns.scrollLeft += column.getBoundingClientRect().left - window.innerWidth / 2;
    });

    // Held on its due date (neither its link, its handle nor a button), then moved onto "In progress".
    const moved = board.nextMove();
    await board.dragWithTouch(card.locator(".board-card-badges"), board.dropArea("In progress"));
    expect((await moved).status()).toBe(200);
    await expect(board.column("In progress").getByRole("link", { name: "Renew the insurance", exact: true })).toBeVisible();

    // Saved: after a reload it is still there, and the API says so.
    await page.reload();
    await expect(board.column("In progress").getByRole("link", { name: "Renew the insurance", exact: true })).toBeVisible();
    await board.expectTitles("To do", ["Sort the mail"]);
    const saved = await page.request.get(`/api/v1/tasks/${insurance}`);
    expect((await saved.json()).status).toBe("in_progress");
    expect(errors).toEqual([]);
  });
});
