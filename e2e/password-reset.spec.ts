import { randomUUID } from "node:crypto";
import { expectAccessibleInBothThemes } from "./axe";
import { DESKTOP, fill, messagesOf, PHONE } from "./locales";
import { expect, test, type APIRequestContext } from "./fixtures";
import { waitForMail } from "./mailbox";
import { PasswordResetPages, type ResetWords } from "./pages/password-reset-pages";

/*
 * A forgotten password, as a person goes through it: "Forgot your password?" on the sign-in page, the address, the
 * email (sent by Spolu over SMTP to the runs' mail server, e2e/mail-sink.ts), its link, a new password; then they
 * are signed in, and the sessions they had before are over. In English on a desktop and in Hebrew (right to left) on a
 * phone, with axe on each new page in the light and dark themes. And the email verification: the banner, and the
 * emailed link, in the same two languages and sizes.
 */

const ENGLISH: ResetWords = {
  forgotLink: "Forgot your password?",
  email: "Email",
  send: "Send the link",
  newPassword: "New password",
  save: "Save the new password",
};

const HEBREW: ResetWords = {
  forgotLink: "שכחת את הסיסמה?",
  email: "דוא״ל",
  send: "שליחת הקישור",
  newPassword: "סיסמה חדשה",
  save: "שמירת הסיסמה החדשה",
};

async function register(request: APIRequestContext, locale: string) {
  const account = { email: `reset-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, name: "Rina Reset", locale };
  const response = await request.post("/api/v1/auth/register", { data: account });
  expect(response.status()).toBe(201);
  return { ...account, token: (await response.json()).token as string };
}

for (const [locale, words, dir, viewport] of [
  ["en", ENGLISH, "ltr", DESKTOP],
  ["he", HEBREW, "rtl", PHONE],
] as const) {
  test(`forgot password (${locale}, ${viewport.width}×${viewport.height}): the emailed link sets a new password and signs in; earlier sessions end`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const account = await register(request, locale);
    const reset = new PasswordResetPages(page, words);

    await reset.openFromSignIn(locale);
    await expect(page).toHaveURL(new RegExp(`/${locale}/forgot-password$`));
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    await expectAccessibleInBothThemes(page);

    // A mistyped address is named, then the right one is sent.
    await reset.askForLink("not an address");
    await expect(reset.alert.first()).not.toBeEmpty();
    await reset.askForLink(account.email);
    await expect(reset.status).toContainText(account.email);

    const { match } = await waitForMail(
      account.email,
      new RegExp(`https?://[^\\s/]+/${locale}/reset-password#token=[A-Za-z0-9_-]{43}`),
    );
    await page.goto(match[0]);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    // The token leaves the address bar at once.
    await expect(page).toHaveURL(new RegExp(`/${locale}/reset-password$`));
    await expectAccessibleInBothThemes(page);

    // One of the most common passwords is refused, naming the field; a good one is saved and signs in.
    await reset.saveNewPassword("password123");
    await expect(reset.card.getByLabel(words.newPassword, { exact: true })).toHaveAttribute("aria-invalid", "true");
    const newPassword = `new-${randomUUID()}`;
    await reset.saveNewPassword(newPassword);
    await expect(page).toHaveURL(new RegExp(`/${locale}/tasks$`));

    // The session from before the reset is over; the new password signs in, the old one does not.
    expect((await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${account.token}` } })).status()).toBe(401);
    expect(
      (await request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } })).status(),
    ).toBe(401);
    expect((await request.post("/api/v1/auth/login", { data: { email: account.email, password: newPassword } })).status()).toBe(
      200,
    );

    // The link worked once: opened again, it says so and offers a new one.
    await page.goto(match[0]);
    await reset.saveNewPassword(`again-${randomUUID()}`);
    await expect(reset.alert).not.toBeEmpty();
    await expect(reset.card.getByRole("link")).toHaveAttribute("href", `/${locale}/forgot-password`);
  });
}

const verifyWordsOf = (locale: string) => messagesOf(locale).VerifyEmail;

for (const [locale, dir, viewport] of [
  ["en", "ltr", DESKTOP],
  ["he", "rtl", PHONE],
] as const) {
  test(`email verification (${locale}, ${viewport.width}×${viewport.height}): the banner until the emailed link is followed, and sending the link again`, async ({
    page,
  }) => {
    const t = verifyWordsOf(locale);
    await page.setViewportSize(viewport);
    const account = {
      email: `verify-${randomUUID()}@example.com`,
      password: `pw-${randomUUID()}`,
      name: "Vera Verify",
      locale,
    };
    // Registered in this browser, so that its pages are signed in.
    const registered = await page.request.post("/api/v1/auth/register", { data: account });
    expect(registered.status()).toBe(201);

    await page.goto(`/${locale}/tasks`);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    const banner = page.getByRole("region", { name: t.bannerLabel });
    await expect(banner).toContainText(account.email);
    await expectAccessibleInBothThemes(page);
    await banner.getByRole("button", { name: t.resend }).click();
    await expect(banner.getByRole("status")).toHaveText(fill(t.sent, { email: account.email }));

    const { match } = await waitForMail(
      account.email,
      new RegExp(`https?://[^\\s/]+/${locale}/verify-email#token=[A-Za-z0-9_-]{43}`),
    );
    await page.goto(match[0]);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    const confirmed = fill(t.verified, { email: account.email });
    await expect(page.getByRole("status").filter({ hasText: account.email })).toHaveText(confirmed);
    await expectAccessibleInBothThemes(page);

    await page.goto(`/${locale}/tasks`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(banner).toHaveCount(0);
  });
}
