import { expect, type Locator, type Page, type Response } from "@playwright/test";

/** The kanban board (`/{locale}/board`), read and driven the way a person does: by column names and card titles. */
export class BoardPage {
  readonly heading: Locator;
  /** Why a move failed, when one did. */
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.alert = page.locator(".board").getByRole("alert");
  }

  goto(locale = "en", query = ""): Promise<Response | null> {
    return this.page.goto(`/${locale}/board${query}`);
  }

  /** A column by its name ("To do", "In progress"...): a region labelled by its heading. */
  column(name: string): Locator {
    return this.page.getByRole("region", { name, exact: true });
  }

  /** Where cards are dropped in a column: its card list and the space below it. */
  dropArea(column: string): Locator {
    return this.column(column).locator(".board-column-body");
  }

  /** Expects exactly these card titles in a column, top to bottom. */
  async expectTitles(column: string, titles: string[]) {
    await expect(this.column(column).locator(".board-card-title")).toHaveText(titles);
  }

  handle(title: string): Locator {
    return this.page.getByRole("button", { name: `Drag “${title}”`, exact: true });
  }

  card(title: string): Locator {
    return this.page.locator(".board-card", { has: this.page.getByRole("link", { name: title, exact: true }) });
  }

  /** What dnd-kit's live region last told screen readers. */
  get dragAnnouncement(): Locator {
    return this.page.locator("[id^='DndLiveRegion']");
  }

  /** The answer to the next `POST /tasks/{id}/move`. */
  nextMove(): Promise<Response> {
    return this.page.waitForResponse(
      (response) => /\/api\/v1\/tasks\/[^/]+\/move$/.test(response.url()) && response.request().method() === "POST",
    );
  }

  /**
   * Drags a card with the mouse onto `target` (a card or a column), in small steps: dnd-kit only starts a drag
   * after the pointer has moved a few pixels, and follows it by pointer moves. By its handle, or by `grip` (a
   * part of the card that is neither its link nor a button, e.g. its due date).
   */
  async dragWithMouse(title: string, target: Locator, where: "top" | "middle" = "middle", grip?: Locator) {
    const from = await (grip ?? this.handle(title)).boundingBox();
    const to = await target.boundingBox();
    if (!from || !to) throw new Error(`no box to drag "${title}" from or to`);
    const startX = from.x + from.width / 2;
    const startY = from.y + from.height / 2;
    await this.page.mouse.move(startX, startY);
    await this.page.mouse.down();
    await this.page.mouse.move(startX + 12, startY + 12, { steps: 4 });
    await this.page.mouse.move(to.x + to.width / 2, where === "top" ? to.y + 8 : to.y + to.height / 2, { steps: 20 });
    await this.page.mouse.up();
  }

  /** Moves a card with its Move button and one of the choices ("Up one place", "To “Done”"). */
  async moveWithMenu(title: string, choice: string) {
    await this.page.getByRole("button", { name: `Move “${title}”`, exact: true }).click();
    await this.card(title).getByRole("button", { name: choice, exact: true }).click();
  }

  get groupFilter(): Locator {
    return this.page.getByLabel("Group", { exact: true });
  }

  get projectFilter(): Locator {
    return this.page.getByLabel("Project", { exact: true });
  }
}
