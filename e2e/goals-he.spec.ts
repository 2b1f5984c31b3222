import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { GOALS_WORDS, GoalsPage } from "./pages/goals-page";
import { publicHolidays } from "../lib/goals/holidays";
import { collectErrors } from "./page-errors";

// A long flow (a goal, reports, a plan, axe runs): more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

/*
 * The study plan in Hebrew, right to left (issue 22): a Hebrew-speaking user living in Prague (the planner knows
 * Czechia's public holidays from its time zone) creates a goal, sets its progress by hand, ticks only two days of
 * the week for a plan whose period holds a public holiday, and sees sessions only on those days and none on the
 * holiday. Applying the plan asks first, since the progress was set by hand: cancelling keeps the 35 % and makes
 * no task; agreeing makes the tasks. The page is right to left and passes axe.
 */

const ZONE = "Europe/Prague";

/** A local date in the user's time zone, `days` from today there (or from `from`). */
function localDate(days = 0, from?: string): string {
  const start =
    from ??
    new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const [year, month, day] = start.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** ISO day of the week (1 Monday … 7 Sunday) of a date. */
function isoWeekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
}

/** The days' names in Hebrew, as the page writes them on its checkboxes. */
function hebrewWeekday(day: number): string {
  return new Intl.DateTimeFormat("he", { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2026, 2, 1 + day)));
}

test("goals in Hebrew: a study plan on chosen weekdays skips Czech holidays, and applying asks before replacing hand-set progress", async ({
  page,
}) => {
  const errors = collectErrors(page);
  const goals = new GoalsPage(page, GOALS_WORDS.he);

  // The next Czech public holiday at least three days away; the plan runs until ten days after it, on the holiday's
  // day of the week and the one two days later.
  const holiday = publicHolidays("CZ", localDate(3), localDate(200), "he")[0]!;
  const targetDate = localDate(10, holiday.date);
  const allowed = [isoWeekday(holiday.date), ((isoWeekday(holiday.date) + 1) % 7) + 1].sort((a, b) => a - b);
  const holidayDates = publicHolidays("CZ", localDate(), targetDate, "he").map(({ date }) => date);

  const account = { name: "דנה מטרות", email: `goals-he-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const registered = await page.request.post("/api/v1/auth/register", { data: { ...account, locale: "he", timeZone: ZONE } });
  expect(registered.status()).toBe(201);

  await goals.goto("he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "he");
  await expect(goals.heading).toHaveText("מטרות");
  await goals.createGoal({
    title: "מבחן B2 בגרמנית",
    description: "דקדוק: ארבע היחסות\nאוצר מילים לעבודה ולטיולים\nהאזנה לפודקאסטים",
    targetDate,
  });
  await expect(page).toHaveURL(/\/he\/goals\/[0-9a-f-]{36}$/);
  const goalId = goals.goalId();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(goals.heading).toHaveText("מבחן B2 בגרמנית");

  // Progress set by hand: a report of 35 %.
  await goals.addReport({ date: localDate(), value: 35, note: "מבחן האזנה ראשון" });
  await expect(goals.reports.getByRole("status")).toHaveText("הדיווח נוסף.");
  await expect(goals.progressBar()).toHaveAttribute("aria-valuenow", "35");

  // Only two days of the week; public holidays skipped (the default).
  const days = goals.studyPlan.getByRole("group", { name: "ימים ללמידה" });
  await expect(days.getByRole("checkbox", { name: "בלי מפגשים בחגים רשמיים" })).toBeChecked();
  for (const day of allowed) await days.getByRole("checkbox", { name: hebrewWeekday(day), exact: true }).check();
  await goals.studyPlan.getByRole("button", { name: "יצירת תוכנית למידה" }).click();
  await expect(goals.studyPlan.getByRole("status")).toHaveText("תוכנית הלמידה מוכנה.");
  await expect(goals.studyPlan.getByText("נכתבה על ידי המתכנן המובנה")).toBeVisible();

  const dates = await goals.sessions.locator("time").evaluateAll((times) => times.map((time) => time.getAttribute("datetime")!));
  expect(dates.length).toBeGreaterThanOrEqual(3);
  expect(dates.filter((date) => !allowed.includes(isoWeekday(date)))).toEqual([]);
  expect(dates.filter((date) => holidayDates.includes(date))).toEqual([]);
  await expect(goals.studyPlan.getByText(/^אין מפגשים בחגים הרשמיים של צ׳כיה: /)).toBeVisible();

  const plan = await (await page.request.get(`/api/v1/goals/${goalId}/study-plan`)).json();
  expect(plan).toMatchObject({ holidayCountry: "CZ", weekdays: allowed });
  expect(plan.skippedHolidays.map(({ date }: { date: string }) => date)).toContain(holiday.date);
  await expectAccessible(page);

  // Applying asks first: the progress was set by hand. Cancelling keeps it and makes nothing.
  const sessionCount = await goals.sessions.count();
  await expect(goals.applyButton).toHaveText(`יצירת ${sessionCount} משימות`);
  await goals.applyButton.click();
  const question = goals.studyPlan.getByRole("alert");
  await expect(question).toContainText("ההתקדמות של היעד הוזנה ידנית.");
  await expectAccessible(page);
  await goals.studyPlan.getByRole("button", { name: "ביטול", exact: true }).click();
  await expect(question).toBeHidden();
  await expect(goals.studyPlan.getByRole("button", { name: "להחיל ולמדוד את ההתקדמות לפי המשימות" })).toHaveCount(0);
  await expect(goals.progressBar()).toHaveAttribute("aria-valuenow", "35");
  await expect(goals.linkedTasks.getByRole("link")).toHaveCount(0);
  expect(await (await page.request.get(`/api/v1/goals/${goalId}`)).json()).toMatchObject({
    progressMode: "manual",
    progress: 35,
  });

  // Asked again, and agreed: the tasks are made and measure the goal from 0 %.
  await goals.applyButton.click();
  await expect(question).toContainText("ההתקדמות של היעד הוזנה ידנית.");
  await goals.studyPlan.getByRole("button", { name: "להחיל ולמדוד את ההתקדמות לפי המשימות" }).click();
  await expect(goals.studyPlan.getByRole("status")).toHaveText(`נוצרו ${sessionCount} משימות.`);
  await expect(goals.linkedTasks.getByRole("link")).toHaveCount(sessionCount);
  await expect(goals.progressBar()).toHaveAttribute("aria-valuenow", "0");
  await expectAccessible(page);

  expect(errors).toEqual([]);
});
