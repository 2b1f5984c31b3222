import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "./fixtures";
import config from "../playwright.config";
import { expectAccessible } from "./axe";
import { SecurityPage } from "./pages/security-page";
import { addVirtualAuthenticator } from "./pages/virtual-authenticator";
import { registerUser } from "./pages/tasks-page";
import { SignInPage } from "./pages/sign-in-page";
import { collectErrors } from "./page-errors";

/*
 * The sign-in page and the security settings with passkeys, in Chromium with its virtual authenticator (a platform
 * authenticator with user verification, driven through the DevTools protocol): register, sign in with the password,
 * add a device, sign out, sign in with it, rename it and remove it.
 *
 * Browsers refuse an IP address as a WebAuthn relying party ("This is an invalid domain"), so these tests open the
 * site as http://localhost:<port>, and the server must take that as its relying party: WEBAUTHN_RP_ID=localhost
 * and WEBAUTHN_ORIGINS=http://localhost:<port> (see playwright.config.ts).
 */

const SERVER = new URL(config.use?.baseURL ?? "http://127.0.0.1:3100");
const LOCALHOST = `${SERVER.protocol}//localhost:${SERVER.port}`;

/** The English text the page shows for each device label the API returns. */
const LABEL_TEXT: Record<string, string> = {
  face: "Face recognition",
  touch: "Touch recognition",
  android_fingerprint: "Android fingerprint",
  windows_hello: "Windows Hello",
  generic: "Security key or passkey",
};

interface Device {
  id: string;
  name: string;
  label: string;
  lastUsedAt: string | null;
}

async function devicesOf(page: Page): Promise<Device[]> {
  const response = await page.request.get("/api/v1/webauthn/devices");
  expect(response.status()).toBe(200);
  return (await response.json()).items;
}

