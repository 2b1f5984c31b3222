import { expect, test, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { signInAsAdmin } from "./pages/admin-page";
import { SiteHeader } from "./pages/site-header";
import { collectErrors, registerUser, TasksPage } from "./pages/tasks-page";

/*
 * Getting around (issue 22): the signed-in header in one row at every desktop width and in every language (the
 * daily sections as links, the rest under More, Settings and Admin in the account menu), the keyboard shortcuts of
 * the task list, and the command palette (Ctrl+K, ⌘K, or the header's button), in English and in Hebrew.
 */

const LOCALES = ["en", "cs", "he", "ru", "ua"] as const;
/** The widths asked for, and 1450 px: just above where the language and account buttons show their names again. */
const WIDTHS = [1024, 1280, 1450, 1920] as const;

/**
 * The header's controls as laid out: whether they all sit in one row (each centred on the same line, the header's
 * content no taller than its tallest control), none overlapping the next or leaving the window.
 */
function headerLayout(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector<HTMLElement>(".site-header")!;
    const controls = Array.from(
      header.querySelectorAll<HTMLElement>(
        ".brand, .main-nav > ul a, .main-nav-more > button, .theme-switcher, .header-tools .menu-toggle, .palette-button, .inbox-bell-button",
      ),
    ).filter((element) => element.offsetParent !== null);
    const boxes = controls.map((element) => element.getBoundingClientRect()).sort((a, b) => a.left - b.left);
    const style = getComputedStyle(header);
    const content = header.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const centres = boxes.map((box) => box.top + box.height / 2);
    return {
      controls: boxes.length,
      oneRow: content <= Math.max(...boxes.map((box) => box.height)) + 1 && Math.max(...centres) - Math.min(...centres) <= 3,
      overlapping: boxes.slice(1).some((box, index) => box.left < boxes[index]!.right - 0.5),
      outside: boxes.some((box) => box.left < 0 || box.right > window.innerWidth),
      height: header.getBoundingClientRect().height,
    };
  });
}

test("the header is one row from 1024 px up in every language, for an admin with every module on", async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page.request);
  const header = new SiteHeader(page);
  const heights = new Set<number>();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const locale of LOCALES) {
      await page.goto(`/${locale}/tasks`);
      await expect(page.locator(".main-nav")).toBeAttached();
      const layout = await headerLayout(page);
      const where = `${locale} at ${width} px`;
      expect(layout.controls, where).toBeGreaterThan(8);
      expect(layout.oneRow, where).toBe(true);
      expect(layout.overlapping, where).toBe(false);
      expect(layout.outside, where).toBe(false);
      heights.add(Math.round(layout.height));
    }
  }
  // The same height everywhere: no width or language adds a row.
  expect([...heights]).toHaveLength(1);
  // Every section is there: the module ones under More, Admin in the account menu.
  await page.goto("/en/tasks");
  await expect(header.link("Achievements")).toHaveAttribute("href", "/en/achievements");
  await expect(header.link("Admin")).toHaveAttribute("href", "/en/admin");
  await header.follow("Admin");
  await expect(page).toHaveURL(/\/en\/admin$/);
  await expect(header.link("Admin")).toHaveAttribute("aria-current", "page");
});

