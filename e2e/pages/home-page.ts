import type { Locator, Page } from "@playwright/test";

/** The localized landing page (`/{locale}`). */
export class HomePage {
  readonly heading: Locator;
  readonly languageSwitcher: Locator;
  readonly docsLink: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.languageSwitcher = page.locator("nav.language-switcher");
    this.docsLink = page.locator("header").locator('a[href="/docs"]');
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
    await this.languageSwitcher.getByRole("link", { name, exact: true }).click();
  }
}
