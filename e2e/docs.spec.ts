import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { DocsPage } from "./pages/docs-page";

// FIXME: since the merges of 2026-11-22 (the OpenAPI document grew to 384 KB) Swagger UI on /docs had rendered only
// the Health operations and the Account tag's heading after 10 s, with no error in the console: too slow, or a
// render that stops. Marked fixme until found; see the stop note of 2026-11-22.

test.fixme("/docs shows the Spolu API with its operations", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.goto();
  await expect(page).toHaveTitle("Spolu API");
  await expect(docs.title).toContainText("Spolu API");
  await expect(docs.operation("post", "/api/v1/auth/login")).toBeVisible();
  await expect(docs.operation("get", "/api/v1/auth/me")).toBeVisible();
});

test.fixme("Authorize with a token, then Try it out on GET /api/v1/auth/me", async ({ page, request }) => {
  const email = `docs-${randomUUID()}@example.com`;
  const registered = await request.post("/api/v1/auth/register", {
    data: { email, password: "correct horse battery staple", name: "Docs Tester" },
  });
  expect(registered.status()).toBe(201);
  const { token } = (await registered.json()) as { token: string };

  const docs = new DocsPage(page);
  await docs.goto();
  await docs.authorize(token);
  const response = await docs.tryOut("get", "/api/v1/auth/me");
  await expect(response.status).toHaveText(/^\s*200/);
  await expect(response.body).toContainText(email);

  // persistAuthorization: the token survives a reload.
  await docs.goto();
  const again = await docs.tryOut("get", "/api/v1/auth/me");
  await expect(again.status).toHaveText(/^\s*200/);
  await expect(again.body).toContainText(email);
});

test.fixme("without a token, Try it out on GET /api/v1/auth/me answers 401", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.goto();
  const response = await docs.tryOut("get", "/api/v1/auth/me");
  await expect(response.status).toHaveText(/^\s*401/);
});
