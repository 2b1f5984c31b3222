import type { Locator, Page } from "@playwright/test";
import { SiteHeader } from "./site-header";

/** The localized landing page (`/{locale}`). */
export class HomePage {
  readonly heading: Locator;
  readonly header: SiteHeader;
  readonly languageSwitcher: Locator;
  readonly docsLink: Locator;
  /** The hero's buttons: "Get started" (sign-up) and the features signed out, the tasks and the board signed in. */
  readonly actions: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.header = new SiteHeader(page);
    this.languageSwitcher = this.header.languageSwitcher;
    this.docsLink = page.getByRole("contentinfo").getByRole("link", { name: /API/ });
    this.actions = page.locator(".hero .actions");
  }

  async goto(path = "/") {
    await this.page.goto(path);
  }

  /** The document's `lang` and `dir` attributes. */
  async direction() {
    const html = this.page.locator("html");
    return { lang: await html.getAttribute("lang"), dir: await html.getAttribute("dir") };
  }

  /** Clicks a language by its own name ("Čeština", "עברית"...). */
  async switchLanguage(name: string) {
    await this.header.switchLanguage(name);
  }
}
