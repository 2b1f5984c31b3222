import { expect, type APIRequestContext, type Locator, type Page, type Response } from "@playwright/test";
import { ADMIN_EMAIL } from "../../playwright.config";

const ADMIN_PASSWORD = "admin e2e correct horse battery";

/** Signs the context in as the administrator (ADMIN_EMAILS): registered once per run, signed in after that. */
export async function signInAsAdmin(request: APIRequestContext) {
  const account = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };
  const registered = await request.post("/api/v1/auth/register", {
    data: { ...account, name: "Ada Admin", locale: "en", timeZone: "Europe/Prague" },
  });
  if (registered.status() === 409) expect((await request.post("/api/v1/auth/login", { data: account })).status()).toBe(200);
  else expect(registered.status()).toBe(201);
}

/**
 * The administrators' dashboard (`/{locale}/admin`): users, feature modules, jobs, the work queue, error statistics,
 * recent errors.
 */
export class AdminPage {
  readonly heading: Locator;
  readonly users: Locator;
  readonly searchField: Locator;
  readonly usersTable: Locator;
  readonly errorStats: Locator;
  readonly recentErrors: Locator;
  readonly modules: Locator;
  readonly jobs: Locator;
  readonly queue: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.users = page.locator("section", { has: page.locator("#users-title") });
    this.searchField = this.users.getByRole("searchbox", { name: "Search by name or email" });
    this.usersTable = this.users.getByRole("table");
    this.errorStats = page.locator("section", { has: page.locator("#errors-title") });
    this.recentErrors = page.locator("section", { has: page.locator("#recent-title") });
    this.modules = page.locator("section", { has: page.locator("#modules-title") });
    this.jobs = page.locator("section", { has: page.locator("#jobs-title") });
    this.queue = page.locator("section", { has: page.locator("#queue-title") });
  }

  goto(query = "", locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/admin${query}`);
  }

  async search(text: string) {
    await this.searchField.fill(text);
    await this.users.getByRole("button", { name: "Search" }).click();
  }

  /** The table row of the user with this email. */
  row(email: string): Locator {
    return this.usersTable.getByRole("row").filter({ hasText: email });
  }

  /** Disables (or enables) a user from their row, confirming the question. */
  async setAccess(email: string, action: "Disable" | "Enable") {
    const row = this.row(email);
    await row.getByRole("button", { name: new RegExp(`^${action}`) }).click();
    await row.getByRole("button", { name: `Yes, ${action.toLowerCase()}` }).click();
  }

  /** The switch of a feature module, named by its row ("Activity monitor"). */
  moduleSwitch(name: string): Locator {
    return this.modules.getByRole("switch", { name, exact: true });
  }

  /** The table row of a feature module. */
  moduleRow(name: string): Locator {
    return this.modules.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: new RegExp(`^${name}`) }) });
  }
}
