import type { Locator, Page, Response } from "@playwright/test";

/** The public invitation landing page (`/invite/{token}`). */
export class InvitePage {
  readonly heading: Locator;
  readonly target: Locator;
  readonly registerForm: Locator;
  readonly signInForm: Locator;
  readonly success: Locator;
  readonly problem: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.target = page.locator(".invite-target");
    this.registerForm = page.locator("section", { has: page.locator("#invite-register-title") });
    this.signInForm = page.locator("section", { has: page.locator("#invite-sign-in-title") });
    this.success = page.getByRole("status");
    this.problem = page.locator(".invite-problem");
  }

  goto(token: string, lang?: string): Promise<Response | null> {
    return this.page.goto(`/invite/${token}${lang ? `?lang=${lang}` : ""}`);
  }

  /** The document's `lang` and `dir` attributes. */
  async direction() {
    const html = this.page.locator("html");
    return { lang: await html.getAttribute("lang"), dir: await html.getAttribute("dir") };
  }

  /** Fills the registration form by its labels and submits it. */
  async register(
    labels: { name: string; email: string; password: string; submit: string },
    values: { name: string; email: string; password: string },
  ) {
    await this.registerForm.getByLabel(labels.name).fill(values.name);
    await this.registerForm.getByLabel(labels.email).fill(values.email);
    await this.registerForm.getByLabel(labels.password).fill(values.password);
    await this.registerForm.getByRole("button", { name: labels.submit }).click();
  }

  async signIn(labels: { email: string; password: string; submit: string }, values: { email: string; password: string }) {
    await this.signInForm.getByLabel(labels.email).fill(values.email);
    await this.signInForm.getByLabel(labels.password).fill(values.password);
    await this.signInForm.getByRole("button", { name: labels.submit }).click();
  }
}
