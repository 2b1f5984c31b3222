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

  /**
   * Drags with a finger, as a phone does: a touch on `grip` held still past the board's long-press delay (250 ms),
   * then moved in small steps onto `target` and lifted. Touch events go through the DevTools protocol (Playwright's
   * `touchscreen` only taps). Each point is the middle of the part of its element that is on screen (the board
   * scrolls sideways on a phone), kept away from the screen's edges, where dragging would scroll the board.
   */
  async dragWithTouch(grip: Locator, target: Locator) {
    const viewport = this.page.viewportSize();
    if (!viewport) throw new Error("no viewport to touch");
    const visibleMiddle = async (locator: Locator) => {
      const box = await locator.boundingBox();
      if (!box) throw new Error("nothing to touch");
      const left = Math.max(box.x, viewport.width * 0.25);
      const right = Math.min(box.x + box.width, viewport.width * 0.75);
      const top = Math.max(box.y, 0);
      const bottom = Math.min(box.y + box.height, viewport.height);
      if (left >= right || top >= bottom) throw new Error("the element is not on screen");
      return { x: (left + right) / 2, y: (top + Math.min(bottom, top + 80)) / 2 };
    };
    const from = await visibleMiddle(grip);
    const to = await visibleMiddle(target);
    const cdp = await this.page.context().newCDPSession(this.page);
    try {
      const touch = (type: "touchStart" | "touchMove" | "touchEnd", point?: { x: number; y: number }) =>
        cdp.send("Input.dispatchTouchEvent", { type, touchPoints: point ? [{ x: point.x, y: point.y }] : [] });
      await touch("touchStart", from);
      // Held still past the TouchSensor's 250 ms delay (kanban-board.tsx): the drag starts.
      await this.page.waitForTimeout(400);
      const steps = 20;
      for (let step = 1; step <= steps; step += 1) {
        await touch("touchMove", { x: from.x + ((to.x - from.x) * step) / steps, y: from.y + ((to.y - from.y) * step) / steps });
        await this.page.waitForTimeout(16);
      }
      await touch("touchEnd");
    } finally {
      await cdp.detach();
    }
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
