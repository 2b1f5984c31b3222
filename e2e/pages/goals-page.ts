import type { Locator, Page, Response } from "@playwright/test";

/** The words the page object looks for, in the languages the specs drive the goal pages in. */
export const GOALS_WORDS = {
  en: {
    title: "Goal",
    description: "Description",
    targetDate: "Target date",
    create: "Create goal",
    date: "Date",
    progress: "Progress (%)",
    note: "Note",
    addReport: "Add report",
    apply: /^Create \d+ tasks?$/,
  },
  he: {
    title: "מטרה",
    description: "תיאור",
    targetDate: "תאריך יעד",
    create: "יצירת מטרה",
    date: "תאריך",
    progress: "התקדמות (%)",
    note: "הערה",
    addReport: "הוספת דיווח",
    apply: /^יצירת (\d+ משימות|משימה אחת|שתי משימות)$/,
  },
};

export type GoalsWords = (typeof GOALS_WORDS)[keyof typeof GOALS_WORDS];

/** The goal pages: the list with its "New goal" form (`/{locale}/goals`) and one goal (`/{locale}/goals/{id}`). */
export class GoalsPage {
  readonly heading: Locator;
  readonly newGoalForm: Locator;
  readonly goalCards: Locator;
  readonly details: Locator;
  readonly linkedTasks: Locator;
  readonly reports: Locator;
  readonly studyPlan: Locator;

  constructor(
    readonly page: Page,
    readonly words: GoalsWords = GOALS_WORDS.en,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.newGoalForm = page.locator("section", { has: page.locator("#new-goal-title") });
    this.goalCards = page.locator(".goal-card");
    this.details = page.locator("section", { has: page.locator("#goal-details-title") });
    this.linkedTasks = page.locator("section", { has: page.locator("#goal-tasks-title") });
    this.reports = page.locator("section", { has: page.locator("#goal-reports-title") });
    this.studyPlan = page.locator("section", { has: page.locator("#goal-plan-title") });
  }

  goto(locale = "en", goalId?: string): Promise<Response | null> {
    return this.page.goto(`/${locale}/goals${goalId ? `/${goalId}` : ""}`);
  }

  /** The goal's id, from the URL of its page. */
  goalId(): string {
    return new URL(this.page.url()).pathname.split("/").at(-1)!;
  }

  async createGoal(values: { title: string; description?: string; targetDate?: string }) {
    await this.newGoalForm.getByLabel(this.words.title, { exact: true }).fill(values.title);
    if (values.description) await this.newGoalForm.getByLabel(this.words.description, { exact: true }).fill(values.description);
    if (values.targetDate) await this.newGoalForm.getByLabel(this.words.targetDate, { exact: true }).fill(values.targetDate);
    await this.newGoalForm.getByRole("button", { name: this.words.create }).click();
  }

  /** The progress bar of the page's goal (or of the goal card it is in). */
  progressBar(within: Locator = this.page.locator(".goal-header")): Locator {
    return within.getByRole("progressbar");
  }

  async addReport(values: { date: string; value: number; note: string }) {
    await this.reports.getByLabel(this.words.date, { exact: true }).fill(values.date);
    await this.reports.getByLabel(this.words.progress, { exact: true }).fill(String(values.value));
    await this.reports.getByLabel(this.words.note, { exact: true }).fill(values.note);
    await this.reports.getByRole("button", { name: this.words.addReport }).click();
  }

  get chart(): Locator {
    return this.reports.getByRole("img", { name: /^Progress over time/ });
  }

  get reportRows(): Locator {
    return this.reports.locator("tbody tr");
  }

  get sessions(): Locator {
    return this.studyPlan.locator(".goal-plan-sessions > li");
  }

  get applyButton(): Locator {
    return this.studyPlan.getByRole("button", { name: this.words.apply });
  }
}
