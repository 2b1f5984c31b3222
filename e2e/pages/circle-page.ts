import type { Locator, Page, Response } from "@playwright/test";

/**
 * The team and project pages: the list with its "New team"/"New project" form (`/{locale}/teams`,
 * `/{locale}/projects`) and one of them (`/{locale}/teams/{id}`, `/{locale}/projects/{id}`).
 */
export class CirclePage {
  readonly heading: Locator;
  readonly newForm: Locator;
  readonly cards: Locator;
  readonly tasks: Locator;
  readonly members: Locator;
  readonly workload: Locator;
  readonly invite: Locator;
  readonly settings: Locator;

  constructor(
    readonly page: Page,
    readonly path: "teams" | "projects",
  ) {
    const kind = path === "teams" ? "team" : "project";
    this.heading = page.getByRole("heading", { level: 1 });
    this.newForm = page.locator("section", { has: page.locator(`#new-${kind}-title`) });
    this.cards = page.locator(".circle-card");
    this.tasks = page.locator("section", { has: page.locator("#circle-tasks-title") });
    this.members = page.locator("section", { has: page.locator("#circle-members-title") });
    this.workload = page.locator("section", { has: page.locator("#circle-workload-title") });
    this.invite = page.locator("section", { has: page.locator("#circle-invite-title") });
    this.settings = page.locator("section", { has: page.locator("#circle-settings-title") });
  }

  goto(locale = "en", id?: string): Promise<Response | null> {
    return this.page.goto(`/${locale}/${this.path}${id ? `/${id}` : ""}`);
  }

  /** The id in the URL of the page of one team or project. */
  id(): string {
    return new URL(this.page.url()).pathname.split("/").at(-1)!;
  }

  /** A member's row, found by the name shown in it. */
  member(name: string): Locator {
    return this.members.getByRole("listitem").filter({ hasText: name });
  }

  /** A member's row of the workload table: name, in progress, to do, done. */
  workloadRow(name: string): Locator {
    return this.workload.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name }) });
  }

  async direction(): Promise<{ lang: string | null; dir: string | null }> {
    const html = this.page.locator("html");
    return { lang: await html.getAttribute("lang"), dir: await html.getAttribute("dir") };
  }
}
