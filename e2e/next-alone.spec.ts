import { expect, test } from "./fixtures";
import { NEXT_ALONE_PORT } from "../playwright.config";

const base = `http://127.0.0.1:${NEXT_ALONE_PORT}`;

test.describe("Next alone (next start, without server.ts)", () => {
  test("the API answers at the spec's root paths and under /api/v1 through the catch-all route handler", async ({ request }) => {
    expect((await request.get(`${base}/readyz`)).status()).toBe(200);
    const email = `next-alone-${Date.now()}@example.com`;
    const registered = await request.post(`${base}/auth/register`, { data: { email, password: "served by next" } });
    expect(registered.status()).toBe(201);
    const { token } = await registered.json();
    const me = await request.get(`${base}/api/v1/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    expect((await me.json()).email).toBe(email);
    // The register answer also set the session cookie: the root alias accepts it.
    expect((await request.get(`${base}/auth/me`)).status()).toBe(200);
    const problem = await request.get(`${base}/auth/me`, { headers: { Authorization: "Bearer forged" } });
    expect(problem.status()).toBe(401);
    expect(problem.headers()["content-type"]).toMatch(/^application\/problem\+json/);
    expect((await (await request.get(`${base}/openapi.json`)).json()).openapi).toBe("3.1.0");
  });

  test("pages render there too", async ({ page }) => {
    await page.goto(`${base}/cs`);
    await expect(page.locator("html")).toHaveAttribute("lang", "cs");
  });
});
