import { expect, test, type Page } from "./fixtures";
import { expectAccessible } from "./axe";
import { collectErrors, createTask, registerUser, TasksPage } from "./pages/tasks-page";

/*
 * The task list's views and completed tasks: Today (overdue and due today) and Upcoming (the next 14 days under a
 * heading per day) with their counts in the sidebar, done tasks in a "Completed (n)" section, and "Undo" after
 * completing a task, saved filters (save, open, delete). In English on a desktop and in Hebrew (right to left) on a phone, each user in a time zone
 * without daylight saving time, so that "today" and the day headings can be computed here; axe light and dark.
 */

interface Language {
  locale: "en" | "he";
  /** The BCP 47 tag the page formats dates with. */
  tag: string;
  timeZone: string;
  /** Hours ahead of UTC (the zone has no daylight saving time). */
  offsetHours: number;
  viewport: { width: number; height: number };
  viewsNav: string;
  allTasks: string;
  today: string;
  upcoming: string;
  open: (count: number) => string;
  completed: (count: number) => string;
  completedNotice: (title: string) => string;
  undo: string;
  done: (title: string) => string;
  saveCurrent: string;
  filterName: string;
  save: string;
  saved: (name: string) => string;
  deleteFilter: (name: string) => string;
  deleted: (name: string) => string;
}

const LANGUAGES: Language[] = [
  {
    locale: "en",
    tag: "en",
    timeZone: "Asia/Tokyo",
    offsetHours: 9,
    viewport: { width: 1280, height: 800 },
    viewsNav: "Views",
    allTasks: "All tasks",
    today: "Today",
    upcoming: "Upcoming",
    open: (count) => (count === 1 ? "1 open task" : `${count} open tasks`),
    completed: (count) => `Completed (${count})`,
    completedNotice: (title) => `Completed “${title}”`,
    undo: "Undo",
    done: (title) => `Done: ${title}`,
    saveCurrent: "Save these filters",
    filterName: "Name",
    save: "Save",
    saved: (name) => `Saved “${name}”.`,
    deleteFilter: (name) => `Delete saved filter ${name}`,
    deleted: (name) => `Deleted “${name}”.`,
  },
  {
    locale: "he",
    tag: "he",
    timeZone: "Asia/Kolkata",
    offsetHours: 5.5,
    viewport: { width: 390, height: 844 },
    viewsNav: "תצוגות",
    allTasks: "כל המשימות",
    today: "היום",
    upcoming: "בקרוב",
    open: (count) => (count === 1 ? "משימה פתוחה אחת" : count === 2 ? "שתי משימות פתוחות" : `${count} משימות פתוחות`),
    completed: (count) => `הושלמו (${count})`,
    completedNotice: (title) => `הושלמה: ״${title}״`,
    undo: "ביטול",
    done: (title) => `בוצעה: ${title}`,
    saveCurrent: "שמירת המסננים האלה",
    filterName: "שם",
    save: "שמירה",
    saved: (name) => `נשמר ״${name}״.`,
    deleteFilter: (name) => `מחיקת המסנן השמור ${name}`,
    deleted: (name) => `נמחק ״${name}״.`,
  },
];