test("More opens and closes by mouse and keyboard, and shows that it holds the current page", async ({ page }) => {
  const errors = collectErrors(page);
  await registerUser(page.request, "Mia More");
  const header = new SiteHeader(page);
  await page.goto("/en/tasks");
  await expect(header.link("Tasks")).toHaveAttribute("aria-current", "page");
  await expect(header.more).not.toHaveAttribute("aria-current");
  const requests = header.nav.getByRole("link", { name: "Requests", exact: true });

  // Mouse: a click opens it, a click elsewhere closes it.
  await expect(header.more).toHaveAttribute("aria-expanded", "false");
  await expect(requests).toBeHidden();
  await header.more.click();
  await expect(header.more).toHaveAttribute("aria-expanded", "true");
  await expect(requests).toBeVisible();
  await page.mouse.click(page.viewportSize()!.width - 5, 500); // the page's margin, beside the list
  await expect(header.more).toHaveAttribute("aria-expanded", "false");
  await expect(requests).toBeHidden();

  // Keyboard: Enter opens it, Tab reaches its links, Escape closes it and gives the focus back to the button.
  await header.more.focus();
  await page.keyboard.press("Enter");
  await expect(header.more).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Tab");
  await expect(requests).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(header.more).toHaveAttribute("aria-expanded", "false");
  await expect(header.more).toBeFocused();

  // A section under More followed: its page is marked, and More says it holds it.
  await page.keyboard.press("Space");
  await requests.click();
  await expect(page).toHaveURL(/\/en\/requests$/);
  await expect(header.more).toHaveAttribute("aria-current", "true");
  await expect(header.more).toHaveAttribute("aria-expanded", "false");
  await expect(header.link("Requests")).toHaveAttribute("aria-current", "page");
  await expect(header.link("Tasks")).not.toHaveAttribute("aria-current");

  // Settings sits in the account menu, marked there on its pages.
  await header.follow("Settings");
  await expect(page).toHaveURL(/\/en\/settings$/);
  await expect(header.link("Settings")).toHaveAttribute("aria-current", "page");
  await expect(header.more).not.toHaveAttribute("aria-current");
  expect(errors).toEqual([]);
});

test("keyboard shortcuts on the task list: q, /, j, k, x, e and ?", async ({ page }) => {
  const errors = collectErrors(page);
  await registerUser(page.request, "Kai Keys");
  for (const title of ["Water the plants", "Call the plumber", "Book the flights"]) {
    expect((await page.request.post("/api/v1/tasks", { data: { title } })).status()).toBe(201);
  }
  const tasks = new TasksPage(page);
  await tasks.goto();
  await tasks.ready();
  const [first, second] = await tasks.titles();

  // q focuses quick add; a shortcut's letter typed there is text.
  await page.keyboard.press("q");
  await expect(tasks.quickAdd).toBeFocused();
  await page.keyboard.type("jk");
  await expect(tasks.quickAdd).toHaveValue("jk");
  await tasks.quickAdd.fill("");
  await tasks.heading.click();

  // / focuses the search field.
  await page.keyboard.press("/");
  await expect(tasks.search).toBeFocused();
  await expect(tasks.search).toHaveValue("");
  await tasks.heading.click();

  // j and k move a visible selection through the rows.
  await page.keyboard.press("j");
  await expect(tasks.row(first!)).toHaveAttribute("data-selected", "");
  await page.keyboard.press("j");
  await expect(tasks.row(second!)).toHaveAttribute("data-selected", "");
  await expect(tasks.row(first!)).not.toHaveAttribute("data-selected");
  await expect(tasks.row(second!).getByRole("link", { name: second, exact: true })).toBeFocused();
  await page.keyboard.press("k");
  await expect(tasks.row(first!)).toHaveAttribute("data-selected", "");

  // ? lists the shortcuts; Escape closes the list.
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("Complete or reopen the selected task");
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  // e opens the selected task, as a click on its row does: in the side panel over the list, at the task's address.
  await page.keyboard.press("e");
  await expect(page).toHaveURL(/\/en\/tasks\/[0-9a-f-]+$/);
  await expect(page.getByRole("dialog", { name: first!, exact: true }).getByRole("heading", { level: 1 })).toHaveText(first!);

  // x completes the selected task: it leaves the open tasks for the Completed section, with Undo.
  await tasks.goto();
  await tasks.ready();
  await page.keyboard.press("j");
  await expect(tasks.row(first!)).toHaveAttribute("data-selected", "");
  await page.keyboard.press("x");
  await expect.poll(() => tasks.titles()).not.toContain(first);
  const notice = page.locator(".tasks-undo");
  await expect(notice).toContainText(`Completed “${first}”`);
  await notice.getByRole("button", { name: "Undo", exact: true }).click();
  await expect.poll(() => tasks.titles()).toContain(first);
  await expect(tasks.checkbox(first!)).not.toBeChecked();
  expect(errors).toEqual([]);
});

