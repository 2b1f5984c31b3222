import { randomUUID } from "node:crypto";
import type { Browser } from "@playwright/test";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import { expectAccessible } from "./axe";

/*
 * The notification inbox: the bell in the header counts unread notifications and goes up live when someone else
 * does something that notifies (a collaboration request), its panel lists the newest (Escape closes it, the
 * focus back on the bell), a request is accepted from its notification, which then links to the task; the page
 * /{locale}/notifications lists them all a page at a time and marks one or all read, the bell following. In
 * English on a desktop and in Hebrew on a phone, with axe in light and dark.
 */

const PHONE = { width: 390, height: 844 };

async function register(request: APIRequestContext, name: string, locale = "en") {
  const email = `inbox-${randomUUID()}@example.com`;
  const response = await request.post("/api/v1/auth/register", {
    data: { name, email, password: `pw-${randomUUID()}`, locale, timeZone: "Europe/Prague" },
  });
  expect(response.status()).toBe(201);
  return { email, id: (await response.json()).user.id as string };
}

/** `asker` makes a task and asks `recipientId` to collaborate on it; answers the task's id. */
async function askToCollaborate(asker: APIRequestContext, recipientId: string, title: string): Promise<string> {
  const created = await asker.post("/api/v1/tasks", { data: { title } });
  expect(created.status()).toBe(201);
  const taskId = (await created.json()).id as string;
  const asked = await asker.post(`/api/v1/tasks/${taskId}/collaboration-requests`, {
    data: { kind: "collaborate", userId: recipientId },
  });
  expect(asked.status()).toBe(201);
  return taskId;
}

async function twoPeople(browser: Browser, options: { locale?: string; viewport?: typeof PHONE } = {}) {
  const contexts = await Promise.all([browser.newContext(), browser.newContext({ viewport: options.viewport })]);
  const [alexPage, beaPage] = (await Promise.all(contexts.map((context) => context.newPage()))) as [Page, Page];
  await register(alexPage.request, "Alex Asker");
  const bea = await register(beaPage.request, "Bea Helper", options.locale);
  return { alexPage, beaPage, bea, close: () => Promise.all(contexts.map((context) => context.close())) };
}

const bell = (page: Page) => page.getByTestId("notification-bell");

test("the bell counts live, its panel lists and closes with Escape, a request is accepted from its notification", async ({
  browser,
}) => {
  test.slow(); // two people, a live socket each, many pages and axe runs
  const { alexPage, beaPage, bea, close } = await twoPeople(browser);
  const title = `Water the plants ${randomUUID().slice(0, 8)}`;

  await beaPage.goto("/en/tasks");
  await expect(bell(beaPage)).toHaveAccessibleName("Notifications, none unread");
  await expect(bell(beaPage)).toHaveAttribute("aria-expanded", "false");
  // The bell's socket is up.
  await expect(bell(beaPage)).toHaveAttribute("data-live", "live");

  // Alex asks Bea: her bell goes up without a reload, and the live region says so.
  const taskId = await askToCollaborate(alexPage.request, bea.id, title);
  await expect(bell(beaPage)).toHaveAccessibleName("Notifications, 1 unread");
  await expect(bell(beaPage)).toHaveText("1");
  await expect(beaPage.getByRole("status").filter({ hasText: "1 unread notification" })).toBeAttached();

  // The panel: opened by the button, listed, checked by axe, closed by Escape with the focus back on the bell.
  await bell(beaPage).click();
  await expect(bell(beaPage)).toHaveAttribute("aria-expanded", "true");
  const panel = beaPage.getByRole("region", { name: "Latest notifications" });
  const item = panel.getByRole("listitem").filter({ hasText: "Alex Asker sent you a request" });
  await expect(item).toBeVisible();
  await expect(item.getByText(`Collaboration: ${title}`)).toBeVisible();
  await expect(item.getByText("New")).toBeVisible();
  await expectAccessible(beaPage);
  await beaPage.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(bell(beaPage)).toBeFocused();
  await expect(bell(beaPage)).toHaveAttribute("aria-expanded", "false");

  // Opened by the keyboard; the request is accepted from the notification, which is then read and links to the task.
  await beaPage.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  await item.getByRole("button", { name: "Accept" }).click();
  await expect(item.getByText("Accepted")).toBeVisible();
  await expect(bell(beaPage)).toHaveAccessibleName("Notifications, none unread");
  const request = await beaPage.request.get("/api/v1/collaboration-requests?box=incoming");
  expect((await request.json()).items[0]).toMatchObject({ taskId, state: "accepted" });
  await item.getByRole("link", { name: "Alex Asker sent you a request" }).click();
  await expect(beaPage).toHaveURL(new RegExp(`/en/tasks/${taskId}$`));
  await expect(panel).toBeHidden();

  // Alex hears of it on his bell, live too.
  await alexPage.goto("/en/tasks");
  await expect(bell(alexPage)).toHaveAccessibleName("Notifications, 1 unread");
  await close();
});

