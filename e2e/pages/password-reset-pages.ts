import type { Locator, Page } from "@playwright/test";

/** The words of the password-reset pages in one language (what a person reads on them). */
export interface ResetWords {
  forgotLink: string;
  email: string;
  send: string;
  newPassword: string;
  save: string;
}

/** /{locale}/forgot-password and /{locale}/reset-password#token=…: the card with its form, alerts and status. */
export class PasswordResetPages {
  readonly heading: Locator;
  readonly card: Locator;
  readonly alert: Locator;
  readonly status: Locator;

  constructor(
    readonly page: Page,
    readonly words: ResetWords,
  ) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.card = page.locator(".auth-card");
    this.alert = this.card.getByRole("alert");
    this.status = this.card.getByRole("status");
  }

  /** From the sign-in page: "Forgot your password?". */
  async openFromSignIn(locale: string) {
    await this.page.goto(`/${locale}/sign-in`);
    await this.card.getByRole("link", { name: this.words.forgotLink }).click();
  }

  async askForLink(email: string) {
    await this.card.getByLabel(this.words.email, { exact: true }).fill(email);
    await this.card.getByRole("button", { name: this.words.send }).click();
  }

  async saveNewPassword(password: string) {
    await this.card.getByLabel(this.words.newPassword, { exact: true }).fill(password);
    await this.card.getByRole("button", { name: this.words.save }).click();
  }
}
