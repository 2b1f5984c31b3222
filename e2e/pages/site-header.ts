import type { Locator, Page } from "@playwright/test";

/**
 * The header of every localized page. Its parts are found by their English names, except the brand and the
 * language switcher, which work in every language. On a phone-sized screen the links and controls sit behind the
 * menu button: the methods open it first when it is there.
 */
export class SiteHeader {
  readonly root: Locator;
  readonly brand: Locator;
  readonly menuButton: Locator;
  readonly nav: Locator;
  readonly theme: Locator;
  readonly languageSwitcher: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole("banner");
    this.brand = this.root.getByRole("link", { name: /^Spolu – / });
    this.menuButton = this.root.getByRole("button", { name: "Menu" });
    this.nav = this.root.getByRole("navigation", { name: "Main navigation" });
    this.theme = this.root.getByRole("group", { name: "Theme" });
    this.languageSwitcher = this.root.locator("nav.language-switcher");
  }

  /** A section of the main navigation ("Tasks", "Settings"...). */
  link(name: string): Locator {
    return this.nav.getByRole("link", { name, exact: true });
  }

  /** The account menu's button, which shows the user's name. */
  account(name: string): Locator {
    return this.root.getByRole("button", { name });
  }

  /** Opens the phone menu when the screen is narrow enough to have one. */
  async openMenu() {
    if ((await this.menuButton.isVisible()) && (await this.menuButton.getAttribute("aria-expanded")) !== "true") {
      await this.menuButton.click();
    }
  }

  async chooseTheme(name: "Light" | "Dark" | "System") {
    await this.openMenu();
    await this.theme.getByRole("button", { name, exact: true }).click();
  }

  /** Signs out through the account menu of the user called `name`. */
  async signOut(name: string) {
    await this.openMenu();
    const account = this.account(name);
    if (await account.isVisible()) await account.click();
    await this.root.getByRole("button", { name: "Sign out" }).click();
  }

  /** Follows the link to the current page in another language, by its own name ("Čeština", "עברית"...). */
  async switchLanguage(name: string) {
    await this.openMenu();
    const toggle = this.languageSwitcher.getByRole("button");
    if (await toggle.isVisible()) await toggle.click();
    await this.languageSwitcher.getByRole("link", { name, exact: true }).click();
  }
}
