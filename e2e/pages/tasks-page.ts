import { randomUUID } from "node:crypto";
import { expect, type APIRequestContext, type Locator, type Page, type Response } from "@playwright/test";

/** A user registered through the API in a browser context (`page.request` shares its cookies: signed in). */
export interface Account {
  id: string;
  name: string;
  email: string;
  password: string;
}

/** Registers a new user with a random email; the request context is signed in as them afterwards. */
export async function registerUser(request: APIRequestContext, name: string, timeZone = "Europe/Prague"): Promise<Account> {
  const account = { name, email: `tasks-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const answer = await request.post("/api/v1/auth/register", { data: { ...account, locale: "en", timeZone } });
  expect(answer.status()).toBe(201);
  return { ...account, id: ((await answer.json()) as { user: { id: string } }).user.id };
}

/** Creates a task through the API as the context's user. */
export async function createTask(request: APIRequestContext, data: Record<string, unknown>): Promise<{ id: string }> {
  const answer = await request.post("/api/v1/tasks", { data });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as { id: string };
}

/** Signs a browser context in as an existing user. */
export async function signIn(request: APIRequestContext, account: Pick<Account, "email" | "password">): Promise<void> {
  const answer = await request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } });
  expect(answer.status()).toBe(200);
}

/** Uncaught errors in the page, and React's complaints (hydration...) in the console. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  return errors;
}

/** The task list page (`/{locale}/tasks`), in English unless said otherwise. */
export class TasksPage {
  readonly heading: Locator;
  readonly quickAdd: Locator;
  readonly quickAddForm: Locator;
  /** The rows of the list (one list, or one per day in Upcoming), without the "Completed" section's. */
  readonly rows: Locator;
  readonly filters: Locator;
  readonly search: Locator;
  readonly sidebar: Locator;
  readonly live: Locator;
  readonly empty: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.quickAddForm = page.locator("form.quick-add");
    this.quickAdd = this.quickAddForm.getByRole("textbox");
    this.rows = page.locator("ul.task-list:not(.task-list-completed) > li");
    this.filters = page.getByRole("form", { name: "Filters" });
    this.search = this.filters.getByRole("searchbox");
    this.sidebar = page.getByRole("navigation", { name: "Task groups" });
    this.live = page.locator(".tasks-live");
    this.empty = page.locator(".tasks-empty");
    this.alert = page.locator(".tasks-main > .tasks-error");
  }

  goto(query = "", locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/tasks${query}`);
  }

  /** Waits until the page is hydrated (quick add enabled) and its socket is live. */
  async ready() {
    await expect(this.quickAdd).toBeEnabled();
    await expect(this.live).toHaveText("Live");
  }

  async addTask(title: string) {
    await this.quickAdd.fill(title);
    await this.quickAdd.press("Enter");
  }

  row(title: string): Locator {
    return this.rows.filter({ has: this.page.getByRole("link", { name: title, exact: true }) });
  }

  checkbox(title: string): Locator {
    return this.page.getByRole("checkbox", { name: `Done: ${title}`, exact: true });
  }

  /** The titles of the rows, top to bottom. */
  titles(): Promise<string[]> {
    return this.rows.locator(".task-row-title").allInnerTexts();
  }

  /** Unfolds the filters where they are folded (on a phone, behind "Filters"); on wide screens they are always open. */
  async openFilters() {
    const fold = this.page.locator("form.task-filters details.task-filters-fold");
    const summary = fold.locator("> summary");
    if (!(await fold.evaluate((element) => (element as HTMLDetailsElement).open)) && (await summary.isVisible())) {
      await summary.click();
    }
  }

  /** Opens "More filters" (status, assignee, due dates, tag) when it is closed. */
  async openMoreFilters() {
    await this.openFilters();
    const details = this.page.locator("form.task-filters details.task-filters-more");
    if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open))) await details.locator("summary").click();
  }

  statusFilter(label: string): Locator {
    return this.filters.getByRole("group", { name: "Status" }).getByLabel(label, { exact: true });
  }
}
