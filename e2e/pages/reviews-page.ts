import type { Locator, Page, Response } from "@playwright/test";

/** /{locale}/reviews: the due queue (one flashcard at a time), the "New card" form and the card list. */
export class ReviewsPage {
  readonly heading: Locator;
  readonly queue: Locator;
  readonly newCardForm: Locator;
  readonly cardList: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.queue = page.locator("section", { has: page.locator("#review-queue-title") });
    this.newCardForm = page.locator("section", { has: page.locator("#new-card-title") });
    this.cardList = page.locator("section", { has: page.locator("#card-list-title") });
  }

  goto(locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/reviews`);
  }

  async addCard(values: { front: string; back: string; deck?: string; goal?: string }) {
    await this.newCardForm.getByLabel("Question (front)").fill(values.front);
    await this.newCardForm.getByLabel("Answer (back)").fill(values.back);
    if (values.deck) await this.newCardForm.getByLabel("Deck", { exact: true }).fill(values.deck);
    if (values.goal) await this.newCardForm.getByLabel("Goal", { exact: true }).selectOption({ label: values.goal });
    await this.newCardForm.getByRole("button", { name: "Add card" }).click();
  }
}
