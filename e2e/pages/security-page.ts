import type { Locator, Page, Response } from "@playwright/test";

/** The security settings (`/{locale}/settings/security`): passkeys, where the user is signed in, and signing out. */
export class SecurityPage {
  readonly heading: Locator;
  readonly passkeys: Locator;
  readonly devices: Locator;
  /** Announcements of what just happened (added, renamed, removed). */
  readonly status: Locator;
  readonly addForm: Locator;
  /** The "where you are signed in" card and its sessions. */
  readonly sessionsCard: Locator;
  readonly sessions: Locator;
  /** The personal access tokens card, its tokens, and the dialog that shows a new token's secret. */
  readonly tokensCard: Locator;
  readonly tokens: Locator;
  readonly tokenDialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.passkeys = page.locator("section", { has: page.locator("#passkeys-title") });
    this.devices = this.passkeys.getByRole("listitem");
    this.status = page.locator("main").getByRole("status");
    this.addForm = page.locator("section", { has: page.locator("#passkey-add-title") });
    this.sessionsCard = page.locator("section", { has: page.locator("#sessions-title") });
    this.sessions = this.sessionsCard.getByRole("listitem");
    this.tokensCard = page.locator("section", { has: page.locator("#tokens-title") });
    this.tokens = this.tokensCard.locator("li[data-token-id]");
    this.tokenDialog = page.getByRole("dialog");
  }

  /** A token of the list, by its name. */
  token(name: string): Locator {
    return this.tokens.filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }

  goto(locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/settings/security`);
  }

  /** A session of the list, by the device it shows (`Chrome 131 on macOS`). */
  session(device: string | RegExp): Locator {
    return this.sessions.filter({ has: this.page.getByRole("heading", { name: device }) });
  }

  /** A device of the list, by its name. */
  device(name: string): Locator {
    return this.devices.filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }

  async addDevice(name?: string) {
    if (name) await this.addForm.getByLabel("Device name (optional)").fill(name);
    await this.addForm.getByRole("button", { name: "Add a device" }).click();
  }

  async rename(device: Locator, name: string) {
    await device.getByRole("button", { name: "Rename" }).click();
    await device.getByLabel("Device name", { exact: true }).fill(name);
    await device.getByRole("button", { name: "Save" }).click();
  }

  async remove(device: Locator) {
    await device.getByRole("button", { name: "Remove" }).click();
    await device.getByRole("button", { name: "Yes, remove" }).click();
  }

  async signOut() {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}
