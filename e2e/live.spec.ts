import { expect, test } from "./fixtures";
import { BoardPage } from "./pages/board-page";
import { SiteHeader } from "./pages/site-header";
import { collectErrors, registerUser, signIn, TasksPage } from "./pages/tasks-page";

/*
 * Live updates of the task list over /ws: what one browser does appears in another without a reload, for the
 * same user in two browser contexts, and for a second user who sees a task through a user group; the bell and the
 * page hold one connection between them.
 */

test("two browsers of one user see each other's tasks appear, complete and go", async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const pageB = await second.newPage();
    const errors = [...collectErrors(pageA), ...collectErrors(pageB)];
    const account = await registerUser(pageA.request, "Two Browsers");
    await signIn(pageB.request, account);
    const a = new TasksPage(pageA);
    const b = new TasksPage(pageB);
    await a.goto();
    await b.goto();
    await a.ready();
    await b.ready();

    // Added in A: appears in B.
    await a.addTask("Water the plants");
    await expect(b.row("Water the plants")).toBeVisible();
    await expect(a.rows).toHaveCount(1);

    // Completed in B: it leaves the open tasks in both (for B's "Completed" section).
    await b.checkbox("Water the plants").click();
    await expect(a.rows).toHaveCount(0);
    await expect(b.rows).toHaveCount(0);
    await expect(pageB.getByRole("button", { name: "Completed (1)" })).toBeVisible();

    // Reopened and renamed elsewhere (the API): both follow.
    const [task] = ((await (await pageA.request.get("/api/v1/tasks")).json()) as { items: { id: string }[] }).items;
    expect(
      (await pageA.request.patch(`/api/v1/tasks/${task!.id}`, { data: { status: "todo", title: "Water the garden" } })).status(),
    ).toBe(200);
    await expect(a.checkbox("Water the garden")).not.toBeChecked();
    await expect(b.checkbox("Water the garden")).not.toBeChecked();

    // A list filtered to open tasks drops a task completed elsewhere.
    await b.goto("?status=todo");
    await b.ready();
    await a.checkbox("Water the garden").click();
    await expect(b.rows).toHaveCount(0);
    await expect(b.empty).toContainText("No task matches these filters");

    // Deleted: gone from A without a reload.
    expect((await pageB.request.delete(`/api/v1/tasks/${task!.id}`)).status()).toBe(204);
    await expect(a.rows).toHaveCount(0);
    await expect(a.empty).toContainText("Nothing to do yet");

    expect(errors).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});

test("a task shared through a user group appears and changes live for the other member", async ({ browser }) => {
  const ownerContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const ownerPage = await ownerContext.newPage();
    const memberPage = await memberContext.newPage();
    const errors = collectErrors(memberPage);
    await registerUser(ownerPage.request, "Olga Owner");
    const member = await registerUser(memberPage.request, "Milan Member");
    const team = await ownerPage.request.post("/api/v1/user-groups", { data: { name: "Flat mates" } });
    expect(team.status()).toBe(201);
    const teamId = ((await team.json()) as { id: string }).id;
    // The member joins by accepting the invitation that adding them makes (they did not work together before).
    const invited = await ownerPage.request.post(`/api/v1/user-groups/${teamId}/members`, { data: { email: member.email } });
    expect(invited.status()).toBe(202);
    const invitationId = ((await invited.json()) as { invitation: { id: string } }).invitation.id;
    expect((await memberPage.request.post(`/api/v1/invitations/${invitationId}/accept`)).status()).toBe(200);

    const list = new TasksPage(memberPage);
    await list.goto();
    await list.ready();
    await expect(list.empty).toBeVisible();

    // The owner assigns a task to the whole group: the member's list shows it.
    const created = await ownerPage.request.post("/api/v1/tasks", { data: { title: "Clean the stairs", userGroupId: teamId } });
    expect(created.status()).toBe(201);
    const taskId = ((await created.json()) as { id: string }).id;
    await expect(list.row("Clean the stairs")).toBeVisible();

    // Group members see the task but may not change it: the task comes back unticked and the page says why. (A
    // click, not `check()`: the row leaves for a moment, which `check()` reports as a failure.)
    await list.checkbox("Clean the stairs").click();
    await expect(list.alert).toHaveText("“Clean the stairs” was not changed. You can see this task but not change it.");
    await expect(list.checkbox("Clean the stairs")).not.toBeChecked();

    // The owner completes it: it leaves the member's open tasks; reopened, it is back.
    expect((await ownerPage.request.patch(`/api/v1/tasks/${taskId}`, { data: { status: "done" } })).status()).toBe(200);
    await expect(list.rows).toHaveCount(0);
    expect((await ownerPage.request.patch(`/api/v1/tasks/${taskId}`, { data: { status: "todo" } })).status()).toBe(200);
    await expect(list.row("Clean the stairs")).toBeVisible();

    // Taken away from the group: gone from the member's list.
    expect((await ownerPage.request.patch(`/api/v1/tasks/${taskId}`, { data: { userGroupId: null } })).status()).toBe(200);
    await expect(list.rows).toHaveCount(0);

    expect(errors.filter((error) => !error.includes("403"))).toEqual([]);
  } finally {
    await ownerContext.close();
    await memberContext.close();
  }
});

