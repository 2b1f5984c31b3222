import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { DocsPage, RENDER_TIMEOUT } from "./pages/docs-page";

// Two page loads and two resolved operations per test at most, each waited for up to RENDER_TIMEOUT.
test.describe.configure({ timeout: 3 * RENDER_TIMEOUT });

test("/docs lists the API's areas collapsed; opening Account shows its operations", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.goto();
  await expect(page).toHaveTitle("Spolu API");
  await expect(docs.title).toContainText("Spolu API");
  for (const tag of ["Account", "Tasks", "Webhooks", "Admin"]) await expect(docs.tag(tag)).toBeVisible();
  // Collapsed: the first paint draws headings only, not 150 operations.
  await expect(page.locator(".swagger-ui .opblock")).toHaveCount(0);

  await docs.openTag("Account");
  await expect(docs.operation("post", "/api/v1/auth/login")).toBeVisible();
  await expect(docs.operation("get", "/api/v1/auth/me")).toBeVisible();
  await expect(docs.operation("post", "/api/v1/tasks")).toHaveCount(0);

  const me = await docs.expand("get", "/api/v1/auth/me");
  await expect(me.locator(".responses-table")).toContainText("401");
});

test("the filter narrows the list to the matching tags", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.goto();
  await docs.filter.fill("Account");
  await expect(docs.tag("Account")).toBeVisible();
  await expect(docs.tag("Tasks")).toBeHidden();
  await expect(docs.tag("Health")).toBeHidden();
  await docs.filter.fill("");
  await expect(docs.tag("Tasks")).toBeVisible();
});

test("a deep link opens its operation", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.goto("#/Account/getCurrentUser");
  const me = docs.operation("get", "/api/v1/auth/me");
  await expect(me).toHaveClass(/is-open/);
  await expect(me.getByRole("button", { name: "Try it out" })).toBeVisible({ timeout: RENDER_TIMEOUT });
});

test("Authorize with a token, then Try it out on GET /api/v1/auth/me", async ({ page, request }) => {
  const email = `docs-${randomUUID()}@example.com`;
  const registered = await request.post("/api/v1/auth/register", {
    data: { email, password: "correct horse battery staple", name: "Docs Tester" },
  });
  expect(registered.status()).toBe(201);
  const { token } = (await registered.json()) as { token: string };

  const docs = new DocsPage(page);
  await docs.goto();
  await docs.authorize(token);
  const response = await docs.tryOut("Account", "get", "/api/v1/auth/me");
  await expect(response.status).toHaveText(/^\s*200/);
  await expect(response.body).toContainText(email);

  // persistAuthorization: the token survives a reload.
  await docs.goto();
  const again = await docs.tryOut("Account", "get", "/api/v1/auth/me");
  await expect(again.status).toHaveText(/^\s*200/);
  await expect(again.body).toContainText(email);
});

test("without a token, Try it out on GET /api/v1/auth/me answers 401", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.goto();
  const response = await docs.tryOut("Account", "get", "/api/v1/auth/me");
  await expect(response.status).toHaveText(/^\s*401/);
});
