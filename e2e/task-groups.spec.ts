import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { GroupManager, type ManagerWords } from "./pages/group-manager";
import { collectErrors, registerUser, TasksPage } from "./pages/tasks-page";

/*
 * The task groups in the task list's sidebar: open-task counts per group, and the groups manager (create, rename
 * per language, reorder with the mouse and with the keyboard, archive and restore, delete with "move tasks to"),
 * in English on a desktop and in Hebrew (right to left) on a phone, with axe light and dark at both sizes.
 */

interface Language extends ManagerWords {
  locale: "en" | "he";
  /** Where the manager is used: the sidebar's links are shown on desktops only. */
  viewport: { width: number; height: number };
  /** The default groups' names, in order. */
  defaults: string[];
  newName: string;
  /** A sidebar link's description: the group's open tasks. */
  open: (count: number) => string;
  added: (name: string) => string;
  namesSaved: string;
  movedOver: (name: string, position: number, count: number) => string;
  dropped: (name: string, position: number, count: number) => string;
  orderSaved: string;
  archived: (name: string) => string;
  restored: (name: string) => string;
  moveTo: (name: string) => string;
  deleteQuestion: (name: string, target: string) => string;
  deleted: (name: string) => string;
}

const LANGUAGES: Language[] = [
  {
    locale: "en",
    viewport: { width: 1280, height: 800 },
    defaults: ["Personal", "Work", "Family", "Home", "Shopping", "Health", "Study", "Finance"],
    newName: "Garden",
    open: (count) => (count === 1 ? "1 open task" : `${count} open tasks`),
    manage: "Manage groups",
    newGroup: "New group",
    addGroup: "Add group",
    added: (name) => `“${name}” added.`,
    edit: (name) => `Edit ${name}`,
    handle: (name) => `Move ${name}`,
    saveNames: "Save names",
    namesSaved: "Names saved.",
    movedOver: (name, position, count) => `${name} would move to position ${position} of ${count}.`,
    dropped: (name, position, count) => `${name} dropped at position ${position} of ${count}.`,
    orderSaved: "The new order is saved.",
    archive: (name) => `Archive ${name}`,
    restore: (name) => `Restore ${name}`,
    archivedBadge: "Archived",
    archived: (name) => `“${name}” is archived: it left the list of groups, its tasks stay.`,
    restored: (name) => `“${name}” is back in the list of groups.`,
    tasksGo: "Its tasks",
    moveTo: (name) => `Move them to ${name}`,
    deleteGroup: (name) => `Delete group ${name}`,
    deleteQuestion: (name, target) => `Delete “${name}”? Its tasks move to “${target}”.`,
    deleteConfirm: "Delete",
    deleted: (name) => `“${name}” is deleted.`,
  },
  {
    locale: "he",
    viewport: { width: 390, height: 844 },
    defaults: ["אישי", "עבודה", "משפחה", "בית", "קניות", "בריאות", "לימודים", "כספים"],
    newName: "גינה",
    open: (count) => (count === 1 ? "משימה פתוחה אחת" : count === 2 ? "שתי משימות פתוחות" : `${count} משימות פתוחות`),
    manage: "ניהול קבוצות",
    newGroup: "קבוצה חדשה",
    addGroup: "הוספת קבוצה",
    added: (name) => `הקבוצה „${name}” נוספה.`,
    edit: (name) => `עריכה ${name}`,
    handle: (name) => `הזזת ${name}`,
    saveNames: "שמירת השמות",
    namesSaved: "השמות נשמרו.",
    movedOver: (name, position, count) => `הקבוצה ${name} תעבור למקום ${position} מתוך ${count}.`,
    dropped: (name, position, count) => `הקבוצה ${name} שוחררה במקום ${position} מתוך ${count}.`,
    orderSaved: "הסדר החדש נשמר.",
    archive: (name) => `העברה לארכיון ${name}`,
    restore: (name) => `שחזור ${name}`,
    archivedBadge: "בארכיון",
    archived: (name) => `הקבוצה „${name}” הועברה לארכיון: היא יצאה מרשימת הקבוצות, והמשימות שלה נשארות.`,
    restored: (name) => `הקבוצה „${name}” חזרה לרשימת הקבוצות.`,
    tasksGo: "המשימות שבה",
    moveTo: (name) => `להעביר אל ${name}`,
    deleteGroup: (name) => `מחיקת הקבוצה ${name}`,
    deleteQuestion: (name, target) => `למחוק את „${name}”? המשימות שבה יעברו אל „${target}”.`,
    deleteConfirm: "מחיקה",
    deleted: (name) => `הקבוצה „${name}” נמחקה.`,
  },
];

