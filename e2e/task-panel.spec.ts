import { expect, test, type Locator, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { BoardPage } from "./pages/board-page";
import { collectErrors, createTask, registerUser, TasksPage } from "./pages/tasks-page";

/*
 * A task opened from the list or the board shows in a side panel over them (app/[locale]/@panel), with the task's
 * own address in the bar; a reload of that address shows the task page alone. Each test registers its own user
 * through the API in the browser's context (signed in) and creates its tasks there.
 */

test.use({ viewport: { width: 1280, height: 800 } });

/** The side panel, named by the task's title. */
function panel(page: Page, title: string): Locator {
  return page.getByRole("dialog", { name: title, exact: true });
}

/** The width of the window's content, without a scrollbar. */
function windowWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.clientWidth);
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "bounding box").not.toBeNull();
  return found!;
}

test("from the list: the panel opens beside the list at the task's address, edits reach the row, Escape, Back and Close close it", async ({
  page,
}) => {
  const errors = collectErrors(page);
  await registerUser(page.request, "Petra Panel");
  const { id } = await createTask(page.request, { title: "Water the plants" });
  await createTask(page.request, { title: "Call the plumber" });
  const tasks = new TasksPage(page);
  await tasks.goto();
  await tasks.ready();

  await tasks.row("Water the plants").getByRole("link", { name: "Water the plants" }).click();
  const open = panel(page, "Water the plants");
  await expect(open).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/en/tasks/${id}$`));
  await expect(open).toBeFocused();
  // The list stays, in view beside the panel, which takes the right side of the window.
  await expect(tasks.heading.first()).toBeVisible();
  await expect(tasks.row("Call the plumber")).toBeVisible();
  const shown = await box(open);
  expect(shown.x + shown.width).toBeCloseTo(await windowWidth(page), 0);
  expect(shown.x).toBeGreaterThan(400);
  expect((await box(tasks.row("Call the plumber"))).x).toBeLessThan(shown.x);
  await expectAccessible(page);

  // An edit in the panel reaches the row behind it (the list follows the change on /ws); the panel's name follows.
  const title = open.getByLabel("Title", { exact: true });
  await title.fill("Water the garden plants");
  await title.press("Enter");
  const renamed = panel(page, "Water the garden plants");
  await expect(renamed.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await expect(renamed.getByRole("heading", { level: 1 })).toHaveText("Water the garden plants");
  await expect(tasks.row("Water the garden plants")).toBeVisible();

  // Escape closes it (from the field just saved): the list's address again, and the focus on the task's row.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/en\/tasks$/);
  const link = tasks.row("Water the garden plants").getByRole("link", { name: "Water the garden plants" });
  await expect(link).toBeFocused();

  // The keyboard shortcut e opens the selected (focused) row in the panel too; Back closes it.
  await page.keyboard.press("e");
  const again = panel(page, "Water the garden plants");
  await expect(again).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/en/tasks/${id}$`));
  await page.goBack();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/en\/tasks$/);

  // The close button closes it as well.
  await link.click();
  await again.getByRole("button", { name: "Close the task" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(link).toBeFocused();

  // A reload at the task's address shows the task page alone: no list, no panel.
  await link.click();
  await expect(again).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Water the garden plants");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(tasks.rows).toHaveCount(0);
  await expect(page.locator("main .task-back")).toBeVisible();
  expect(errors).toEqual([]);
});

test("from the board: the panel opens over the board, a change moves the card behind it, a reload shows the page", async ({
  page,
}) => {
  const errors = collectErrors(page);
  await registerUser(page.request, "Bora Panel");
  const { id } = await createTask(page.request, { title: "Paint the fence" });
  const board = new BoardPage(page);
  await board.goto();
  await expect(page.locator(".board[data-hydrated] .board-live-live")).toBeVisible();

  const card = board.card("Paint the fence").getByRole("link", { name: "Paint the fence" });
  await card.click();
  const open = panel(page, "Paint the fence");
  await expect(open).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/en/tasks/${id}$`));
  await expect(board.heading.first()).toBeVisible();
  await expect(board.column("To do")).toBeVisible();
  await expectAccessible(page);

  await open.getByLabel("Status", { exact: true }).selectOption({ label: "In progress" });
  await expect(open.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await board.expectTitles("In progress", ["Paint the fence"]);
  await board.expectTitles("To do", []);

  await open.getByRole("button", { name: "Close the task" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/en\/board$/);
  await expect(card).toBeFocused();

  await card.click();
  await expect(open).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paint the fence");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.locator(".board")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the panel takes the whole width", async ({ page }) => {
    await registerUser(page.request, "Filip Phone");
    await createTask(page.request, { title: "Buy stamps" });
    const tasks = new TasksPage(page);
    await tasks.goto();
    await tasks.ready();
    await tasks.row("Buy stamps").getByRole("link", { name: "Buy stamps" }).click();
    const open = panel(page, "Buy stamps");
    await expect(open).toBeVisible();
    const shown = await box(open);
    expect(shown.x).toBeCloseTo(0, 0);
    expect(shown.width).toBeCloseTo(await windowWidth(page), 0);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(/\/en\/tasks$/);
  });
});

test("in Hebrew the panel comes from the left, the end of a right-to-left page", async ({ page }) => {
  await registerUser(page.request, "Noa Panel");
  const { id } = await createTask(page.request, { title: "להשקות את העציצים" });
  const tasks = new TasksPage(page);
  await tasks.goto("", "he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(tasks.quickAdd).toBeEnabled();
  await tasks.row("להשקות את העציצים").getByRole("link", { name: "להשקות את העציצים" }).click();
  const open = panel(page, "להשקות את העציצים");
  await expect(open).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/he/tasks/${id}$`));
  const shown = await box(open);
  expect(shown.x).toBeCloseTo(0, 0);
  expect(shown.width).toBeLessThan(1280 / 2 + 1);
  expect(await open.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
  await expectAccessible(page);
  await open.getByRole("button", { name: "סגירת המשימה" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/he\/tasks$/);
});