test("the command palette: Ctrl+K, ⌘K and the button; sections and actions by keyboard and mouse", async ({ page }) => {
  const errors = collectErrors(page);
  await registerUser(page.request, "Pia Palette");
  const header = new SiteHeader(page);
  const palette = page.getByRole("dialog", { name: "Command palette" });
  const field = palette.getByRole("combobox", { name: "Section or command" });
  const options = palette.getByRole("option");
  await page.goto("/en/goals");
  await expect(header.nav).toBeVisible();

  // Ctrl+K: typing narrows the list, the arrows move the highlighted option, Enter opens it.
  await page.keyboard.press("Control+k");
  await expect(palette).toBeVisible();
  await expect(field).toBeFocused();
  await expect(options.filter({ hasText: "Settings" })).toHaveCount(1);
  await expect(options.filter({ hasText: "Admin" })).toHaveCount(0); // not for this user
  await field.fill("boa");
  await expect(options).toHaveText(["Board", "Open the board"]);
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(field).toHaveAttribute("aria-activedescendant", (await options.nth(1).getAttribute("id"))!);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/en\/board$/);
  await expect(palette).toBeHidden();

  // ⌘K: "New task" leads to the task list with quick add focused.
  await page.keyboard.press("Meta+k");
  await expect(palette).toBeVisible();
  await field.fill("new task");
  await expect(options).toHaveText(["New task"]);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/en\/tasks$/);
  await expect(new TasksPage(page).quickAdd).toBeFocused();

  // The button; nothing matching says so; Escape closes it and gives the focus back.
  await header.palette.click();
  await field.fill("zzz");
  await expect(palette.getByRole("status")).toHaveText("Nothing matches.");
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();
  await expect(header.palette).toBeFocused();

  // A click outside closes it; a click on an option runs it (the dark theme, which the switcher shows too).
  await header.palette.click();
  await page.mouse.click(5, 5);
  await expect(palette).toBeHidden();
  await header.palette.click();
  await field.fill("dark");
  await options.filter({ hasText: "Switch to the dark theme" }).click();
  await expect(palette).toBeHidden();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(header.theme.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  expect(errors).toEqual([]);
});

test("the command palette in Hebrew, right to left", async ({ page }) => {
  await registerUser(page.request, "Noa Palette");
  await page.goto("/he/tasks");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "לוח פקודות" });
  const field = palette.getByRole("combobox", { name: "מדור או פקודה" });
  await expect(field).toBeFocused();
  expect(await field.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
  await field.fill("לוח");
  const options = palette.getByRole("option");
  await expect(options).toHaveText(["לוח", "פתיחת הלוח"]);
  // The options' text starts at the right, where Hebrew lines start.
  const list = (await palette.getByRole("listbox").boundingBox())!;
  const text = await options.first().evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const { left, right } = range.getBoundingClientRect();
    return { left, right };
  });
  expect(list.x + list.width - text.right).toBeLessThan(text.left - list.x);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/he\/board$/);
});

test.describe("accessibility (axe)", () => {
  for (const scheme of ["light", "dark"] as const) {
    test(`the header's menus and dialogs, ${scheme}, desktop`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await registerUser(page.request, "Axel Axe");
      const header = new SiteHeader(page);
      await page.goto("/en/requests");
      await header.more.click();
      await expect(header.link("Activity")).toBeVisible();
      await expectAccessible(page);
      await header.palette.click();
      await page.getByRole("combobox").fill("t");
      await expectAccessible(page);
    });

    test(`the header's menus and dialogs, ${scheme}, phone`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.emulateMedia({ colorScheme: scheme });
      await registerUser(page.request, "Axel Phone");
      const header = new SiteHeader(page);
      await page.goto("/en/tasks");
      await header.menuButton.click();
      // The phone menu lists every section, More's included, without opening anything else.
      await expect(header.nav.getByRole("link", { name: "Requests" })).toBeVisible();
      await expect(header.more).toBeHidden();
      await expectAccessible(page);
      await header.menuButton.click();
      await header.palette.click();
      await expect(page.getByRole("dialog", { name: "Command palette" })).toBeVisible();
      await expectAccessible(page);
    });
  }
});
