import { randomInt, randomUUID } from "node:crypto";
import { expectAccessibleInBothThemes } from "./axe";
import { DESKTOP, fill, messagesOf, PHONE } from "./locales";
import { expect, test, type APIRequestContext } from "./fixtures";
import config, { GITHUB_PORT } from "../playwright.config";
import { addVirtualAuthenticator } from "./pages/virtual-authenticator";

/*
 * Linked sign-in methods on the security page, through a stand-in for GitHub (e2e/github-stub-server.ts, the
 * runs' GitHub provider): a person with a password links their GitHub account (the browser goes to "GitHub" and
 * comes back), sees it listed with its address, and unlinks it. A person who signed up with GitHub alone cannot
 * unlink it: it is their only way to sign in, and the page says so; once they add a passkey GitHub can go, and then
 * the passkey is the last way in and cannot be removed. In English on a desktop and in Hebrew (right to left) on a
 * phone, axe in the light and dark themes.
 */

/** Where the provider's callback is (APP_URL), and the same server as localhost, where passkeys work (passkeys.spec.ts). */
const SERVER = new URL(config.use?.baseURL ?? "http://127.0.0.1:3100");
const LOCALHOST = `${SERVER.protocol}//localhost:${SERVER.port}`;

// The stand-in signs in whoever a spec chose last: these tests take turns.
test.describe.configure({ mode: "serial" });

/** The GitHub account that "clicks Authorize" next at the stand-in; answers its address. */
async function githubSignsInAs(request: APIRequestContext, name: string): Promise<string> {
  const email = `octo-${randomUUID()}@example.com`;
  const user = {
    id: randomInt(1, 2 ** 31),
    login: `octo-${randomUUID().slice(0, 8)}`,
    name,
    emails: [{ email, primary: true, verified: true }],
  };
  const answer = await request.post(`http://127.0.0.1:${GITHUB_PORT}/_stub/sign-in-as`, { data: user });
  expect(answer.status()).toBe(204);
  return email;
}

for (const [locale, dir, viewport] of [
  ["en", "ltr", DESKTOP],
  ["he", "rtl", PHONE],
] as const) {
  test(`linked accounts (${locale}, ${viewport.width}×${viewport.height}): link GitHub through the provider, listed with its address, unlink`, async ({
    page,
  }) => {
    test.slow(); // two trips through the provider, axe in two themes twice
    const t = messagesOf(locale).LinkedAccounts;
    await page.setViewportSize(viewport);
    const registered = await page.request.post("/api/v1/auth/register", {
      data: { name: "Lina Link", email: `link-${randomUUID()}@example.com`, password: `pw-${randomUUID()}`, locale },
    });
    expect(registered.status()).toBe(201);
    const githubEmail = await githubSignsInAs(page.request, "Lina on GitHub");

    await page.goto(`/${locale}/settings/security`);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    const section = page.getByRole("region", { name: t.title });
    await expect(section.getByText(t.empty)).toBeVisible();
    await section.getByRole("button", { name: fill(t.link, { provider: "GitHub" }) }).click();

    // Back from the provider: linked to this account, listed with the address GitHub gave.
    await expect(page).toHaveURL(new RegExp(`/${locale}/settings/security\\?linked=github$`));
    await expect(section.getByRole("status")).toHaveText(fill(t.linked, { provider: "GitHub" }));
    const item = section.getByRole("listitem", { name: "GitHub" });
    await expect(item).toContainText(githubEmail);
    await expect(section.getByText(t.empty)).toHaveCount(0);
    await expectAccessibleInBothThemes(page);
    const listed = await page.request.get("/api/v1/auth/identities");
    expect((await listed.json()).items).toEqual([expect.objectContaining({ provider: "github", email: githubEmail })]);

    // The password remains a way in: GitHub can go.
    await item.getByRole("button", { name: t.unlink }).click();
    await expect(section.getByRole("status")).toHaveText(fill(t.unlinked, { provider: "GitHub" }));
    await expect(section.getByText(t.empty)).toBeVisible();
    expect((await (await page.request.get("/api/v1/auth/identities")).json()).items).toEqual([]);
  });

  test(`signed up with GitHub alone (${locale}, ${viewport.width}×${viewport.height}): unlinking it is refused, it stays listed`, async ({
    page,
  }) => {
    test.slow();
    const { LinkedAccounts: t, SignIn: signIn } = messagesOf(locale);
    await page.setViewportSize(viewport);
    const githubEmail = await githubSignsInAs(page.request, "Gil GitHub");

    // "Continue with GitHub" on the sign-in page makes an account without a password.
    await page.goto(`/${locale}/sign-in`);
    await page.getByRole("link", { name: fill(signIn.continueWith, { provider: "GitHub" }) }).click();
    await expect(page).not.toHaveURL(/sign-in/);
    const me = await (await page.request.get("/api/v1/auth/me")).json();
    expect(me.email).toBe(githubEmail);

    await page.goto(`/${locale}/settings/security`);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    const section = page.getByRole("region", { name: t.title });
    const item = section.getByRole("listitem", { name: "GitHub" });
    await expect(item).toContainText(githubEmail);
    await item.getByRole("button", { name: t.unlink }).click();
    await expect(section.getByRole("alert")).toHaveText(fill(t.errorLastMethod, { provider: "GitHub" }));
    await expect(item).toBeVisible();
    await expectAccessibleInBothThemes(page);
    await page.reload();
    await expect(section.getByRole("listitem", { name: "GitHub" })).toBeVisible();
  });
}

