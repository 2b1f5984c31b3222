import { expect, test, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { collectErrors, createTask, registerUser, TasksPage } from "./pages/tasks-page";
import { VERIFY_BANNER_COOKIE } from "../components/auth/verify-banner-cookie";

/*
 * The task list is dense enough to work from (issue 22): with fourteen open tasks, at least ten rows fit whole in
 * the first screen of a 1280×800 window under the page's usual chrome (header, quick add, filters), and on a phone
 * (390×844) the first row starts in the top third. Density does not cost the controls: the checkbox and the title
 * link stay at least 24 px high (WCAG 2.2 target size), the "More filters" fields do not overlap, and Hebrew lays
 * out right to left. Each test registers its own user; the figures are printed for the record. The "confirm your
 * email address" banner a new account sees (until confirmed or dismissed) is dismissed in the first tests, and shown
 * in the last ones: a new account's first screen must be as dense, with the banner and its buttons there.
 */

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

interface Language {
  locale: "en" | "he";
  done: (title: string) => string;
  filters: string;
  groupsNav: string;
  banner: { label: string; resend: string; dismiss: string };
}

const LANGUAGES: Language[] = [
  {
    locale: "en",
    done: (title) => `Done: ${title}`,
    filters: "Filters",
    groupsNav: "Task groups",
    banner: { label: "Email address not confirmed", resend: "Send the link again", dismiss: "Dismiss" },
  },
  {
    locale: "he",
    done: (title) => `בוצעה: ${title}`,
    filters: "מסננים",
    groupsNav: "קבוצות משימות",
    banner: { label: "כתובת הדוא״ל לא אומתה", resend: "שליחת הקישור שוב", dismiss: "סגירה" },
  },
];

/** Hides the banner that asks a new account to confirm its email address, as its "Dismiss" button does. */
async function dismissVerifyBanner(page: Page): Promise<void> {
  await page.context().addCookies([{ name: VERIFY_BANNER_COOKIE, value: "dismissed", url: new URL(page.url()).origin }]);
}

/** Fourteen open tasks with what rows usually show: due dates, priorities, an assignee, tags, a long title. */
async function createTasks(page: Page, accountId: string): Promise<void> {
  const day = 24 * 3600 * 1000;
  const priorities = ["low", "normal", "high", "urgent"] as const;
  for (let n = 1; n <= 14; n += 1) {
    await createTask(page.request, {
      title: n === 7 ? "Write the quarterly report for the board, with the figures from every team" : `Task number ${n}`,
      priority: priorities[n % 4],
      dueAt: n % 3 === 0 ? undefined : new Date(Date.now() + (n - 4) * day).toISOString(),
      assigneeIds: n % 2 === 0 ? [accountId] : undefined,
      tags: n % 5 === 0 ? ["home", "weekly"] : undefined,
    });
  }
}

/** The rows' boxes, top to bottom, in the viewport's coordinates. */
async function rowBoxes(tasks: TasksPage) {
  return tasks.rows.evaluateAll((rows) =>
    rows.map((row) => {
      const { top, bottom, left, right } = row.getBoundingClientRect();
      return { top, bottom, left, right };
    }),
  );
}

/** How far any two fields of the filter form overlap, or a field leaves its cell, in pixels (0: none). */
async function filterOverlap(page: Page): Promise<number> {
  return page.locator("form.task-filters").evaluate((form) => {
    const cells = [...form.querySelectorAll<HTMLElement>(".task-filter")].filter((cell) => cell.offsetParent);
    const fields = cells.flatMap((cell) =>
      [...cell.querySelectorAll<HTMLElement>("input:not([type='checkbox']), select")].map((field) => ({
        cell: cell.getBoundingClientRect(),
        box: field.getBoundingClientRect(),
      })),
    );
    let worst = 0;
    for (const { cell, box } of fields) {
      worst = Math.max(worst, box.right - cell.right, cell.left - box.left);
    }
    for (const [i, a] of fields.entries()) {
      for (const b of fields.slice(i + 1)) {
        const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (across > 0 && down > 0) worst = Math.max(worst, Math.min(across, down));
      }
    }
    return Math.round(worst * 10) / 10;
  });
}

/** Each shown row's checkbox and title link are targets of at least 24×24 px. */
async function expectTargets(tasks: TasksPage, count: number) {
  for (let index = 0; index < count; index += 1) {
    const row = tasks.rows.nth(index);
    for (const target of [row.getByRole("checkbox"), row.locator("a.task-row-title")]) {
      const box = (await target.boundingBox())!;
      expect.soft(box.width, `row ${index + 1}'s target width`).toBeGreaterThanOrEqual(24);
      expect.soft(box.height, `row ${index + 1}'s target height`).toBeGreaterThanOrEqual(24);
    }
  }
}

for (const words of LANGUAGES) {
  test.describe(`${words.locale}`, () => {
    test(`at 1280×800 ten or more rows fit the first screen, and the filters do not overlap (${words.locale})`, async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const tasks = new TasksPage(page);
      await page.setViewportSize(DESKTOP);
      const account = await registerUser(page.request, "Dense Lister");
      await createTasks(page, account.id);

      await tasks.goto("", words.locale);
      await dismissVerifyBanner(page);
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("dir", words.locale === "he" ? "rtl" : "ltr");
      await expect(tasks.rows).toHaveCount(14);
      await expect(tasks.quickAdd).toBeEnabled();
      await expect(tasks.live).toHaveClass(/tasks-live-live/);
      // The filters are open on a wide screen, without a button to fold them.
      await expect(page.getByRole("form", { name: words.filters }).getByRole("searchbox")).toBeVisible();
      const sidebar = page.getByRole("navigation", { name: words.groupsNav });
      await expect(sidebar).toBeVisible();

      const boxes = await rowBoxes(tasks);
      const whole = boxes.filter(({ top, bottom }) => top >= 0 && bottom <= DESKTOP.height).length;
      console.log(`${words.locale} 1280×800: ${whole} rows whole in the first screen, first row at y=${boxes[0]!.top}`);
      expect.soft(whole).toBeGreaterThanOrEqual(10);
      await expectTargets(tasks, whole);

      // Right to left: the checkbox is at the row's start, the sidebar at the page's start.
      const check = (await tasks.rows.first().getByRole("checkbox").boundingBox())!;
      const title = (await tasks.rows.first().locator("a.task-row-title").boundingBox())!;
      const side = (await sidebar.boundingBox())!;
      const list = (await page.locator("ul.task-list").first().boundingBox())!;
      if (words.locale === "he") {
        expect(check.x).toBeGreaterThan(title.x);
        expect(side.x).toBeGreaterThan(list.x);
      } else {
        expect(check.x).toBeLessThan(title.x);
        expect(side.x).toBeLessThan(list.x);
      }

      // "More filters" open: no field overlaps another or leaves its cell (it was 12 px at 1280 px).
      await page.locator("form.task-filters details.task-filters-more > summary").click();
      const overlap = await filterOverlap(page);
      console.log(`${words.locale} 1280×800: the filters' fields overlap by ${overlap} px`);
      expect(overlap).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);
      await expectAccessible(page);
      expect(errors).toEqual([]);
    });

    test(`at 390×844 the first row starts in the top third, the filters a tap away (${words.locale})`, async ({ page }) => {
      const errors = collectErrors(page);
      const tasks = new TasksPage(page);
      await page.setViewportSize(PHONE);
      const account = await registerUser(page.request, "Dense Phoner");
      await createTasks(page, account.id);

      await tasks.goto("", words.locale);
      await dismissVerifyBanner(page);
      await page.reload();
      await expect(tasks.rows).toHaveCount(14);
      await expect(tasks.quickAdd).toBeEnabled();
      await expect(tasks.live).toHaveClass(/tasks-live-live/);
      await expect(tasks.quickAdd).toBeInViewport();

      const boxes = await rowBoxes(tasks);
      console.log(`${words.locale} 390×844: the first row's top at y=${boxes[0]!.top}`);
      expect.soft(boxes[0]!.top).toBeLessThan(PHONE.height / 3);
      await expectTargets(tasks, 3);
      const check = (await page.getByRole("checkbox", { name: words.done("Task number 14"), exact: true }).boundingBox())!;
      const title = (await tasks.rows.first().locator("a.task-row-title").boundingBox())!;
      if (words.locale === "he") expect(check.x).toBeGreaterThan(title.x);
      else expect(check.x).toBeLessThan(title.x);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await expectAccessible(page);

      // The filters, folded on a phone, open with one tap and filter the list.
      const form = page.getByRole("form", { name: words.filters });
      const search = form.getByRole("searchbox");
      await expect(search).toBeHidden();
      await form.locator("summary").first().click();
      await expect(search).toBeVisible();
      await search.fill("number 1");
      await expect
        .poll(() => tasks.titles())
        .toEqual(["Task number 14", "Task number 13", "Task number 12", "Task number 11", "Task number 10", "Task number 1"]);
      expect(await filterOverlap(page)).toBe(0);
      await expectAccessible(page);
      expect(errors).toEqual([]);
    });
  });
}

