import type { Locator, Page, Response } from "@playwright/test";

/** The settings pages: the home (`/{locale}/settings`), the profile (`/profile`) and the account data (`/account`). */
export class SettingsPage {
  readonly heading: Locator;
  readonly profileCard: Locator;
  readonly passwordCard: Locator;
  readonly deleteCard: Locator;
  /** Announcements of what just happened (saved, changed). */
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.profileCard = page.locator("section", { has: page.locator("#profile-title") });
    this.passwordCard = page.locator("section", { has: page.locator("#password-title") });
    this.deleteCard = page.locator("section", { has: page.locator("#delete-title") });
    this.status = page.locator("main").getByRole("status");
  }

  goto(section: "" | "profile" | "account" = "", locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/settings${section ? `/${section}` : ""}`);
  }

  get nameField(): Locator {
    return this.profileCard.getByLabel("Your name", { exact: true });
  }

  get languageField(): Locator {
    return this.profileCard.getByLabel("Language", { exact: true });
  }

  get timeZoneField(): Locator {
    return this.profileCard.getByLabel("Time zone", { exact: true });
  }

  async saveProfile(values: { name?: string; language?: string; timeZone?: string }) {
    if (values.name !== undefined) await this.nameField.fill(values.name);
    if (values.language) await this.languageField.selectOption(values.language);
    if (values.timeZone) await this.timeZoneField.selectOption(values.timeZone);
    await this.profileCard.getByRole("button", { name: "Save changes" }).click();
  }

  get exportLink(): Locator {
    return this.page.getByRole("link", { name: "Download my data" });
  }

  /** Asks to delete the account with this password and confirms. */
  async deleteAccount(password: string) {
    await this.deleteCard.getByLabel("Your password", { exact: true }).fill(password);
    await this.deleteCard.getByRole("button", { name: "Delete my account" }).click();
    await this.deleteCard.getByRole("button", { name: "Yes, delete my account for good" }).click();
  }
}
