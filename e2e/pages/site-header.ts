import type { Locator, Page } from "@playwright/test";

/**
 * A link by its exact text, hidden or not: by default a section's, in the main navigation or the account menu;
 * `selector` "a" for any link (inside a menu, whose ancestors the selector cannot name).
 */
function sectionLink(page: Page, name: string, selector = ".main-nav a, .account-links a"): Locator {
  const exactly = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  return page.locator(selector).filter({ hasText: exactly });
}

/**
 * The header of every localized page. Its parts are found by their English names, except the brand and the
 * language switcher, which work in every language. On a phone-sized screen the links and controls sit behind the
 * menu button: the methods open it first when it is there. Most sections sit under "More", Settings and Admin
 * in the account menu: `follow` opens the menu holding a section before clicking it.
 */
export class SiteHeader {
  readonly root: Locator;
  readonly brand: Locator;
  readonly menuButton: Locator;
  readonly nav: Locator;
  readonly more: Locator;
  readonly palette: Locator;
  readonly theme: Locator;
  readonly languageSwitcher: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole("banner");
    this.brand = this.root.getByRole("link", { name: /^Spolu – / });
    this.menuButton = this.root.getByRole("button", { name: "Menu" });
    this.nav = this.root.getByRole("navigation", { name: "Main navigation" });
    this.more = this.nav.getByRole("button", { name: "More", exact: true });
    this.palette = this.root.getByRole("button", { name: "Search and commands" });
    this.theme = this.root.getByRole("group", { name: "Theme" });
    this.languageSwitcher = this.root.locator("nav.language-switcher");
  }

  /**
   * A section's link ("Tasks", "Requests", "Settings"...) wherever it sits: in the row, under More or in the
   * account menu, found even while its menu is closed (to read its attributes; `follow` clicks it).
   */
  link(name: string): Locator {
    return this.root.locator(sectionLink(this.page, name));
  }

  /** Follows a section's link, opening the phone menu and the menu holding the link (More, the account's) first. */
  async follow(name: string) {
    await this.openMenu();
    const link = this.link(name);
    if (!(await link.isVisible())) {
      await this.root
        .locator(".menu-root")
        .filter({ has: sectionLink(this.page, name, "a") })
        .locator(".menu-toggle")
        .click();
    }
    await link.click();
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
