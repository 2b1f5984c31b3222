import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { collectErrors } from "./page-errors";

/*
 * /{locale}/settings/calendar: reached from the settings home; a calendar link is made and shown once (copied to the
 * clipboard, gone after a reload); the link serves an iCalendar file with the user's task; revoking it (after a
 * confirmation) makes the link answer 404. In Hebrew the page is right-to-left and the link stays left-to-right.
 */

test("calendar settings: create a link shown once, copy it, subscribe, revoke", async ({ page, context }) => {
  const errors = collectErrors(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const account = { name: "Cal Endar", email: `calendar-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  expect(
    (
      await page.request.post("/api/v1/auth/register", { data: { ...account, locale: "en", timeZone: "Europe/Prague" } })
    ).status(),
  ).toBe(201);
  expect((await page.request.post("/api/v1/tasks", { data: { title: "Dentist", dueAt: "2026-12-01T08:00:00Z" } })).status()).toBe(
    201,
  );

  await page.goto("/en/settings");
  await page.getByRole("link", { name: /^Calendar feed/ }).click();
  await expect(page).toHaveURL(/\/en\/settings\/calendar$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Calendar feed");
  await expect(page.getByText("Europe/Prague")).toBeVisible();
  const list = page.locator("section", { has: page.locator("#calendar-list-title") });
  await expect(list.getByText("You have no calendar links yet.")).toBeVisible();

  await page.getByLabel("Name (optional)").fill("Phone");
  await page.getByRole("button", { name: "Create link" }).click();
  const address = page.getByLabel("Calendar link", { exact: true });
  await expect(address).toHaveValue(/\/calendar\/[\w-]{43}\.ics$/);
  await expect(page.getByRole("heading", { name: "Your calendar link", exact: true })).toBeFocused();
  const url = await address.inputValue();
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Done", exact: true }).click();
  await expect(address).toHaveCount(0);

  // A calendar app fetches it without the session.
  const feed = await page.request.fetch(url, { headers: { Cookie: "" } });
  expect(feed.status()).toBe(200);
  const text = await feed.text();
  expect(text).toContain("SUMMARY:Dentist");
  expect(text).toContain("DTSTART;TZID=Europe/Prague:20261201T090000");

  await page.reload();
  expect(await page.content()).not.toContain(url.split("/").at(-1)!);
  const item = list.getByRole("listitem").filter({ hasText: "Phone" });
  await expect(item).toContainText("last fetched");

  page.once("dialog", (dialog) => void dialog.accept());
  await item.getByRole("button", { name: "Revoke" }).click();
  await expect(list.getByRole("status")).toHaveText('"Phone" was revoked.');
  await expect(list.getByText("You have no calendar links yet.")).toBeVisible();
  expect((await page.request.fetch(url)).status()).toBe(404);

  await page.goto("/he/settings/calendar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expectAccessible(page);
  expect(errors).toEqual([]);
});
