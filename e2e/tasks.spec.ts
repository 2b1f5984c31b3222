import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { collectErrors, createTask, registerUser, TasksPage } from "./pages/tasks-page";

/*
 * The task list page: signed-out visitors go to sign in and come back; quick add, inline completion, the
 * filters (in the URL, rendered by the server, kept by the back button), the empty states, groups in the page's
 * language and the phone layout. Each test registers its own user (times in Europe/Prague).
 */

test("signed out, the list sends the visitor to sign in and back to the same filters", async ({ page }) => {
  await page.goto("/en/tasks?status=done&q=milk");
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Ftasks%3Fstatus%3Ddone%26q%3Dmilk$/);
});

test("quick add, inline completion and the first-run empty state", async ({ page }) => {
  const errors = collectErrors(page);
  const tasks = new TasksPage(page);
  await registerUser(page.request, "Quick Adder");

  await tasks.goto();
  await expect(tasks.heading).toHaveText("All tasks");
  await expect(tasks.empty.getByRole("heading", { name: "Nothing to do yet" })).toBeVisible();
  await tasks.ready();
  await expectAccessible(page);

  // The empty state's button leads to quick add.
  await tasks.empty.getByRole("button", { name: "Add a task" }).click();
  await expect(tasks.quickAdd).toBeFocused();
  await expect(tasks.quickAddForm).toContainText("Press Enter to add it to Personal.");

  for (const title of ["Buy milk", "Call the plumber", "Write the report"]) {
    await tasks.addTask(title);
    await expect(tasks.row(title)).toBeVisible();
    await expect(tasks.quickAdd).toHaveValue("");
  }
  await expect(tasks.empty).toHaveCount(0);
  await expect.poll(() => tasks.titles()).toEqual(["Write the report", "Call the plumber", "Buy milk"]);

  // Saved: the server renders them after a reload, newest first.
  await page.reload();
  await expect.poll(() => tasks.titles()).toEqual(["Write the report", "Call the plumber", "Buy milk"]);
  await expect(tasks.row("Buy milk").getByRole("link")).toHaveAttribute("href", /^\/en\/tasks\/[0-9a-f-]{36}$/);

  // Completing inline: the task leaves the list for the "Completed" section, where it is after a reload too.
  await tasks.ready();
  const patched = page.waitForResponse((response) => response.request().method() === "PATCH" && response.status() === 200);
  await tasks.checkbox("Buy milk").click();
  await patched;
  await page.reload();
  await expect.poll(() => tasks.titles()).toEqual(["Write the report", "Call the plumber"]);
  await page.getByRole("button", { name: "Completed (1)" }).click();
  await expect(tasks.checkbox("Buy milk")).toBeChecked();
  await expect(tasks.checkbox("Call the plumber")).not.toBeChecked();
  await expectAccessible(page);

  // A failed add puts the title back and says why.
  await tasks.ready();
  await page.route("**/api/v1/tasks", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 500,
          contentType: "application/problem+json",
          body: JSON.stringify({ status: 500, title: "Internal" }),
        })
      : route.continue(),
  );
  await tasks.addTask("Doomed task");
  await expect(tasks.quickAddForm.getByRole("alert")).toHaveText("Something went wrong. Try again.");
  await expect(tasks.quickAdd).toHaveValue("Doomed task");
  await expect(tasks.row("Doomed task")).toHaveCount(0);
  await expect(tasks.rows.filter({ hasText: "Doomed task" })).toHaveCount(0);
  await page.unroute("**/api/v1/tasks");

  // An empty title is refused before any request.
  await tasks.quickAdd.fill("   ");
  await tasks.quickAdd.press("Enter");
  await expect(tasks.quickAddForm.getByRole("alert")).toHaveText("Type a title first.");
  await expect(tasks.quickAdd).toHaveAttribute("aria-invalid", "true");

  expect(errors).toEqual([]);
});

