import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { ActivityPage } from "./pages/activity-page";
import { collectErrors } from "./page-errors";

/*
 * /{locale}/activity: signed out, the page sends the visitor to sign in. A user's phone reports a batch through the
 * API; the page shows the last seven days (total, categories, top apps) and today by hour, another day on request,
 * runs the built-in analysis of the week and names the assistant that answered, passes axe, reads right to left
 * in Hebrew, and deletes the data.
 */

const TIME_ZONE = "Europe/Prague";
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const localDate = (offsetDays: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    Date.now() + offsetDays * 86_400_000,
  );

test("activity: a reported batch in the summary and the day, the analysis, Hebrew, deleting", async ({ page }) => {
  const errors = collectErrors(page);
  const activity = new ActivityPage(page);

  await activity.goto();
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Factivity$/);

  const account = { name: "Anna Activity", email: `activity-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const registered = await page.request.post("/api/v1/auth/register", {
    data: { ...account, locale: "en", timeZone: TIME_ZONE },
  });
  expect(registered.status()).toBe(201);

  // The phone reports a batch (sending it twice adds nothing).
  const records = [
    { id: randomUUID(), app: "Tube", category: "video", seconds: 2400, startedAt: minutesAgo(61), endedAt: minutesAgo(21) },
    { id: randomUUID(), app: "Chat", category: "social", seconds: 1200, startedAt: minutesAgo(21), endedAt: minutesAgo(1) },
    { id: randomUUID(), app: "Reader", category: "reading", seconds: 600, startedAt: minutesAgo(40), endedAt: minutesAgo(30) },
  ];
  for (const expected of [
    { accepted: 3, duplicates: 0 },
    { accepted: 0, duplicates: 3 },
  ]) {
    const reported = await page.request.post("/api/v1/activity/records", { data: { records } });
    expect(reported.status()).toBe(200);
    expect(await reported.json()).toMatchObject(expected);
  }

  await activity.goto();
  await expect(activity.heading).toHaveText("Activity");
  await expect(activity.weekStat("Total")).toHaveText("1 h 10 min");
  await expect(activity.weekStat("Daily average")).toHaveText("10 min");
  await expect(activity.categories).toHaveText([/^Video\s*40 min$/, /^Social\s*20 min$/, /^Reading\s*10 min$/]);
  await expect(activity.topApps).toHaveText([/Tube.*Video.*40 min/, /Chat.*Social.*20 min/, /Reader.*Reading.*10 min/]);

  // Today by hour (the records lie within the last hour, so all of it is today's unless midnight just passed).
  await expect(activity.dateField).toHaveValue(localDate(0));
  const today = await page.request.get("/api/v1/activity/daily");
  const todaySeconds = (await today.json()).totalSeconds as number;
  if (todaySeconds === 4200) await expect(activity.dayTotal).toHaveText(/: 1 h 10 min$/);
  await expect(activity.day.getByRole("list", { name: "By hour" }).getByRole("listitem")).toHaveCount(24);

  // Another day, then a day in the future.
  await activity.dateField.fill(localDate(-10));
  await expect(activity.day.getByText("Nothing was reported for this day.")).toBeVisible();
  await expect(activity.dayTotal).toHaveText(/: 0 s$/);
  await activity.dateField.fill(localDate(2));
  await expect(activity.day.getByRole("alert")).toHaveText("Choose a day that is not in the future.");
  await expect(activity.dateField).toHaveAttribute("aria-invalid", "true");
  await activity.dateField.fill(localDate(0));
  await expect(activity.day.getByRole("alert")).toHaveCount(0);
  await expect(activity.day.getByRole("list", { name: "Apps" })).toBeVisible();

  // The analysis, by the built-in assistant (no AI endpoint on this server).
  await activity.analyse();
  await expect(activity.insights.first()).toHaveText(/^You spent 1 h 10 min on your phone\./);
  await expect(activity.insights.nth(1)).toHaveText(
    "Video took the most time: 40 min, 57% of the total, 6 min a day on average.",
  );
  await expect(activity.insights.last()).toHaveText("You have no open tasks: a good week to rest, or to plan what comes next.");
  await expect(activity.analysis.getByText("Answered by Spolu's built-in assistant.")).toBeVisible();

  await expectAccessible(page);

  // Hebrew: right to left.
  await activity.goto("he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(activity.heading).toHaveText("פעילות");
  await expectAccessible(page);

  // Deleting everything empties the page.
  await activity.goto();
  await activity.deleteAll();
  await expect(activity.data.getByRole("status")).toHaveText("3 records were deleted.");
  await expect(activity.week.getByText("No phone use was reported in the last 7 days.")).toBeVisible();
  await expect(activity.weekStat("Total")).toHaveText("0 s");

  expect(errors).toEqual([]);
});
