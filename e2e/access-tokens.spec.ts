import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { SecurityPage } from "./pages/security-page";

/*
 * Personal access tokens on the security settings: a read-only token is made, its secret shown once in a dialog
 * works as a bearer token (reads, but may not write), the list shows it without the secret, and revoking it stops it
 * at once.
 */

test("make a read-only token, use it, see it listed, revoke it", async ({ page }) => {
  const account = {
    email: `tokens-${randomUUID()}@example.com`,
    password: `pw-${randomUUID()}`,
    name: "Ada Token",
    locale: "en",
  };
  expect((await page.request.post("/auth/register", { data: account })).status()).toBe(201);
  const security = new SecurityPage(page);
  await security.goto("en");
  await expect(security.tokensCard.getByRole("heading", { level: 2 })).toHaveText("Personal access tokens");
  await expect(security.tokensCard).toContainText("You have no personal access tokens.");

  await security.tokensCard.getByLabel("Name").fill("Backup script");
  await security.tokensCard.getByLabel("Read only").check();
  await security.tokensCard.getByLabel("Expires after").selectOption({ label: "30 days" });
  await security.tokensCard.getByRole("button", { name: "Make a token" }).click();

  await expect(security.tokenDialog).toBeVisible();
  await expect(security.tokenDialog.getByRole("heading")).toHaveText("Your new token “Backup script”");
  const secret = await security.tokenDialog.getByLabel("Token").inputValue();
  expect(secret).toMatch(/^spolu_pat_[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page);

  // The secret works as a bearer token, within its scope.
  const bearer = { Authorization: `Bearer ${secret}` };
  const me = await page.request.get("/api/v1/auth/me", { headers: bearer });
  expect(me.status()).toBe(200);
  expect((await me.json()).email).toBe(account.email);
  expect((await page.request.post("/api/v1/tasks", { headers: bearer, data: { title: "No" } })).status()).toBe(403);

  await security.tokenDialog.getByRole("button", { name: "Done" }).click();
  await expect(security.tokenDialog).toBeHidden();
  const listed = security.token("Backup script");
  await expect(listed).toContainText("Read only");
  await expect(listed).toContainText(secret.slice(0, 14));
  await expect(security.tokensCard).not.toContainText(secret);

  // After a reload the secret is nowhere on the page; the token is still listed, now used once.
  await page.reload();
  await expect(security.token("Backup script")).toBeVisible();
  await expect(page.locator("body")).not.toContainText(secret);

  await security.token("Backup script").getByRole("button", { name: "Revoke" }).click();
  await expect(security.tokensCard.getByRole("status")).toHaveText("The token “Backup script” was revoked. It no longer works.");
  await expect(security.tokens).toHaveCount(0);
  expect((await page.request.get("/api/v1/auth/me", { headers: bearer })).status()).toBe(401);
});
