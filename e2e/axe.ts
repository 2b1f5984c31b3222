import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Runs axe (WCAG 2.1 A and AA rules) on the page as it is now and fails on any serious or critical violation,
 * naming each rule and the elements it found.
 */
export async function expectAccessible(page: Page, options: { exclude?: string[] } = {}) {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter(({ impact }) => impact === "serious" || impact === "critical")
    .map(({ id, impact, help, nodes }) => `${impact} ${id}: ${help} (${nodes.map((node) => node.target.join(" ")).join(", ")})`);
  expect(serious, `axe on ${page.url()}`).toEqual([]);
}

/** `expectAccessible` in the light theme and then the dark one; the page is left in the light theme. */
export async function expectAccessibleInBothThemes(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