test("the bell and the page share one /ws connection: both follow live, also after moving on to the board", async ({
  browser,
}) => {
  const mineContext = await browser.newContext();
  const otherContext = await browser.newContext();
  try {
    const page = await mineContext.newPage();
    const otherPage = await otherContext.newPage();
    const errors = collectErrors(page);
    const sockets: string[] = [];
    page.on("websocket", (socket) => {
      if (new URL(socket.url()).pathname.startsWith("/ws")) sockets.push(socket.url());
    });
    const me = await registerUser(page.request, "Sola Socket");
    await registerUser(otherPage.request, "Ada Asker");
    const bell = page.getByTestId("notification-bell");

    const list = new TasksPage(page);
    await list.goto();
    await list.ready();
    await expect(bell).toHaveAttribute("data-live", "live");

    // Someone asks me to collaborate: the bell goes up; a task of mine made elsewhere: the list shows it.
    const theirs = await otherPage.request.post("/api/v1/tasks", { data: { title: "Their errand" } });
    expect(theirs.status()).toBe(201);
    const asked = await otherPage.request.post(`/api/v1/tasks/${(await theirs.json()).id}/collaboration-requests`, {
      data: { kind: "collaborate", userId: me.id },
    });
    expect(asked.status()).toBe(201);
    await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
    expect((await page.request.post("/api/v1/tasks", { data: { title: "Sort the mail" } })).status()).toBe(201);
    await expect(list.row("Sort the mail")).toBeVisible();
    expect(sockets).toHaveLength(1);

    // On to the board through the header (no reload): the same connection serves the board and the bell.
    await new SiteHeader(page).link("Board").click();
    await expect(page).toHaveURL(/\/en\/board$/);
    const board = new BoardPage(page);
    await expect(page.locator(".board-live")).toHaveText("Live");
    expect((await page.request.post("/api/v1/tasks", { data: { title: "Call the plumber" } })).status()).toBe(201);
    await expect(board.column("To do").getByText("Call the plumber")).toBeVisible();
    const again = await otherPage.request.post("/api/v1/tasks", { data: { title: "Another errand" } });
    const askedAgain = await otherPage.request.post(`/api/v1/tasks/${(await again.json()).id}/collaboration-requests`, {
      data: { kind: "collaborate", userId: me.id },
    });
    expect(askedAgain.status()).toBe(201);
    await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
    expect(sockets).toHaveLength(1);
    expect(errors).toEqual([]);
  } finally {
    await mineContext.close();
    await otherContext.close();
  }
});