test.describe("on localhost, where passkeys work", () => {
  test.use({ baseURL: LOCALHOST, viewport: PHONE });

  test("signed up with GitHub (he, phone): a passkey added, GitHub can go; then the passkey is the last way in and stays", async ({
    page,
  }) => {
    test.slow();
    const { LinkedAccounts: t, SignIn: signIn, Security: security } = messagesOf("he");
    const githubEmail = await githubSignsInAs(page.request, "Pnina Passkey");

    // Signed up with GitHub where its callback returns (the server's own address), then the same session here.
    await page.goto(`${SERVER.origin}/he/sign-in`);
    await page.getByRole("link", { name: fill(signIn.continueWith, { provider: "GitHub" }) }).click();
    await expect(page).not.toHaveURL(/sign-in/);
    const session = (await page.context().cookies(SERVER.origin)).find((cookie) => cookie.name === "spolu_session");
    expect(session).toBeDefined();
    await page.context().addCookies([{ name: session!.name, value: session!.value, url: LOCALHOST }]);
    expect((await (await page.request.get("/api/v1/auth/me")).json()).email).toBe(githubEmail);

    await addVirtualAuthenticator(page);
    await page.goto("/he/settings/security");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    const passkeys = page.locator("section", { has: page.locator("#passkeys-title") });
    await page.getByRole("button", { name: security.addSubmit }).click();
    await expect(passkeys.getByRole("listitem")).toHaveCount(1);
    const [device] = (await (await page.request.get("/api/v1/webauthn/devices")).json()).items as { name: string }[];

    // The passkey is a way in: GitHub can be unlinked.
    const linked = page.getByRole("region", { name: t.title });
    await linked.getByRole("listitem", { name: "GitHub" }).getByRole("button", { name: t.unlink }).click();
    await expect(linked.getByRole("status")).toHaveText(fill(t.unlinked, { provider: "GitHub" }));
    await expect(linked.getByText(t.empty)).toBeVisible();

    // Now the passkey is the only way in: removing it is refused, and it stays.
    const item = passkeys.getByRole("listitem").filter({ hasText: device!.name });
    await item.getByRole("button", { name: security.remove }).click();
    await item.getByRole("button", { name: security.removeConfirm }).click();
    await expect(item.getByRole("alert")).toHaveText(fill(security.errorLastMethod, { name: device!.name }));
    await expectAccessibleInBothThemes(page);
    await page.reload();
    await expect(passkeys.getByRole("listitem")).toHaveCount(1);
    expect((await (await page.request.get("/api/v1/webauthn/devices")).json()).items).toHaveLength(1);
  });
});
