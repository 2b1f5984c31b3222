import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { SettingsPage } from "./pages/settings-page";
import { SignInPage } from "./pages/sign-in-page";
import { collectErrors } from "./page-errors";

/*
 * The settings pages: a user registered through the API signs in on /en/sign-in, edits the profile (kept after a
 * reload), switches to Czech (the page moves to /cs/...), downloads the data export (a ZIP) and deletes the account, after
 * which the password signs in no more.
 */

test("settings: profile, language, export and deleting the account", async ({ page, request }) => {
  const errors = collectErrors(page);
  const signIn = new SignInPage(page);
  const settings = new SettingsPage(page);
  const account = { name: "Jana Settings", email: `settings-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };

  // Registered through the API (its own request context: the browser is not signed in by it).
  const registered = await request.post("/api/v1/auth/register", {
    data: { ...account, locale: "en", timeZone: "Europe/Prague" },
  });
  expect(registered.status()).toBe(201);

  // Signed out, the settings send the visitor to sign in, and back afterwards.
  await settings.goto();
  await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Fsettings$/);
  await signIn.signInWithPassword(account.email, account.password);
  await expect(page).toHaveURL(/\/en\/settings$/);
  await expect(settings.heading).toHaveText("Settings");
  await expect(page.getByRole("link", { name: /^Security/ })).toHaveAttribute("href", "/en/settings/security");

  // The profile: a new name and time zone, kept after a reload.
  await page.getByRole("link", { name: /^Profile/ }).click();
  await expect(page).toHaveURL(/\/en\/settings\/profile$/);
  await expect(settings.heading).toHaveText("Profile");
  await expect(settings.nameField).toHaveValue(account.name);
  await expect(settings.timeZoneField).toHaveValue("Europe/Prague");
  await settings.saveProfile({ name: "Jana Renamed", timeZone: "Asia/Tokyo" });
  await expect(settings.status.filter({ hasText: "Your profile was saved." })).toBeVisible();
  await page.reload();
  await expect(settings.nameField).toHaveValue("Jana Renamed");
  await expect(settings.timeZoneField).toHaveValue("Asia/Tokyo");

  // An empty name is refused next to the field.
  await settings.saveProfile({ name: " " });
  await expect(settings.profileCard.getByRole("alert").filter({ hasText: "Enter a name of 1 to 100 characters." })).toBeVisible();
  await expect(settings.nameField).toHaveAttribute("aria-invalid", "true");

  // Czech: the page moves to /cs/settings/profile and speaks Czech.
  await page.reload();
  await settings.saveProfile({ language: "cs" });
  await expect(page).toHaveURL(/\/cs\/settings\/profile$/);
  await expect(settings.heading).toHaveText("Profil");
  await expect(page.getByLabel("Vaše jméno", { exact: true })).toHaveValue("Jana Renamed");
  await expect(page.getByLabel("Jazyk", { exact: true })).toHaveValue("cs");
  await expect(page.locator("html")).toHaveAttribute("lang", "cs");

  // The export downloads as a ZIP holding the JSON.
  await settings.goto("account");
  await expect(settings.heading).toHaveText("Account data");
  const [download] = await Promise.all([page.waitForEvent("download"), settings.exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^spolu-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = readFileSync(await download.path());
  expect(zip.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
  expect(zip.includes(Buffer.from("export.json"))).toBe(true);

  // A wrong password deletes nothing and says so.
  await settings.deleteAccount(`wrong-${randomUUID()}`);
  await expect(settings.deleteCard.getByRole("alert").filter({ hasText: "The password is wrong" })).toBeVisible();
  expect((await page.request.get("/api/v1/auth/me")).status()).toBe(200);

  // The right one deletes the account and leads home; signing in again fails.
  await settings.deleteAccount(account.password);
  await expect(page).toHaveURL(/\/en$/);
  expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);
  await signIn.goto();
  await signIn.signInWithPassword(account.email, account.password);
  await expect(signIn.alert.filter({ hasText: "Wrong email or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/en\/sign-in$/);
  expect(
    (await request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } })).status(),
  ).toBe(401);

  expect(errors).toEqual([]);
});

test("every settings page passes axe, in English and in Hebrew", async ({ page }) => {
  // Axe on every settings page twice: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const account = { name: "Axe Settings", email: `axe-settings-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const registered = await page.request.post("/api/v1/auth/register", {
    data: { ...account, locale: "en", timeZone: "Europe/Prague" },
  });
  expect(registered.status()).toBe(201);
  for (const locale of ["en", "he"]) {
    for (const section of ["profile", "account", "security", "notifications", "webhooks"]) {
      await page.goto(`/${locale}/settings/${section}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectAccessible(page);
    }
  }
});