interface ApiGroup {
  id: string;
  name: string;
  archived: boolean;
  openTasks?: number;
}

async function groupsOf(request: APIRequestContext, lang: string): Promise<ApiGroup[]> {
  const answer = await request.get(`/api/v1/groups?includeArchived=true&counts=true&lang=${lang}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { items: ApiGroup[] }).items;
}

/** axe on the page as it is, light and dark, at desktop and phone sizes; ends at `viewport`. */
async function expectAccessibleEverywhere(page: Page, viewport: Language["viewport"]) {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await expectAccessible(page);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(viewport);
}

for (const words of LANGUAGES) {
  test(`groups in ${words.locale}: counts, create, rename per language, reorder, archive, delete moving the tasks`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const errors = collectErrors(page);
    const tasks = new TasksPage(page);
    const manager = new GroupManager(page, words);
    await registerUser(page.request, "Group Keeper");
    const [personal, work] = words.defaults as [string, string];

    // Two open tasks and a done one in the second group: the sidebar counts the open ones.
    const workId = (await groupsOf(page.request, words.locale))[1]!.id;
    for (const [title, status] of [
      ["Draft the plan", "todo"],
      ["Review the budget", "in_progress"],
      ["Send the invoice", "done"],
    ]) {
      const created = await page.request.post("/api/v1/tasks", { data: { title, status, groupId: workId } });
      expect(created.status()).toBe(201);
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    await tasks.goto("", words.locale);
    await expect(page.locator("html")).toHaveAttribute("dir", words.locale === "he" ? "rtl" : "ltr");
    const sidebar = page.locator(".tasks-sidebar");
    const link = (name: string) => sidebar.getByRole("link", { name, exact: true });
    // On a phone the links are hidden, giving way to the filters' group field, but the page holds them.
    const linkText = (name: string) => sidebar.locator("a > span[dir='auto']").filter({ hasText: new RegExp(`^${name}$`) });
    await expect(link(work)).toHaveAccessibleDescription(words.open(2));
    await expect(link(work)).toContainText("2");
    await expect(link(personal)).toBeVisible();
    await expect(link(personal)).toHaveAccessibleDescription("");
    // Hydrated and live (the indicator's words are the page's language).
    await expect(tasks.quickAdd).toBeEnabled();
    await expect(tasks.live).toHaveClass(/tasks-live-live/);

    await page.setViewportSize(words.viewport);
    await expect(manager.toggle).toHaveAttribute("aria-expanded", "false");
    await manager.toggle.click();
    await expect(manager.toggle).toHaveAttribute("aria-expanded", "true");
    await expect.poll(() => manager.names()).toEqual(words.defaults);

    // Create: the group is added after the last one, named in the page's language.
    await manager.create(words.newName);
    await expect(manager.status).toHaveText(words.added(words.newName));
    await expect.poll(() => manager.names()).toEqual([...words.defaults, words.newName]);
    expect((await groupsOf(page.request, words.locale)).map((group) => group.name)).toEqual([...words.defaults, words.newName]);

    // Rename per language: the page's language first, then the four others.
    await manager.edit(words.newName);
    const editor = manager.item(words.newName).locator(".group-editor");
    await expect(editor.getByRole("textbox").first()).toHaveValue(words.newName);
    await editor.getByRole("textbox", { name: "Čeština" }).fill("Zahrada");
    await editor.getByRole("textbox", { name: "Русский" }).fill("Сад");
    await expectAccessibleEverywhere(page, words.viewport);
    await editor.getByRole("button", { name: words.saveNames }).click();
    await expect(manager.status).toHaveText(words.namesSaved);
    expect((await groupsOf(page.request, "cs")).at(-1)!.name).toBe("Zahrada");
    expect((await groupsOf(page.request, "ru")).at(-1)!.name).toBe("Сад");
    expect((await groupsOf(page.request, words.locale)).at(-1)!.name).toBe(words.newName);
    await manager.edit(words.newName);

    // Reorder with the keyboard: Space picks the group up, two arrows up, Space drops it; it is announced.
    await manager.handle(words.newName).focus();
    await page.keyboard.press("Space");
    for (const position of [8, 7]) {
      await page.keyboard.press("ArrowUp");
      await expect(manager.announcement).toContainText(words.movedOver(words.newName, position, 9));
    }
    await page.keyboard.press("Space");
    await expect(manager.announcement).toContainText(words.dropped(words.newName, 7, 9));
    await expect(manager.status).toHaveText(words.orderSaved);
    const keyboardOrder = [...words.defaults.slice(0, 6), words.newName, ...words.defaults.slice(6)];
    await expect.poll(() => manager.names()).toEqual(keyboardOrder);
    await expect.poll(async () => (await groupsOf(page.request, words.locale)).map((group) => group.name)).toEqual(keyboardOrder);

    // Reorder with the mouse: the last group dragged onto the first one's place.
    const last = words.defaults[7]!;
    await manager.dragWithMouse(last, personal);
    const mouseOrder = [last, ...keyboardOrder.slice(0, -1)];
    await expect.poll(() => manager.names()).toEqual(mouseOrder);
    await expect.poll(async () => (await groupsOf(page.request, words.locale)).map((group) => group.name)).toEqual(mouseOrder);

    // Archive: the group leaves the sidebar's links and the filters, stays in the manager; restore brings it back.
    await manager.edit(work);
    await page.getByRole("button", { name: words.archive(work), exact: true }).click();
    await expect(manager.status).toHaveText(words.archived(work));
    await expect(manager.item(work).getByText(words.archivedBadge)).toBeVisible();
    await expect(linkText(work)).toHaveCount(0);
    expect((await groupsOf(page.request, words.locale)).find((group) => group.name === work)?.archived).toBe(true);
    await page.getByRole("button", { name: words.restore(work), exact: true }).click();
    await expect(manager.status).toHaveText(words.restored(work));
    await expect(manager.item(work).getByText(words.archivedBadge)).toHaveCount(0);
    await expect(linkText(work)).toHaveCount(1);

    // Delete, moving its tasks (the done one too) to the first group; confirmed first.
    await manager
      .item(work)
      .getByRole("combobox", { name: words.tasksGo })
      .selectOption({ label: words.moveTo(personal) });
    await page.getByRole("button", { name: words.deleteGroup(work), exact: true }).click();
    await expect(manager.item(work).getByText(words.deleteQuestion(work, personal))).toBeVisible();
    await expect(page.getByRole("button", { name: words.deleteConfirm, exact: true })).toBeFocused();
    await page.getByRole("button", { name: words.deleteConfirm, exact: true }).click();
    await expect(manager.status).toHaveText(words.deleted(work));
    await expect(manager.toggle).toBeFocused();
    const afterDelete = mouseOrder.filter((name) => name !== work);
    await expect.poll(() => manager.names()).toEqual(afterDelete);
    const groups = await groupsOf(page.request, words.locale);
    expect(groups.map((group) => group.name)).toEqual(afterDelete);
    const personalGroup = groups.find((group) => group.name === personal)!;
    expect(personalGroup.openTasks).toBe(2);
    const moved = (await (
      await page.request.get(`/api/v1/tasks?groupId=${personalGroup.id}&status=todo,in_progress,done`)
    ).json()) as {
      items: { title: string }[];
    };
    expect(moved.items.map((task) => task.title).sort()).toEqual(["Draft the plan", "Review the budget", "Send the invoice"]);

    // After a reload the order, the names and the counts are the server's.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await expect(link(personal)).toHaveAccessibleDescription(words.open(2));
    await manager.toggle.click();
    await expect.poll(() => manager.names()).toEqual(afterDelete);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(errors).toEqual([]);
  });
}
