import type { Page } from "@playwright/test";

/** Uncaught errors in the page, and React's complaints (hydration...) in the console, as the test goes. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  return errors;
}
