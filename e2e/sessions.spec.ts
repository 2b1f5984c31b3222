import { randomUUID } from "node:crypto";
import { request } from "@playwright/test";
import { expect, test, type APIRequestContext } from "./fixtures";
import config from "../playwright.config";
import { expectAccessible } from "./axe";
import { SecurityPage } from "./pages/security-page";

/*
 * Where the user is signed in, on the security settings: this browser and a phone that signed in too are listed
 * with their device, address and times; signing the phone out from here stops its token at once; signing this
 * browser out from the list goes to the sign-in page. In English and in Hebrew (right to left).
 */

const BASE_URL = config.use?.baseURL ?? "http://127.0.0.1:3100";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Registers in the page's browser (its cookie) and signs the same account in on "a phone" (another client). */
async function browserAndPhone(page: import("@playwright/test").Page, locale: "en" | "he") {
  const account = { email: `sessions-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, name: "Noa Levi", locale };
  expect((await page.request.post("/auth/register", { data: account })).status()).toBe(201);
  const phone: APIRequestContext = await request.newContext({ baseURL: BASE_URL, userAgent: IPHONE });
  const signedIn = await phone.post("/auth/login", { data: { email: account.email, password: account.password } });
  expect(signedIn.status()).toBe(200);
  const token = (await signedIn.json()).token as string;
  const phoneMe = async () => (await phone.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status();
  expect(await phoneMe()).toBe(200);
  return { phone, phoneMe };
}

test("the sessions in English: both devices listed, the phone signed out from here stops working", async ({ page }) => {
  const { phone, phoneMe } = await browserAndPhone(page, "en");
  const security = new SecurityPage(page);
  await security.goto("en");
  await expect(security.sessionsCard.getByRole("heading", { level: 2 })).toHaveText("Where you are signed in");
  await expect(security.sessions).toHaveCount(2);

  const thisBrowser = security.sessions.filter({ hasText: "This browser" });
  await expect(thisBrowser).toHaveCount(1);
  await expect(thisBrowser).toContainText("new account");
  await expect(thisBrowser).toContainText("127.0.0.1");

  const iphone = security.session("Safari 17 on iOS 17.5");
  await expect(iphone).toContainText("password");
  await expect(iphone).not.toContainText("This browser");
  await expectAccessible(page);

  await iphone.getByRole("button", { name: "End session" }).click();
  await expect(security.sessionsCard.getByRole("status")).toHaveText("The session on Safari 17 on iOS 17.5 was ended.");
  await expect(security.sessions).toHaveCount(1);
  expect(await phoneMe()).toBe(401);
  await phone.dispose();

  // After a reload the list is the same: the phone's session ended for good.
  await page.reload();
  await expect(security.sessions).toHaveCount(1);
  await expect(security.sessions.first()).toContainText("This browser");
});

test("the sessions in Hebrew, right to left: signing this browser out goes to the sign-in page", async ({ page }) => {
  const { phone, phoneMe } = await browserAndPhone(page, "he");
  const security = new SecurityPage(page);
  await security.goto("he");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(security.sessionsCard.getByRole("heading", { level: 2 })).toHaveText("איפה את/ה מחובר/ת");
  await expect(security.sessions).toHaveCount(2);
  await expect(security.session("Safari 17 ב־iOS 17.5")).toContainText("סיסמה");
  await expectAccessible(page);

  const current = security.sessions.filter({ hasText: "הדפדפן הזה" });
  await current.getByRole("button", { name: "ניתוק" }).click();
  await expect(page).toHaveURL(/\/he\/sign-in/);
  // Only this browser was signed out: the phone goes on.
  expect(await phoneMe()).toBe(200);
  expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);
  await phone.dispose();
});