test.describe("passkeys on localhost", () => {
  test.use({ baseURL: LOCALHOST });

  test("register, sign in with the password, add a device, sign in with it, rename and remove it", async ({ page }) => {
    const errors = collectErrors(page);
    const signIn = new SignInPage(page);
    const security = new SecurityPage(page);
    const account = { name: "Jana Passkey", email: `passkey-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };

    // Signed out, the security settings send the visitor to sign in, and back afterwards: register on the way.
    await security.goto();
    await expect(page).toHaveURL(/\/en\/sign-in\?next=%2Fen%2Fsettings%2Fsecurity$/);
    await signIn.register(account);
    await expect(page).toHaveURL(/\/en\/settings\/security$/);
    await expect(security.heading).toHaveText("Security");
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();

    const options = await page.request.post("/api/v1/webauthn/register/options", { data: {} });
    expect(options.status()).toBe(200);
    const rpId = (await options.json()).rp?.id;
    expect(
      rpId,
      "the server's WebAuthn relying party must be localhost: start it with WEBAUTHN_RP_ID=localhost and WEBAUTHN_ORIGINS=" +
        LOCALHOST,
    ).toBe("localhost");

    // Sign out, then in again with the password on /en/sign-in: the tasks, then the security settings.
    await security.signOut();
    await expect(page).toHaveURL(/\/en\/sign-in$/);
    await signIn.signInWithPassword(account.email, account.password);
    await expect(page).toHaveURL(/\/en\/tasks$/);
    await security.goto();
    await expect(security.heading).toHaveText("Security");
    await expect(security.passkeys).toContainText("You have not added any device yet.");

    // Add this browser's platform authenticator: it is listed with the label the API detected, in words.
    const authenticator = await addVirtualAuthenticator(page);
    await security.addDevice();
    await expect(security.devices).toHaveCount(1);
    const [added] = await devicesOf(page);
    expect(added).toBeDefined();
    expect(Object.keys(LABEL_TEXT)).toContain(added!.label);
    await expect(security.status).toHaveText(`“${added!.name}” was added. You can now sign in with it.`);
    const device = security.device(added!.name);
    await expect(device).toContainText(LABEL_TEXT[added!.label]!);
    await expect(device).toContainText("Not used yet");
    await expect(device.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    expect(await authenticator.credentials()).toHaveLength(1);

    // Sign out: the session is gone.
    await security.signOut();
    await expect(page).toHaveURL(/\/en\/sign-in$/);
    expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);

    // Sign in with biometrics: only the email is typed, the authenticator answers.
    await signIn.signInWithBiometrics(account.email);
    await expect(page).toHaveURL(/\/en\/tasks$/);
    const me = await page.request.get("/api/v1/auth/me");
    expect(me.status()).toBe(200);
    expect((await me.json()).email).toBe(account.email);

    // The device now shows its last use.
    await security.goto();
    await expect(security.heading).toHaveText("Security");
    await expect(device).not.toContainText("Not used yet");
    await expect(device.locator("time")).toHaveCount(2);
    expect((await devicesOf(page))[0]?.lastUsedAt).not.toBeNull();

    // Rename it in place; the name stays after a reload.
    await security.rename(device, "Work laptop");
    await expect(security.status).toHaveText("The device is now called “Work laptop”.");
    const renamed = security.device("Work laptop");
    await expect(renamed).toContainText(LABEL_TEXT[added!.label]!);
    await expect(renamed.getByRole("button", { name: "Rename" })).toBeFocused();
    await page.reload();
    await expect(renamed).toBeVisible();
    expect((await devicesOf(page)).map((item) => item.name)).toEqual(["Work laptop"]);

    // Remove it after confirming; it is gone, also after a reload.
    await security.remove(renamed);
    await expect(security.status).toHaveText("“Work laptop” was removed.");
    await expect(security.devices).toHaveCount(0);
    await expect(security.passkeys).toContainText("You have not added any device yet.");
    await page.reload();
    await expect(security.passkeys).toContainText("You have not added any device yet.");
    expect(await devicesOf(page)).toEqual([]);

    expect(errors).toEqual([]);
  });

  test("removing the only way to sign in is refused in place, in Hebrew, and the passkey stays", async ({ page }) => {
    test.slow(); // two axe runs
    await registerUser(page.request, "Dana Passkey");
    await addVirtualAuthenticator(page);
    const security = new SecurityPage(page);
    await security.goto("he");
    await expect(security.heading).toHaveText("אבטחה");
    await page.getByRole("button", { name: "הוספת מכשיר" }).click();
    await expect(security.devices).toHaveCount(1);
    const [added] = await devicesOf(page);

    // The API's refusal for an account without a password is played here as it answers it (this account has one);
    // e2e/linked-accounts.spec.ts has the real refusal, for an account made with GitHub whose last way in is a passkey.
    await page.route("**/api/v1/webauthn/devices/*", (route) =>
      route.request().method() === "DELETE"
        ? route.fulfill({
            status: 409,
            contentType: "application/problem+json",
            json: { type: "urn:spolu:problem:conflict", title: "Conflict", status: 409, code: "conflict", detail: "only way" },
          })
        : route.fallback(),
    );
    const device = security.device(added!.name);
    await device.getByRole("button", { name: "הסרה" }).click();
    await device.getByRole("button", { name: "כן, להסיר" }).click();
    await expect(device.getByRole("alert")).toHaveText(
      `"${added!.name}" היא הדרך היחידה שלך להתחבר. יש להוסיף קודם מפתח גישה נוסף, חשבון מקושר או סיסמה.`,
    );
    await expect(security.devices).toHaveCount(1);
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: "dark" });
    await expectAccessible(page);
    await page.unroute("**/api/v1/webauthn/devices/*");
    await page.reload();
    await expect(security.device(added!.name)).toBeVisible();
  });

  test("a device cannot sign in with another account's email, and the error is announced", async ({ page, request }) => {
    const other = `other-${randomUUID()}@example.com`;
    expect(
      (await request.post("/api/v1/auth/register", { data: { email: other, password: `pw-${randomUUID()}` } })).status(),
    ).toBe(201);
    const signIn = new SignInPage(page);
    await signIn.goto();

    // No email typed: the page asks for it instead of starting.
    await signIn.card.getByRole("button", { name: "Sign in with biometrics" }).click();
    await expect(signIn.alert).toHaveText("Enter your email address first, then choose “Sign in with biometrics”.");
    await expect(signIn.card.getByLabel("Email", { exact: true })).toBeFocused();
    await expect(signIn.card.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");

    // This browser holds a passkey of one account; signing in as another with it fails, visibly.
    const owner = { email: `owner-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
    await signIn.register({ name: "Owner", ...owner });
    await expect(page).toHaveURL(/\/en\/tasks$/);
    await addVirtualAuthenticator(page);
    const security = new SecurityPage(page);
    await security.goto();
    await security.addDevice("Phone");
    await expect(security.device("Phone")).toBeVisible();
    await security.signOut();
    await expect(page).toHaveURL(/\/en\/sign-in$/);

    await signIn.signInWithBiometrics(other);
    // The browser finds no passkey of that account here and refuses before asking the server.
    await expect(signIn.alert).toHaveText(/^Biometric sign-in did not finish: .*this device holds no passkey for this account/);
    await expect(page).toHaveURL(/\/en\/sign-in$/);
    expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);
  });
});

test("a wrong password is announced, and an outside ?next= is ignored after signing in", async ({ page, request }) => {
  const account = { email: `next-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  expect((await request.post("/api/v1/auth/register", { data: account })).status()).toBe(201);
  const signIn = new SignInPage(page);
  await signIn.goto("en", `?next=${encodeURIComponent("//evil.example/steal")}`);
  await signIn.signInWithPassword(account.email, "not the password");
  await expect(signIn.alert).toHaveText("Wrong email or password.");
  await signIn.signInWithPassword(account.email, account.password);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/en\/tasks$/);

  // Signed in, the sign-in page sends the visitor on to their tasks.
  await signIn.goto();
  await expect(page).toHaveURL(/\/en\/tasks$/);
});

test("the sign-in page renders in Hebrew, right to left", async ({ page }) => {
  const signIn = new SignInPage(page);
  const response = await signIn.goto("he");
  expect(response?.status()).toBe(200);
  expect(await signIn.direction()).toEqual({ lang: "he", dir: "rtl" });
  await expect(signIn.heading).toHaveText("כניסה ל־Spolu");
  await expect(page).toHaveTitle("כניסה · Spolu");
  await expect(signIn.card.getByLabel("דוא״ל", { exact: true })).toBeVisible();
  await expect(signIn.card.getByRole("button", { name: "כניסה בזיהוי ביומטרי" })).toBeVisible();
  // Right to left: the biometrics button's icon comes first, on the right of its text.
  const button = signIn.card.getByRole("button", { name: "כניסה בזיהוי ביומטרי" });
  const icon = await button.locator("svg").boundingBox();
  const text = await button.locator("span").boundingBox();
  expect(icon!.x).toBeGreaterThan(text!.x);
});
