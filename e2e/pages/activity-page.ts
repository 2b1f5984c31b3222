import type { Locator, Page, Response } from "@playwright/test";

/** The activity page (`/{locale}/activity`): the last seven days, one day, the analysis and deleting the data. */
export class ActivityPage {
  readonly heading: Locator;
  readonly week: Locator;
  readonly day: Locator;
  readonly analysis: Locator;
  readonly data: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.week = page.locator("section", { has: page.locator("#activity-week-title") });
    this.day = page.locator("section", { has: page.locator("#activity-day-title") });
    this.analysis = page.locator("section", { has: page.locator("#activity-analysis-title") });
    this.data = page.locator("section", { has: page.locator("#activity-data-title") });
  }

  goto(locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/activity`);
  }

  /** A stat of the week ("Total", "Daily average") by its term. */
  weekStat(term: string): Locator {
    return this.week
      .locator(".activity-stats > div", { has: this.page.getByRole("term").filter({ hasText: term }) })
      .getByRole("definition");
  }

  /** The week's list of categories, each item reading "<category> <time>". */
  get categories(): Locator {
    return this.week.getByRole("list", { name: "By category" }).getByRole("listitem");
  }

  get topApps(): Locator {
    return this.week.getByRole("list", { name: "Top apps" }).getByRole("listitem");
  }

  get dateField(): Locator {
    return this.day.getByLabel("Day", { exact: true });
  }

  /** The day's total ("Sunday, 22 November 2026: 1 h 10 min"), also announced while loading. */
  get dayTotal(): Locator {
    return this.day.getByRole("status");
  }

  async analyse() {
    await this.analysis.getByRole("button", { name: "Analyse my week" }).click();
  }

  get insights(): Locator {
    return this.analysis.locator(".activity-insights > li");
  }

  async deleteAll() {
    await this.data.getByRole("button", { name: "Delete all activity data" }).click();
    await this.data.getByRole("button", { name: "Yes, delete all of it" }).click();
  }
}
