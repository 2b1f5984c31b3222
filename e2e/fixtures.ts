import { expect, test as base } from "@playwright/test";

/*
 * The `test` every spec uses: Playwright's, with one more check after each test. Every page of the test's browser
 * context reports Content-Security-Policy violations (Chromium logs each as a console error, and the page's
 * `securitypolicyviolation` event says which directive refused what); a test whose pages met any fails, naming them.
 * The pages must work under their policy (lib/api/page-headers.ts), not merely look as if they did.
 * Likewise a message a client component asks for and its provider does not hold (next-intl logs MISSING_MESSAGE and
 * shows the key): each page hands the browser only the namespaces its client components read
 * (components/i18n/client-messages.ts), so a component moved to another page must bring its namespace along.
 */

export const test = base.extend<{ cspViolations: string[]; missingMessages: string[] }>({
  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          console.error(
            `CSP violation: ${event.violatedDirective} refused ${event.blockedURI || "inline code"} (${event.sourceFile}:${event.lineNumber})`,
          );
        });
      });
      context.on("console", (message) => {
        const text = message.text();
        if (/Content Security Policy|CSP violation/i.test(text)) violations.push(`${message.location().url}: ${text}`);
      });
      await use(violations);
      expect(violations, "Content-Security-Policy violations in the test's pages").toEqual([]);
    },
    { auto: true },
  ],
  missingMessages: [
    async ({ context }, use) => {
      const missing: string[] = [];
      context.on("console", (message) => {
        if (message.text().includes("MISSING_MESSAGE")) missing.push(`${message.location().url}: ${message.text()}`);
      });
      await use(missing);
      expect(missing, "messages the test's pages asked for and were not given").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
export type { APIRequestContext, Locator, Page, Response } from "@playwright/test";
