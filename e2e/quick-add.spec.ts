import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { collectErrors, TasksPage } from "./pages/tasks-page";

/*
 * Quick add on the task list page understands what people type, in all five languages (Hebrew right to left):
 * what it recognised is listed in words under the field, one recognition can be undone with a click or with
 * Backspace right after it (its words then stay in the title), and Enter creates the task with the parsed fields,
 * as the API then shows them. Times are checked in the user's zone against the browser's clock.
 */

interface ApiTask {
  title: string;
  dueAt: string | null;
  priority: string;
  tags: string[];
  groupId: string;
  recurrence: { frequency: string; interval: number } | null;
}

async function register(request: APIRequestContext, locale: string, timeZone: string) {
  const data = { name: "Quick", email: `quick-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, locale, timeZone };
  expect((await request.post("/api/v1/auth/register", { data })).status()).toBe(201);
}

async function tasksOf(request: APIRequestContext): Promise<ApiTask[]> {
  return ((await (await request.get("/api/v1/tasks")).json()) as { items: ApiTask[] }).items;
}

async function groupId(request: APIRequestContext, name: string): Promise<string> {
  const groups = (await (await request.get("/api/v1/groups?lang=en")).json()) as { items: { id: string; name: string }[] };
  return groups.items.find((group) => group.name === name)!.id;
}

/** The local "YYYY-MM-DD HH:MM" of an instant in a zone. */
const local = (iso: string | null, timeZone: string) =>
  iso ? new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "short" }).format(new Date(iso)) : "";

/** Tomorrow's local date in a zone, by the browser's clock (the one the page parses with). */
async function tomorrow(page: Page, timeZone: string): Promise<string> {
  const now = await page.evaluate(() => Date.now());
  return new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short" }).format(new Date(now + 86_400_000));
}

async function openList(page: Page, locale: string, timeZone: string) {
  await register(page.request, locale, timeZone);
  const tasks = new TasksPage(page);
  await tasks.goto("", locale);
  await expect(tasks.quickAdd).toBeEnabled();
  await expect(tasks.live).toHaveClass(/tasks-live-live/);
  return tasks;
}

const recognized = (tasks: TasksPage) => tasks.quickAddForm.getByRole("list").getByRole("button");

test("English: highlights and lists what it understood, a click undoes one, Enter creates the parsed task", async ({ page }) => {
  const errors = collectErrors(page);
  const tasks = await openList(page, "en", "Europe/Prague");
  await tasks.quickAdd.fill("Buy groceries tomorrow at 9 !high #food +Shopping");
  await expect(recognized(tasks)).toHaveText([
    /^tomorrow at 9\s*Due \w{3}, \w{3} \d+, 9:00\sAM/,
    /^!high\s*Priority: High/,
    /^#food\s*Tag food/,
    /^\+Shopping\s*Group Shopping/,
  ]);
  // Marked in the field too, not by colour alone: the list above says what each mark means.
  await expect(tasks.quickAddForm.locator(".quick-add-mirror mark")).toHaveText(["tomorrow at 9", "!high", "#food", "+Shopping"]);
  await expect(tasks.quickAddForm.getByRole("status")).toHaveText(
    /^Understood: Due .*, Priority: High, Tag food, Group Shopping\.$/,
  );
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "light" });

  await recognized(tasks).filter({ hasText: "#food" }).click();
  await expect(recognized(tasks)).toHaveCount(3);
  await expect(tasks.quickAdd).toBeFocused();
  await tasks.quickAdd.press("Enter");
  await expect(tasks.row("Buy groceries #food")).toBeVisible();
  await expect(tasks.quickAdd).toHaveValue("");

  const [task] = await tasksOf(page.request);
  expect(task).toMatchObject({
    title: "Buy groceries #food",
    priority: "high",
    tags: [],
    groupId: await groupId(page.request, "Shopping"),
  });
  expect(local(task!.dueAt, "Europe/Prague")).toBe(`${await tomorrow(page, "Europe/Prague")} 09:00`);
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("Czech: Backspace right after a recognition undoes it, the next one deletes; a repeat nobody can store is said", async ({
  page,
}) => {
  const errors = collectErrors(page);
  const tasks = await openList(page, "cs", "Europe/Prague");
  await tasks.quickAdd.fill("Zavolat mámě zítra v 18 !1 v pátek");
  await expect(recognized(tasks)).toHaveText([/^zítra/, /^v 18/, /^!1\s*Priorita: Naléhavá/]);
  // "v pátek" after a date is a second date: not used, it stays in the title. Backspace after "!1" undoes it.
  await tasks.quickAdd.fill("Zavolat mámě zítra v 18 !1");
  await tasks.quickAdd.press("End");
  await tasks.quickAdd.press("Backspace");
  await expect(tasks.quickAdd).toHaveValue("Zavolat mámě zítra v 18 !1");
  await expect(recognized(tasks)).toHaveText([/^zítra/, /^v 18/]);
  await tasks.quickAdd.press("Backspace");
  await expect(tasks.quickAdd).toHaveValue("Zavolat mámě zítra v 18 !");
  await tasks.quickAdd.press("Backspace");
  await tasks.quickAdd.press("Backspace");
  await tasks.quickAdd.press("Enter");
  await expect(page.getByRole("checkbox", { name: "Hotovo: Zavolat mámě" })).toBeVisible();
  const [task] = await tasksOf(page.request);
  expect(task).toMatchObject({ title: "Zavolat mámě", priority: "normal" });
  expect(local(task!.dueAt, "Europe/Prague")).toBe(`${await tomorrow(page, "Europe/Prague")} 18:00`);

  await tasks.quickAdd.fill("Posilovna každé pondělí a čtvrtek");
  await expect(tasks.quickAddForm).toContainText("„každé pondělí a čtvrtek“ úkol opakovat neumí");
  await expect(recognized(tasks)).toHaveCount(0);
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("Hebrew, right to left: the field and its list read right to left; the task is created as understood", async ({ page }) => {
  const errors = collectErrors(page);
  const tasks = await openList(page, "he", "Asia/Jerusalem");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await tasks.quickAdd.fill("לקנות חלב מחר ב־21:00 #בית +קניות");
  expect(await tasks.quickAdd.evaluate((input) => getComputedStyle(input).direction)).toBe("rtl");
  await expect(recognized(tasks)).toHaveText([/^מחר/, /^ב־21:00/, /^#בית\s*תגית בית/, /^\+קניות\s*קבוצה קניות/]);
  const [first, second] = await recognized(tasks).evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().x));
  expect(first!).toBeGreaterThan(second!);
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);

  await tasks.quickAdd.press("Enter");
  await expect(page.getByRole("link", { name: "לקנות חלב", exact: true })).toBeVisible();
  const [task] = await tasksOf(page.request);
  expect(task).toMatchObject({ title: "לקנות חלב", tags: ["בית"], groupId: await groupId(page.request, "Shopping") });
  expect(local(task!.dueAt, "Asia/Jerusalem")).toBe(`${await tomorrow(page, "Asia/Jerusalem")} 21:00`);
  expect(errors).toEqual([]);
});

test("Russian: a weekly repeat with its time and a Todoist priority", async ({ page }) => {
  const errors = collectErrors(page);
  const tasks = await openList(page, "ru", "Europe/Moscow");
  await tasks.quickAdd.fill("Планёрка каждый понедельник в 8 p2");
  await expect(recognized(tasks)).toHaveText([
    /^каждый понедельник\s*Повтор еженедельно/,
    /^в 8\s*Срок пн/,
    /^p2\s*Приоритет: Высокий/,
  ]);
  await tasks.quickAdd.press("Enter");
  await expect(page.getByRole("link", { name: "Планёрка", exact: true })).toBeVisible();
  const [task] = await tasksOf(page.request);
  expect(task).toMatchObject({ title: "Планёрка", priority: "high", recurrence: { frequency: "weekly", interval: 1 } });
  const due = new Date(task!.dueAt!);
  expect(new Intl.DateTimeFormat("en", { timeZone: "Europe/Moscow", weekday: "long" }).format(due)).toBe("Monday");
  expect(local(task!.dueAt, "Europe/Moscow").slice(11)).toBe("08:00");
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("Ukrainian: the apostrophe as phones type it, and a click on a recognition keeps it as text", async ({ page }) => {
  const errors = collectErrors(page);
  const tasks = await openList(page, "ua", "Europe/Kyiv");
  await tasks.quickAdd.fill("Здати звіт у п’ятницю !терміново");
  await expect(recognized(tasks)).toHaveText([/^у п’ятницю\s*Термін пт/, /^!терміново\s*Пріоритет: Терміновий/]);
  await recognized(tasks).first().click();
  await expect(recognized(tasks)).toHaveText([/^!терміново/]);
  await tasks.quickAdd.press("Enter");
  await expect(page.getByRole("link", { name: "Здати звіт у п’ятницю", exact: true })).toBeVisible();
  const [task] = await tasksOf(page.request);
  expect(task).toMatchObject({ title: "Здати звіт у п’ятницю", priority: "urgent", dueAt: null });
  await expectAccessible(page);
  expect(errors).toEqual([]);
});
