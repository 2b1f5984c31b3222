import { expect, type Locator, type Page } from "@playwright/test";

/** The Swagger UI page at /docs. */
export class DocsPage {
  readonly title: Locator;

  constructor(readonly page: Page) {
    this.title = page.locator(".swagger-ui .info .title");
  }

  async goto() {
    await this.page.goto("/docs");
    await expect(this.title).toBeVisible();
  }

  /** An operation block, e.g. `operation("get", "/api/v1/auth/me")`. */
  operation(method: string, path: string): Locator {
    return this.page
      .locator(`.swagger-ui .opblock.opblock-${method.toLowerCase()}`)
      .filter({ has: this.page.locator(`.opblock-summary-path[data-path="${path}"]`) });
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

  /** Expands an operation, presses "Try it out" then "Execute"; returns the live response row. */
  async tryOut(method: string, path: string) {
    const operation = this.operation(method, path);
    await operation.locator(".opblock-summary").first().click();
    await operation.getByRole("button", { name: "Try it out" }).click();
    await operation.getByRole("button", { name: "Execute" }).click();
    const response = operation.locator(".live-responses-table .response").first();
    await expect(response).toBeVisible();
    return {
      status: response.locator(".response-col_status"),
      body: response.locator(".response-col_description .microlight, .response-col_description pre").first(),
    };
  }
}