test("the notifications page: a page at a time, mark one read and all read, the bell following; axe light and dark", async ({
  browser,
}) => {
  test.slow(); // two people, a live socket each, many pages and axe runs
  const { alexPage, beaPage, bea, close } = await twoPeople(browser);
  const titles: string[] = [];
  for (let n = 1; n <= 21; n++) {
    titles.push(`Chore ${n} ${randomUUID().slice(0, 6)}`);
    await askToCollaborate(alexPage.request, bea.id, titles.at(-1)!);
  }
  await beaPage.goto("/en/notifications");
  await expect(beaPage.getByRole("heading", { level: 1 })).toHaveText("Notifications");
  await expect(bell(beaPage)).toHaveAccessibleName("Notifications, 21 unread");
  const items = beaPage.getByRole("main").getByRole("listitem");
  await expect(items).toHaveCount(20);
  // Newest first; the oldest comes with "Show more".
  await expect(items.first()).toContainText(`Collaboration: ${titles[20]}`);
  await beaPage.getByRole("button", { name: "Show more" }).click();
  await expect(items).toHaveCount(21);
  await expect(items.last()).toContainText(`Collaboration: ${titles[0]}`);
  await expect(beaPage.getByRole("button", { name: "Show more" })).toHaveCount(0);

  for (const scheme of ["light", "dark"] as const) {
    await beaPage.emulateMedia({ colorScheme: scheme });
    await expectAccessible(beaPage);
  }

  // One read: the bell and the page count one fewer.
  const first = items.first();
  await first.getByRole("button", { name: "Mark read" }).click();
  await expect(first.getByText("New")).toHaveCount(0);
  await expect(bell(beaPage)).toHaveAccessibleName("Notifications, 20 unread");
  await expect(beaPage.getByRole("main").getByText("20 unread notifications")).toBeVisible();

  // Another tab of Bea's, the bell only: it follows what this page does.
  const other = await beaPage.context().newPage();
  await other.goto("/en/goals");
  await expect(bell(other)).toHaveAccessibleName("Notifications, 20 unread");
  await expect(bell(other)).toHaveAttribute("data-live", "live");
  await beaPage.getByRole("main").getByRole("button", { name: "Mark all read" }).click();
  await expect(beaPage.getByRole("status").filter({ hasText: "All notifications are marked read." })).toBeAttached();
  await expect(bell(beaPage)).toHaveAccessibleName("Notifications, none unread");
  await expect(bell(other)).toHaveAccessibleName("Notifications, none unread");
  await expect(beaPage.getByRole("main").getByText("New", { exact: true })).toHaveCount(0);
  await close();
});

test("Hebrew on a phone: the bell stays outside the menu, counts live, opens its panel and the page right to left; axe light and dark", async ({
  browser,
}) => {
  test.slow(); // two people, a live socket each, many pages and axe runs
  const { alexPage, beaPage, bea, close } = await twoPeople(browser, { locale: "he", viewport: PHONE });
  await beaPage.goto("/he/tasks");
  await expect(beaPage.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(bell(beaPage)).toBeVisible();
  await expect(bell(beaPage)).toHaveAccessibleName("התראות, אין שלא נקראו");
  await expect(bell(beaPage)).toHaveAttribute("data-live", "live");

  const title = `השקיית עציצים ${randomUUID().slice(0, 6)}`;
  await askToCollaborate(alexPage.request, bea.id, title);
  await expect(bell(beaPage)).toHaveAccessibleName("התראות, 1 שלא נקראה");

  await bell(beaPage).click();
  const panel = beaPage.getByRole("region", { name: "ההתראות האחרונות" });
  const item = panel.getByRole("listitem").filter({ hasText: "Alex Asker" });
  await expect(item).toBeVisible();
  // The panel fits the phone's width.
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  for (const scheme of ["light", "dark"] as const) {
    await beaPage.emulateMedia({ colorScheme: scheme });
    await expectAccessible(beaPage);
  }
  await panel.getByRole("link", { name: "כל ההתראות" }).click();
  await expect(beaPage).toHaveURL(/\/he\/notifications$/);
  await expect(beaPage.getByRole("heading", { level: 1 })).toHaveText("התראות");
  await expect(beaPage.getByRole("main").getByRole("listitem")).toHaveCount(1);
  for (const scheme of ["light", "dark"] as const) {
    await beaPage.emulateMedia({ colorScheme: scheme });
    await expectAccessible(beaPage);
  }
  await beaPage.getByRole("main").getByRole("button", { name: "דחייה" }).click();
  await expect(beaPage.getByRole("main").getByText(/· נדחתה$/)).toBeVisible();
  await expect(bell(beaPage)).toHaveAccessibleName("התראות, אין שלא נקראו");
  await close();
});

test("the security page lists linked accounts (none here) in English on a desktop and Hebrew on a phone; axe light and dark", async ({
  page,
}) => {
  test.slow(); // two languages, two colour schemes, axe on each
  await register(page.request, "Sami Secure");
  for (const [locale, viewport] of [
    ["en", { width: 1280, height: 800 }],
    ["he", PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/${locale}/settings/security`);
    await expect(page.locator("html")).toHaveAttribute("dir", locale === "he" ? "rtl" : "ltr");
    const heading = locale === "en" ? "Linked accounts" : "חשבונות מקושרים";
    const section = page.getByRole("region", { name: heading });
    await expect(section).toBeVisible();
    await expect(
      section.getByText(locale === "en" ? "No external account is linked to yours." : "אין חשבון חיצוני שמקושר לחשבון שלך."),
    ).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectAccessible(page);
    }
  }
  // Coming back from a provider that refused: the reason is shown.
  await page.goto("/en/settings/security?linkError=exists");
  await expect(page.getByRole("alert").filter({ hasText: "already linked to another Spolu account" })).toBeVisible();
});