test("filters: status, text, tag and due days live in the URL and the server renders them", async ({ page }) => {
  const errors = collectErrors(page);
  const tasks = new TasksPage(page);
  const user = await registerUser(page.request, "Filter Fan");
  await createTask(page.request, { title: "Buy milk", status: "done" });
  await createTask(page.request, { title: "Call the plumber", description: "The kitchen tap drips", assigneeIds: [user.id] });
  // 00:30 on 11 May in Prague, still 10 May in UTC.
  const rent = await createTask(page.request, {
    title: "Pay the rent",
    dueAt: "2030-05-10T22:30:00Z",
    priority: "high",
    tags: ["home", "money"],
  });
  for (const title of ["Find the contract", "Transfer"]) {
    expect(
      (await page.request.post(`/api/v1/tasks/${rent.id}/subtasks`, { data: { title, done: title === "Transfer" } })).status(),
    ).toBe(201);
  }

  await tasks.goto();
  await tasks.ready();
  // The done task waits in the "Completed" section.
  await expect(tasks.rows).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Completed (1)" })).toBeVisible();
  const rentRow = tasks.row("Pay the rent");
  await expect(rentRow).toContainText("Priority: High");
  await expect(rentRow.locator("time")).toHaveText("Due May 11, 12:30 AM");
  await expect(rentRow).toContainText("1 of 2 subtasks done");
  await expect(rentRow.getByRole("link", { name: "#money" })).toBeVisible();

  // Assigned to me: only the task the user assigned to themself.
  await tasks.openMoreFilters();
  await tasks.filters.getByLabel("Assigned to").selectOption({ label: "Me" });
  await expect(page).toHaveURL(/\/en\/tasks\?assignee=me$/);
  await expect.poll(() => tasks.titles()).toEqual(["Call the plumber"]);
  await tasks.filters.getByLabel("Assigned to").selectOption({ label: "Anyone" });
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(tasks.rows).toHaveCount(2);

  // Status: only the done task; the back button returns to everything.
  await tasks.statusFilter("Done").check();
  await expect(page).toHaveURL(/\/en\/tasks\?status=done$/);
  await expect.poll(() => tasks.titles()).toEqual(["Buy milk"]);
  await expect(tasks.filters.locator(".task-filters-more > summary")).toHaveText("More filters (1 active)");
  await page.goBack();
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(tasks.rows).toHaveCount(2);
  await expect(tasks.statusFilter("Done")).not.toBeChecked();

  // Text search in the title or description.
  await tasks.search.fill("kitchen");
  await expect(page).toHaveURL(/\/en\/tasks\?q=kitchen$/);
  await expect.poll(() => tasks.titles()).toEqual(["Call the plumber"]);

  // Nothing matching: its own empty state, and a way out.
  await tasks.search.fill("nothing like this");
  await expect(tasks.empty.getByRole("heading", { name: "No task matches these filters" })).toBeVisible();
  await expectAccessible(page);
  await tasks.empty.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(tasks.rows).toHaveCount(2);
  await expect(tasks.search).toHaveValue("");

  // A tag of a row filters by it.
  await rentRow.getByRole("link", { name: "#home" }).click();
  await expect(page).toHaveURL(/\/en\/tasks\?tag=home$/);
  await expect.poll(() => tasks.titles()).toEqual(["Pay the rent"]);

  // Due days are whole days in the user's time zone, both included.
  await tasks.goto("?from=2030-05-11&until=2030-05-11");
  await expect.poll(() => tasks.titles()).toEqual(["Pay the rent"]);
  await tasks.openMoreFilters();
  await expect(tasks.filters.getByLabel("Due from")).toHaveValue("2030-05-11");
  await tasks.goto("?until=2030-05-10");
  await expect(tasks.empty).toContainText("No task matches these filters");

  // A shared link renders the filtered list on the server, before any script runs.
  const html = await (await page.request.get("/en/tasks?status=todo&q=plumber")).text();
  expect(html).toContain("Call the plumber");
  expect(html).not.toContain("Buy milk");
  await tasks.goto("?status=todo&q=plumber&sort=dueAt");
  await expect(tasks.search).toHaveValue("plumber");
  await expect(tasks.filters.getByLabel("Sort by")).toHaveValue("dueAt");
  await tasks.openMoreFilters();
  await expect(tasks.statusFilter("To do")).toBeChecked();
  await expect.poll(() => tasks.titles()).toEqual(["Call the plumber"]);

  expect(errors).toEqual([]);
});