for (const words of LANGUAGES) {
  test.describe(`${words.locale}, with the email banner`, () => {
    for (const viewport of [DESKTOP, PHONE]) {
      test(`at ${viewport.width}×${viewport.height} a new account's list is as dense with the banner shown (${words.locale})`, async ({
        page,
      }) => {
        const errors = collectErrors(page);
        const tasks = new TasksPage(page);
        await page.setViewportSize(viewport);
        const account = await registerUser(page.request, "Banner Lister");
        await createTasks(page, account.id);

        await tasks.goto("", words.locale);
        await expect(page.locator("html")).toHaveAttribute("dir", words.locale === "he" ? "rtl" : "ltr");
        const banner = page.getByRole("region", { name: words.banner.label });
        await expect(banner).toBeVisible();
        await expect(banner).toContainText(account.email);
        await expect(banner.getByRole("button", { name: words.banner.resend })).toBeVisible();
        await expect(banner.getByRole("button", { name: words.banner.dismiss })).toBeVisible();
        await expect(tasks.rows).toHaveCount(14);
        await expect(tasks.quickAdd).toBeEnabled();
        await expect(tasks.live).toHaveClass(/tasks-live-live/);

        const boxes = await rowBoxes(tasks);
        const bannerBox = (await banner.boundingBox())!;
        const whole = boxes.filter(({ top, bottom }) => top >= 0 && bottom <= viewport.height).length;
        console.log(
          `${words.locale} ${viewport.width}×${viewport.height} with the banner (${Math.round(bannerBox.height)} px high): ` +
            `${whole} rows whole, the first row's top at y=${boxes[0]!.top}`,
        );
        if (viewport === DESKTOP) {
          expect.soft(whole).toBeGreaterThanOrEqual(10);
          await expectTargets(tasks, whole);
        } else {
          expect.soft(boxes[0]!.top).toBeLessThan(PHONE.height / 3);
          await expect(tasks.quickAdd).toBeInViewport();
          await expectTargets(tasks, 3);
        }
        // The banner's buttons are targets of at least 24×24 px too, and nothing is wider than the screen.
        for (const button of await banner.getByRole("button").all()) {
          const box = (await button.boundingBox())!;
          expect.soft(box.height).toBeGreaterThanOrEqual(24);
          expect.soft(box.width).toBeGreaterThanOrEqual(24);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await expectAccessible(page);
        expect(errors).toEqual([]);
      });
    }
  });
}
