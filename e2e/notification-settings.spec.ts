import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";
import { collectErrors } from "./page-errors";

/*
 * /{locale}/settings/notifications: a user registered through the API signs in, sets the daily summary to 18:30,
 * turns the weekly report off and keeps only email; after a reload the form shows the same, and so does
 * GET /notification-settings. The push section settles on a state (headless Chromium has no push service here,
 * so nothing is subscribed) without errors, and the page in Hebrew is right-to-left.
 */

test("notification settings: summaries kept after a reload, push section, Hebrew right-to-left", async ({ page, request }) => {
  const errors = collectErrors(page);
  const signIn = new SignInPage(page);
  const account = { name: "Nina Notify", email: `notify-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const registered = await request.post("/api/v1/auth/register", {
    data: { ...account, locale: "en", timeZone: "Europe/Prague" },
  });
  expect(registered.status()).toBe(201);

  // Signed out, the page sends the visitor to sign in, and back afterwards.
  await page.goto("/en/settings/notifications");
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Fsettings%2Fnotifications$/);
  await signIn.signInWithPassword(account.email, account.password);
  await expect(page).toHaveURL(/\/en\/settings\/notifications$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notifications");

  // The defaults: 07:00, weekly report on, in the app and by email.
  const summaries = page.locator("section", { has: page.locator("#summaries-title") });
  const time = summaries.getByLabel("Daily summary time", { exact: true });
  const noDaily = summaries.getByLabel("No daily summary", { exact: true });
  const weekly = summaries.getByLabel("Weekly report (Mondays at 08:00)", { exact: true });
  const quiet = summaries.getByLabel("Also after a quiet week", { exact: true });
  const channel = (name: string) => summaries.getByLabel(name, { exact: true });
  await expect(time).toHaveValue("07:00");
  await expect(noDaily).not.toBeChecked();
  await expect(weekly).toBeChecked();
  await expect(quiet).not.toBeChecked();
  await expect(channel("In the app")).toBeChecked();
  await expect(channel("By push notification")).not.toBeChecked();
  await expect(channel("By email")).toBeChecked();

  // Quiet weeks too, then saved and read back.
  await quiet.check();
  await summaries.getByRole("button", { name: "Save settings" }).click();
  await expect(summaries.getByRole("status")).toHaveText("Your notification settings were saved.");
  expect(await (await page.request.get("/api/v1/notification-settings")).json()).toMatchObject({
    weeklyReport: true,
    weeklyReportWhenQuiet: true,
  });
  await page.reload();
  await expect(quiet).toBeChecked();

  // 18:30, no weekly report (quiet weeks cannot be chosen without it), only email.
  await time.fill("18:30");
  await weekly.uncheck();
  await expect(quiet).toBeDisabled();
  await channel("In the app").uncheck();
  await summaries.getByRole("button", { name: "Save settings" }).click();
  await expect(summaries.getByRole("status")).toHaveText("Your notification settings were saved.");

  await page.reload();
  await expect(time).toHaveValue("18:30");
  await expect(weekly).not.toBeChecked();
  await expect(channel("In the app")).not.toBeChecked();
  await expect(channel("By push notification")).not.toBeChecked();
  await expect(channel("By email")).toBeChecked();
  const stored = await page.request.get("/api/v1/notification-settings");
  expect(stored.status()).toBe(200);
  expect(await stored.json()).toMatchObject({
    dailySummaryTime: "18:30",
    weeklyReport: false,
    summaryChannels: ["email"],
    stored: true,
  });

  // No daily summary at all is kept as null.
  await noDaily.check();
  await expect(time).toBeDisabled();
  await summaries.getByRole("button", { name: "Save settings" }).click();
  await expect(summaries.getByRole("status")).toHaveText("Your notification settings were saved.");
  expect(await (await page.request.get("/api/v1/notification-settings")).json()).toMatchObject({ dailySummaryTime: null });
  await page.reload();
  await expect(noDaily).toBeChecked();

  // The push section settles on a state for this browser and lists no device.
  const push = page.locator("section", { has: page.locator("#push-title") });
  await expect(push).toHaveAttribute("data-push-state", /^(off|unsupported|failed)$/);
  await expect(push.getByText("No device gets push notifications yet.")).toBeVisible();
  const state = await push.getAttribute("data-push-state");
  if (state === "off") await expect(push.getByRole("button", { name: "Turn on for this browser" })).toBeVisible();
  else await expect(push.getByText(/cannot receive push|not available on this server|could not be set up/)).toBeVisible();

  // The settings home links here.
  await page.goto("/en/settings");
  await expect(page.getByRole("link", { name: /^Notifications/ })).toHaveAttribute("href", "/en/settings/notifications");

  // Hebrew: right-to-left.
  await page.goto("/he/settings/notifications");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("התראות");
  await expect(page.locator("section", { has: page.locator("#push-title") })).toHaveAttribute(
    "data-push-state",
    /^(off|unsupported|failed)$/,
  );

  expect(errors).toEqual([]);
});
