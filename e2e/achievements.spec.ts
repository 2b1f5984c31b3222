import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { AchievementsPage } from "./pages/achievements-page";
import { collectErrors, registerUser, TasksPage } from "./pages/tasks-page";
import { SiteHeader } from "./pages/site-header";

/*
 * The achievements page: signed out, it sends the visitor to sign in. Signed in, a task completed in the task list
 * raises the points (20: on time), the level bar and the streak, earns "First step", and appears in the history.
 * The leaderboard lists someone only once they turn the opt-in switch on. The page passes axe in English and in
 * Hebrew (right to left), and with a badge earned in the light and dark themes.
 */

test("achievements: complete a task in the list and see the points rise", async ({ page }) => {
  const errors = collectErrors(page);
  const achievements = new AchievementsPage(page);
  await achievements.goto();
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Fachievements$/);

  await registerUser(page.request, "Ada Achiever");
  await achievements.goto();
  await expect(achievements.heading).toHaveText("Achievements");
  await expect(achievements.points).toHaveText("0");
  await expect(achievements.level).toHaveText("Level 1");
  await expect(achievements.badge("first_task")).toContainText("Not yet earned");
  await expect(new SiteHeader(page).link("Achievements")).toHaveAttribute("href", "/en/achievements");
  await expectAccessible(page);

  // A task due tomorrow, completed now in the list: on time.
  const due = new Date(Date.now() + 24 * 3600_000).toISOString();
  const created = await page.request.post("/api/v1/tasks", { data: { title: "Water the plants", dueAt: due } });
  expect(created.status()).toBe(201);
  const tasks = new TasksPage(page);
  await tasks.goto();
  await tasks.ready();
  await tasks.checkbox("Water the plants").click();
  await expect(page.locator(".tasks-undo")).toContainText("Completed “Water the plants”");
  await expect(tasks.rows).toHaveCount(0);

  // The award follows the completion right after its commit; the page shows it once it is there.
  await expect(async () => {
    await achievements.goto();
    await expect(achievements.points).toHaveText("20", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(achievements.levelBar).toHaveAttribute("aria-valuenow", "40");
  await expect(achievements.currentStreak).toHaveText("1 day");
  await expect(achievements.badge("first_task")).toContainText("Earned on");
  await expect(achievements.history.getByRole("listitem")).toHaveCount(1);
  await expect(achievements.history).toContainText("Water the plants");
  await expect(achievements.history).toContainText("+20");
  // An earned badge (accent background) and the rest, in both themes.
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test("achievements: the leaderboard lists the user once they opt in; Hebrew right to left", async ({ page }) => {
  const errors = collectErrors(page);
  const achievements = new AchievementsPage(page);
  // A name of its own: a retry registers another user on the same server.
  const name = `Ben ${randomUUID().slice(0, 8)}`;
  await registerUser(page.request, name);
  const created = await page.request.post("/api/v1/tasks", { data: { title: "Sweep the floor", priority: "high" } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.patch(`/api/v1/tasks/${id}`, { data: { status: "done" } })).status()).toBe(200);

  // Not on the board until opting in; then listed with their points (15: high priority, no due time).
  await expect(async () => {
    await achievements.goto();
    await expect(achievements.points).toHaveText("15", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(achievements.yourRank).toContainText("others do not see you");
  await expect(achievements.leaderboard.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
  await achievements.optIn.check();
  await expect(achievements.leaderboard.getByRole("status")).toHaveText("Saved.");
  await expect(achievements.yourRank).toContainText("You: rank");
  await expect(achievements.leaderboard.getByRole("row", { name: new RegExp(name) })).toBeVisible();
  await achievements.leaderboard.getByLabel("Period").selectOption("week");
  await expect(achievements.leaderboard.getByRole("row", { name: new RegExp(name) })).toContainText("15");
  await expectAccessible(page);

  // Hebrew: right to left, translated, still accessible.
  await achievements.goto("he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(achievements.heading).toHaveText("הישגים");
  await expect(achievements.optIn).toBeChecked();
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test.describe("with a browser in New York", () => {
  test.use({ timezoneId: "America/New_York" });

  test("achievements: the latest points and the badge's day are in the user's own zone (Tokyo), not UTC", async ({ page }) => {
    await registerUser(page.request, "Kenji Tanaka", "Asia/Tokyo");
    const created = await page.request.post("/api/v1/tasks", { data: { title: "Sort the mail" } });
    expect(created.status()).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    expect((await page.request.patch(`/api/v1/tasks/${id}`, { data: { status: "done" } })).status()).toBe(200);

    const achievements = new AchievementsPage(page);
    await expect(async () => {
      await achievements.goto();
      await expect(achievements.history.getByRole("listitem")).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    const time = achievements.history.locator("time");
    const completedAt = new Date((await time.getAttribute("datetime"))!);
    const inZone = (timeZone: string) =>
      new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone })
        .format(completedAt)
        .replace(/\s+/g, " ");
    expect((await time.innerText()).replace(/\s+/g, " ")).toBe(inZone("Asia/Tokyo"));
    expect(inZone("Asia/Tokyo")).not.toBe(inZone("UTC"));
    const earnedDay = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "Asia/Tokyo" }).format(completedAt);
    await expect(achievements.badge("first_task")).toContainText(`Earned on ${earnedDay}`);
  });
});
