import type { Locator, Page, Response } from "@playwright/test";

/** The task page (`/{locale}/tasks/{id}`), in English. */
export class TaskDetailPage {
  readonly heading: Locator;
  /** The page's announcements ("Saved", "Request sent to …", "Copied"). */
  readonly status: Locator;
  readonly details: Locator;
  readonly subtasks: Locator;
  readonly recurrence: Locator;
  readonly people: Locator;
  readonly collaboration: Locator;
  readonly invite: Locator;
  readonly attachments: Locator;
  readonly badges: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.status = page.locator("main").getByRole("status");
    const card = (heading: string) =>
      page.locator("section", { has: page.getByRole("heading", { level: 2, name: heading, exact: true }) });
    this.details = card("Details");
    this.subtasks = card("Subtasks");
    this.recurrence = card("Repeat");
    this.people = card("People");
    this.collaboration = card("Ask someone to join");
    this.invite = card("Invite someone new");
    this.attachments = card("Attachments");
    this.badges = page.locator(".task-badges");
  }

  goto(taskId: string, locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/tasks/${taskId}`);
  }

  field(label: string): Locator {
    return this.details.getByLabel(label, { exact: true });
  }

  /** Types into a field that saves when left, and leaves it. */
  async edit(label: string, value: string) {
    const field = this.field(label);
    await field.fill(value);
    await field.blur();
  }

  async choose(label: string, option: string) {
    await this.field(label).selectOption({ label: option });
  }

  async addTag(tag: string) {
    await this.details.getByLabel("New tag", { exact: true }).fill(tag);
    await this.details.getByRole("button", { name: "Add tag" }).click();
  }

  /** The tag chips, in order. */
  get tags(): Locator {
    return this.details.locator(".task-tag");
  }

  async addSubtask(title: string) {
    await this.subtasks.getByLabel("New subtask", { exact: true }).fill(title);
    await this.subtasks.getByRole("button", { name: "Add subtask" }).click();
  }

  /** The subtasks' titles as shown, in order. */
  subtaskTitles(): Promise<string[]> {
    return this.subtasks
      .locator(".subtask input.subtask-title")
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  }

  subtaskCheckbox(title: string): Locator {
    return this.subtasks.getByRole("checkbox", { name: `Done: ${title}`, exact: true });
  }

  dragHandle(title: string): Locator {
    return this.subtasks.getByRole("button", { name: `Drag to reorder: ${title}` });
  }

  /** Sets how the task repeats and saves it. */
  async repeat(frequency: "Daily" | "Weekly" | "Monthly", interval: number) {
    await this.recurrence.getByLabel("Repeats", { exact: true }).selectOption({ label: frequency });
    await this.recurrence.getByRole("spinbutton").first().fill(String(interval));
    await this.recurrence.getByRole("button", { name: /^(Repeat this task|Save repeat settings)$/ }).click();
  }

  /** Asks someone (by email) to take part in the task. */
  async ask(kind: string, email: string) {
    await this.collaboration.getByLabel("What to ask for", { exact: true }).selectOption({ label: kind });
    await this.collaboration.getByLabel("Their email address", { exact: true }).fill(email);
    await this.collaboration.getByRole("button", { name: "Send request" }).click();
  }
}