test("groups in the page's language: the sidebar filters, quick add goes to the group shown", async ({ page }) => {
  const errors = collectErrors(page);
  const tasks = new TasksPage(page);
  await registerUser(page.request, "Jana Skupiny");

  await tasks.goto("", "cs");
  await expect(tasks.heading).toHaveText("Všechny úkoly");
  const sidebar = page.getByRole("navigation", { name: "Skupiny úkolů" });
  await expect(sidebar.getByRole("link")).toHaveText([
    "Všechny úkoly",
    "Osobní",
    "Práce",
    "Rodina",
    "Domácnost",
    "Nákupy",
    "Zdraví",
    "Studium",
    "Finance",
  ]);
  await expect(sidebar.getByRole("link", { name: "Všechny úkoly" })).toHaveAttribute("aria-current", "page");

  await sidebar.getByRole("link", { name: "Práce" }).click();
  await expect(page).toHaveURL(/\/cs\/tasks\?group=[0-9a-f-]{36}$/);
  await expect(tasks.heading).toHaveText("Práce");
  await expect(tasks.empty.getByRole("heading", { name: "Ve skupině Práce zatím nejsou žádné úkoly" })).toBeVisible();
  await expect(tasks.quickAddForm).toContainText("Stiskněte Enter a úkol se přidá do skupiny Práce.");
  await expect(tasks.quickAdd).toBeEnabled();
  await tasks.addTask("Připravit prezentaci");
  await expect(page.getByRole("checkbox", { name: "Hotovo: Připravit prezentaci" })).toBeVisible();

  // In all tasks, the row names its group; the API agrees.
  await sidebar.getByRole("link", { name: "Všechny úkoly" }).click();
  await expect(page).toHaveURL(/\/cs\/tasks$/);
  await expect(tasks.row("Připravit prezentaci").locator(".task-row-group")).toHaveText("Práce");
  const groups = (await (await page.request.get("/api/v1/groups?lang=cs")).json()) as { items: { id: string; name: string }[] };
  const list = (await (await page.request.get("/api/v1/tasks")).json()) as { items: { title: string; groupId: string }[] };
  expect(list.items.map((task) => [task.title, groups.items.find((group) => group.id === task.groupId)?.name])).toEqual([
    ["Připravit prezentaci", "Práce"],
  ]);

  // On a phone the sidebar gives way to the group field (the filters folded behind one button), and nothing
  // scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(sidebar).toBeHidden();
  await tasks.openFilters();
  const groupField = tasks.page.getByRole("form", { name: "Filtry" }).getByLabel("Skupina");
  await expect(groupField).toBeVisible();
  await groupField.selectOption({ label: "Práce" });
  await expect(tasks.heading).toHaveText("Práce");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);

  expect(errors).toEqual([]);
});

test("Load more follows the API's cursor", async ({ page }) => {
  const tasks = new TasksPage(page);
  await registerUser(page.request, "Many Tasks");
  await Promise.all(Array.from({ length: 55 }, (_, n) => createTask(page.request, { title: `Task number ${n + 1}` })));

  await tasks.goto();
  await expect(tasks.rows).toHaveCount(50);
  await tasks.ready();
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(tasks.rows).toHaveCount(55);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  // Every task once: the second page continues the first.
  expect(new Set(await tasks.titles()).size).toBe(55);
});
