import type { Locator, Page, Response } from "@playwright/test";

/** The assistant's pages: the chat (`/{locale}/chat`), the briefing (`/briefing`) and the weekly reports (`/reports`). */
export class AssistantPage {
  readonly heading: Locator;
  /** The conversation (role log). */
  readonly log: Locator;
  readonly messageBox: Locator;
  readonly sendButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.log = page.getByRole("log", { name: "Conversation" });
    this.messageBox = page.getByLabel("Your message", { exact: true });
    this.sendButton = page.getByRole("button", { name: "Send", exact: true });
  }

  gotoChat(locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/chat`);
  }

  gotoBriefing(locale = "en", date?: string): Promise<Response | null> {
    return this.page.goto(`/${locale}/briefing${date ? `?date=${date}` : ""}`);
  }

  gotoReports(locale = "en"): Promise<Response | null> {
    return this.page.goto(`/${locale}/reports`);
  }

  /** Asks the assistant (Enter sends). */
  async ask(message: string) {
    await this.messageBox.fill(message);
    await this.messageBox.press("Enter");
  }

  /** The conversation's assistant answers, oldest first. */
  get answers(): Locator {
    return this.log.locator(".chat-message-assistant");
  }

  /** A proposed action in the conversation, by the words it shows. */
  action(text: string | RegExp): Locator {
    return this.log.locator(".chat-action", { hasText: text });
  }

  /** A card of the briefing or a report, by its heading. */
  section(heading: string | RegExp): Locator {
    return this.page.locator(".assistant-card", { has: this.page.getByRole("heading", { level: 2, name: heading }) });
  }
}
