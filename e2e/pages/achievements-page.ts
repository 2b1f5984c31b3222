import type { Locator, Page, Response } from "@playwright/test";

/** The achievements page (`/{locale}/achievements`): level, points, streaks, badges, leaderboard, history. */
export class AchievementsPage {
  readonly heading: Locator;
  readonly points: Locator;
  readonly level: Locator;
  readonly levelBar: Locator;
  readonly currentStreak: Locator;
  readonly badges: Locator;
  readonly leaderboard: Locator;
  readonly optIn: Locator;
  readonly yourRank: Locator;
  readonly history: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.points = page.getByTestId("points");
    this.level = page.getByTestId("level");
    this.levelBar = page.locator("section", { has: page.locator("#level-title") }).getByRole("progressbar");
    this.currentStreak = page.getByTestId("current-streak");
    this.badges = page.locator("section", { has: page.locator("#badges-title") });
    this.leaderboard = page.locator("section", { has: page.locator("#leaderboard-title") });
    this.optIn = this.leaderboard.getByRole("checkbox");
    this.yourRank = page.getByTestId("your-rank");
    this.history = page.locator("section", { has: page.locator("#history-title") });
  }

  goto(locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/achievements`);
  }

  badge(id: string): Locator {
    return this.badges.locator(`[data-badge="${id}"]`);
  }
}
