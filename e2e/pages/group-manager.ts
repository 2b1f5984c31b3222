import type { Locator, Page } from "@playwright/test";

/** What the groups manager says, in the languages its tests use. */
export interface ManagerWords {
  manage: string;
  newGroup: string;
  addGroup: string;
  edit: (name: string) => string;
  handle: (name: string) => string;
  saveNames: string;
  archive: (name: string) => string;
  restore: (name: string) => string;
  archivedBadge: string;
  tasksGo: string;
  deleteGroup: (name: string) => string;
  deleteConfirm: string;
}

/** The "Manage groups" part of the task list's sidebar (components/tasks/groups/group-manager.tsx). */
export class GroupManager {
  readonly toggle: Locator;
  readonly list: Locator;
  readonly status: Locator;
  /** What dnd-kit's live region last told screen readers. */
  readonly announcement: Locator;

  constructor(
    readonly page: Page,
    readonly words: ManagerWords,
  ) {
    this.toggle = page.getByRole("button", { name: words.manage, exact: true });
    this.list = page.locator(".group-manager-list");
    this.status = page.locator(".group-manager .group-status");
    this.announcement = page.locator("[id^='DndLiveRegion']");
  }

  /** The names in the manager's list, in order. */
  names(): Promise<string[]> {
    return this.list.locator(".group-manager-name").allTextContents();
  }

  item(name: string): Locator {
    return this.list.locator(".group-manager-item", {
      has: this.page.locator(".group-manager-name", { hasText: new RegExp(`^${name}$`) }),
    });
  }

  handle(name: string): Locator {
    return this.page.getByRole("button", { name: this.words.handle(name), exact: true });
  }

  async create(name: string) {
    await this.page.getByRole("textbox", { name: this.words.newGroup, exact: true }).fill(name);
    await this.page.getByRole("button", { name: this.words.addGroup, exact: true }).click();
  }

  async edit(name: string) {
    await this.page.getByRole("button", { name: this.words.edit(name), exact: true }).click();
  }

  /** Drags a group by its handle with the mouse onto another group's place, in small steps (dnd-kit needs moves). */
  async dragWithMouse(name: string, onto: string) {
    const from = await this.handle(name).boundingBox();
    const to = await this.item(onto).boundingBox();
    if (!from || !to) throw new Error(`no box to drag "${name}" from or to`);
    const x = from.x + from.width / 2;
    const y = from.y + from.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x, y - 10, { steps: 4 });
    await this.page.mouse.move(x, to.y + to.height / 2, { steps: 20 });
    await this.page.mouse.up();
  }
}
