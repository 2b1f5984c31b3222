import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Swagger UI resolves the OpenAPI 3.1 document with ApiDOM in the browser: first paint and each opened
 * operation cost seconds of CPU, and up to 30 s were seen on the shared 2-core machine at load average 28
 * (a deep link resolves its operation before the first paint). Generous, but a render that never comes
 * still fails.
 */
export const RENDER_TIMEOUT = 60_000;

/** The Swagger UI page at /docs. */
export class DocsPage {
  readonly title: Locator;
  readonly filter: Locator;

  constructor(readonly page: Page) {
    this.title = page.locator(".swagger-ui .info .title");
    this.filter = page.locator(".swagger-ui .filter input.operation-filter-input");
  }

  /** Opens /docs (`hash` e.g. "#/Account/getCurrentUser" for a deep link) and waits for the tag list. */
  async goto(hash = "") {
    await this.page.goto(`/docs${hash}`);
    await expect(this.title).toBeVisible({ timeout: RENDER_TIMEOUT });
    await expect(this.tag("Health")).toBeVisible({ timeout: RENDER_TIMEOUT });
  }

  /** A tag's heading, e.g. `tag("Account")`. */
  tag(name: string): Locator {
    return this.page.locator(`.swagger-ui h3.opblock-tag[data-tag="${name}"]`);
  }

  /** Opens a collapsed tag, as a reader clicks its heading. */
  async openTag(name: string) {
    const heading = this.tag(name);
    if ((await heading.getAttribute("data-is-open")) !== "true") await heading.click();
    await expect(heading).toHaveAttribute("data-is-open", "true");
  }

  /** An operation block, e.g. `operation("get", "/api/v1/auth/me")`. */
  operation(method: string, path: string): Locator {
    return this.page
      .locator(`.swagger-ui .opblock.opblock-${method.toLowerCase()}`)
      .filter({ has: this.page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  }

  /** Expands an operation (its tag must be open) and waits for its resolved details. */
  async expand(method: string, path: string): Promise<Locator> {
    const operation = this.operation(method, path);
    if (!(await operation.evaluate((element) => element.classList.contains("is-open")))) {
      await operation.locator(".opblock-summary-control").click();
    }
    await expect(operation.locator(".responses-wrapper .responses-table").first()).toBeVisible({
      timeout: RENDER_TIMEOUT,
    });
    return operation;
  }

  /** Gives the bearer token in the "Authorize" dialog and closes it. */
  async authorize(token: string) {
    await this.page.locator(".swagger-ui .auth-wrapper button.authorize").click();
    const dialog = this.page.locator(".swagger-ui .modal-ux");
    await expect(dialog).toBeVisible();
    await dialog.locator("input").first().fill(token);
    await dialog.getByRole("button", { name: "Apply credentials" }).click();
    await expect(dialog.getByRole("button", { name: "Remove authorization" })).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  }

  /** Opens the operation's tag, expands it, presses "Try it out" then "Execute"; returns the live response row. */
  async tryOut(tag: string, method: string, path: string) {
    await this.openTag(tag);
    const operation = await this.expand(method, path);
    await operation.getByRole("button", { name: "Try it out" }).click();
    await operation.getByRole("button", { name: "Execute" }).click();
    const response = operation.locator(".live-responses-table .response").first();
    await expect(response).toBeVisible({ timeout: RENDER_TIMEOUT });
    return {
      status: response.locator(".response-col_status"),
      body: response.locator(".response-col_description .microlight, .response-col_description pre").first(),
    };
  }
}
