import type { Locator, Page, Response } from "@playwright/test";

/** The sign-in page (`/{locale}/sign-in`), also showing the registration form with `?mode=register`. */
export class SignInPage {
  readonly heading: Locator;
  /** The card holding the forms, their alerts and status messages. */
  readonly card: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.card = page.locator(".auth-card");
    this.alert = this.card.getByRole("alert");
  }

  goto(locale = "en", query = ""): Promise<Response | null> {
    return this.page.goto(`/${locale}/sign-in${query}`);
  }

  /** The document's `lang` and `dir` attributes. */
  async direction() {
    const html = this.page.locator("html");
    return { lang: await html.getAttribute("lang"), dir: await html.getAttribute("dir") };
  }

  async signInWithPassword(email: string, password: string) {
    await this.card.getByLabel("Email", { exact: true }).fill(email);
    await this.card.getByLabel("Password", { exact: true }).fill(password);
    await this.card.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  async signInWithBiometrics(email: string) {
    await this.card.getByLabel("Email", { exact: true }).fill(email);
    await this.card.getByRole("button", { name: "Sign in with biometrics" }).click();
  }

  async register(values: { name: string; email: string; password: string }) {
    await this.card.getByRole("link", { name: "Create an account" }).click();
    await this.card.getByLabel("Your name", { exact: true }).fill(values.name);
    await this.card.getByLabel("Email", { exact: true }).fill(values.email);
    await this.card.getByLabel("Password", { exact: true }).fill(values.password);
    await this.card.getByRole("button", { name: "Create account", exact: true }).click();
  }
}