async function expectAccessibleLightAndDark(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

for (const words of LANGUAGES) {
  test.describe(`${words.locale}, ${words.viewport.width}×${words.viewport.height}`, () => {
    test.use({ viewport: words.viewport });

    /** 12:00 on the user's calendar day `days` after today, as an ISO instant. */
    const localNoon = (days: number) => {
      const offsetMs = words.offsetHours * 3600 * 1000;
      const local = new Date(Date.now() + offsetMs);
      return new Date(
        Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, 12) - offsetMs,
      ).toISOString();
    };
    const dayHeading = (iso: string) =>
      new Intl.DateTimeFormat(words.tag, { timeZone: words.timeZone, weekday: "long", day: "numeric", month: "long" }).format(
        new Date(iso),
      );

    test("Today and Upcoming show the right open tasks, by day, with their counts", async ({ page }) => {
      const errors = collectErrors(page);
      const tasks = new TasksPage(page);
      await registerUser(page.request, "Day Planner", words.timeZone);
      await createTask(page.request, { title: "Overdue report", dueAt: localNoon(-3), status: "in_progress" });
      await createTask(page.request, { title: "Noon call", dueAt: localNoon(0) });
      await createTask(page.request, { title: "Dentist", dueAt: localNoon(3) });
      await createTask(page.request, { title: "Passport", dueAt: localNoon(13) });
      await createTask(page.request, { title: "Holiday", dueAt: localNoon(20) });
      await createTask(page.request, { title: "Someday" });
      await createTask(page.request, { title: "Watered plants", dueAt: localNoon(0), status: "done" });

      await tasks.goto("", words.locale);
      await expect(page.locator("html")).toHaveAttribute("dir", words.locale === "he" ? "rtl" : "ltr");
      const views = page.getByRole("navigation", { name: words.viewsNav });
      const todayLink = views.getByRole("link", { name: words.today, exact: true });
      const upcomingLink = views.getByRole("link", { name: words.upcoming, exact: true });
      await expect(todayLink).toHaveAccessibleDescription(words.open(2));
      await expect(upcomingLink).toHaveAccessibleDescription(words.open(3));
      // "All tasks" is the first of the views on a phone, of the groups on a desktop.
      await expect(page.getByRole("link", { name: words.allTasks, exact: true })).toHaveAttribute("aria-current", "page");

      // Today: overdue and due today, open only, the earliest first.
      await todayLink.click();
      await expect(page).toHaveURL(new RegExp(`/${words.locale}/tasks\\?view=today$`));
      await expect(tasks.heading).toHaveText(words.today);
      await expect(todayLink).toHaveAttribute("aria-current", "page");
      await expect.poll(() => tasks.titles()).toEqual(["Overdue report", "Noon call"]);
      await expect(tasks.live).toHaveClass(/tasks-live-live/);
      await expectAccessibleLightAndDark(page);

      // Upcoming: today and the next 13 days, under a heading per day in the user's zone; reloading keeps it.
      await upcomingLink.click();
      await expect(page).toHaveURL(new RegExp(`/${words.locale}/tasks\\?view=upcoming$`));
      await page.reload();
      await expect(tasks.heading).toHaveText(words.upcoming);
      await expect(upcomingLink).toHaveAttribute("aria-current", "page");
      await expect.poll(() => tasks.titles()).toEqual(["Noon call", "Dentist", "Passport"]);
      const days = page.locator("section.task-day");
      await expect(days.getByRole("heading", { level: 2 })).toHaveText([
        dayHeading(localNoon(0)),
        dayHeading(localNoon(3)),
        dayHeading(localNoon(13)),
      ]);
      await expect(days.nth(1).getByRole("link", { name: "Dentist", exact: true })).toBeVisible();
      await expectAccessibleLightAndDark(page);
      expect(errors).toEqual([]);
    });

    test("done tasks wait in a Completed section; Undo puts a completed task back as it was", async ({ page }) => {
      const errors = collectErrors(page);
      const tasks = new TasksPage(page);
      await registerUser(page.request, "Finisher", words.timeZone);
      const started = await createTask(page.request, { title: "Paint the fence", status: "in_progress" });
      await createTask(page.request, { title: "Buy bread" });
      await createTask(page.request, { title: "Watered plants", status: "done" });

      await tasks.goto("", words.locale);
      // Newest first.
      await expect.poll(() => tasks.titles()).toEqual(["Buy bread", "Paint the fence"]);
      const toggle = page.getByRole("button", { name: words.completed(1), exact: true });
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      const completedRows = page.locator("ul.task-list-completed > li");
      await expect(completedRows).toHaveCount(0);

      // Opened, it reads the done tasks.
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(completedRows).toHaveText([/Watered plants/]);
      await expect(page.getByRole("checkbox", { name: words.done("Watered plants"), exact: true })).toBeChecked();
      await expect(tasks.live).toHaveClass(/tasks-live-live/);

      // Completing leaves the list for the section, and says so with a way back.
      await page.getByRole("checkbox", { name: words.done("Paint the fence"), exact: true }).check();
      const notice = page.locator(".tasks-undo");
      await expect(notice).toHaveAttribute("role", "status");
      await expect(notice).toContainText(words.completedNotice("Paint the fence"));
      await expect.poll(() => tasks.titles()).toEqual(["Buy bread"]);
      await expect(page.getByRole("button", { name: words.completed(2), exact: true })).toBeVisible();
      await expect(completedRows).toHaveCount(2);
      await expectAccessibleLightAndDark(page);

      // Undo: back in the list, in progress as before.
      await notice.getByRole("button", { name: words.undo, exact: true }).click();
      await expect(notice).toHaveText("");
      await expect.poll(() => tasks.titles()).toEqual(["Buy bread", "Paint the fence"]);
      await expect(page.getByRole("button", { name: words.completed(1), exact: true })).toBeVisible();
      await expect(completedRows).toHaveText([/Watered plants/]);
      await expect
        .poll(async () => ((await (await page.request.get(`/api/v1/tasks/${started.id}`)).json()) as { status: string }).status)
        .toBe("in_progress");

      // Unticked in the section, a done task is open again.
      // (A click: the box leaves the section with its row.)
      await page.getByRole("checkbox", { name: words.done("Watered plants"), exact: true }).click();
      await expect.poll(() => tasks.titles()).toContain("Watered plants");
      await expect(page.getByRole("button", { name: words.completed(0), exact: true })).toHaveCount(0);
      await page.reload();
      await expect.poll(() => tasks.titles()).toEqual(["Watered plants", "Buy bread", "Paint the fence"]);
      expect(errors).toEqual([]);
    });

    test("saved filters: save the shown filters under a name, open them from the sidebar, delete them", async ({ page }) => {
      const errors = collectErrors(page);
      const tasks = new TasksPage(page);
      await registerUser(page.request, "Gardener", words.timeZone);
      await createTask(page.request, { title: "Water the roses", tags: ["garden"] });
      await createTask(page.request, { title: "Call mom" });

      await tasks.goto("?tag=garden", words.locale);
      await expect.poll(() => tasks.titles()).toEqual(["Water the roses"]);
      await expect(tasks.live).toHaveClass(/tasks-live-live/);
      await page.getByRole("button", { name: words.saveCurrent, exact: true }).click();
      await page.getByRole("textbox", { name: words.filterName, exact: true }).fill("Garden");
      await expectAccessibleLightAndDark(page);
      await page.getByRole("button", { name: words.save, exact: true }).click();
      const status = page.locator(".saved-filters [role=status]");
      await expect(status).toHaveText(words.saved("Garden"));
      const link = page.getByRole("link", { name: "Garden", exact: true });
      await expect(link).toHaveAttribute("aria-current", "page");

      // Kept: after a reload, from another list, the link opens the saved filters.
      await page.goto(`/${words.locale}/tasks`);
      await expect.poll(() => tasks.titles()).toEqual(["Call mom", "Water the roses"]);
      await expect(link).not.toHaveAttribute("aria-current", "page");
      // Hydrated first: a link followed while the page hydrates may land on the new URL with the old list.
      await expect(tasks.live).toHaveClass(/tasks-live-live/);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`/${words.locale}/tasks\\?tag=garden$`));
      await expect.poll(() => tasks.titles()).toEqual(["Water the roses"]);
      await expect(link).toHaveAttribute("aria-current", "page");
      await expectAccessibleLightAndDark(page);

      await page.getByRole("button", { name: words.deleteFilter("Garden"), exact: true }).click();
      await expect(status).toHaveText(words.deleted("Garden"));
      await expect(link).toHaveCount(0);
      expect(((await (await page.request.get("/api/v1/saved-filters")).json()) as { items: unknown[] }).items).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
}
