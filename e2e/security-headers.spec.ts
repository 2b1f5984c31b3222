import { randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { APIResponse } from "@playwright/test";
import { expect, test } from "./fixtures";
import { DocsPage, RENDER_TIMEOUT } from "./pages/docs-page";

/*
 * The security headers of every page route, generated from the page files under app/ (a page added later is in the
 * list without anyone adding it): a Content-Security-Policy with a fresh nonce per answer and no 'unsafe-inline' or
 * 'unsafe-eval' for scripts, framing denied twice over (frame-ancestors and X-Frame-Options), nosniff and a
 * Referrer-Policy; whoever asks (signed out, signed in) and whatever the answer (the page, a redirect to sign in, a
 * 404). No HSTS here: APP_URL is http in the tests (the https case: tests/integration/api-conventions.test.ts and
 * lib/api/page-headers.test.ts). The nonce in the header is the one on the page's scripts.
 */

const APP = path.join(process.cwd(), "app");

/**
 * Every page route under app/: its path with `[param]` segments, from each page.tsx (route groups and api/ aside).
 * A parallel route's slot (`@panel`) is left out: it renders beside its siblings at their own addresses, which are
 * listed, and its intercepting routes (`(.)tasks`) have no address of their own.
 */
function pageRoutes(dir = APP, prefix = ""): string[] {
  const routes: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry === "api" || entry.startsWith("@")) continue;
      routes.push(...pageRoutes(full, /^\(.*\)$/.test(entry) ? prefix : `${prefix}/${entry}`));
    } else if (entry === "page.tsx") {
      routes.push(prefix || "/");
    }
  }
  return routes;
}

/** A concrete URL for a route: each dynamic segment filled with a value of its kind. */
function concrete(route: string, locale: string): string {
  return route
    .replace("[locale]", locale)
    .replace("[...rest]", "no-such-page/here")
    .replace("[weekStart]", "2025-01-06")
    .replace("[token]", "not-a-real-invitation-token")
    .replace(/\[\w+\]/g, randomUUID());
}

function expectPageHeaders(response: APIResponse, where: string) {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  const directives = Object.fromEntries(
    csp.split(";").map((directive) => {
      const [name = "", ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );
  expect(directives["script-src"], `${where}: script-src`).toEqual(expect.arrayContaining(["'strict-dynamic'"]));
  expect(
    directives["script-src"]?.some((value: string) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(value)),
    where,
  ).toBe(true);
  expect(directives["script-src"], where).not.toContain("'unsafe-inline'");
  expect(directives["script-src"], where).not.toContain("'unsafe-eval'");
  expect(directives["object-src"], where).toEqual(["'none'"]);
  expect(directives["base-uri"], where).toEqual(["'none'"]);
  expect(directives["frame-ancestors"], where).toEqual(["'none'"]);
  expect(headers["x-frame-options"], where).toBe("DENY");
  expect(headers["x-content-type-options"], where).toBe("nosniff");
  expect(headers["referrer-policy"], where).toMatch(/^(strict-origin-when-cross-origin|no-referrer)$/);
  expect(headers["strict-transport-security"], `${where}: HSTS only with an https APP_URL`).toBeUndefined();
  expect(headers["x-powered-by"], where).toBeUndefined();
  return directives;
}

test("the page routes are found in app/", () => {
  const routes = pageRoutes();
  expect(routes).toEqual(expect.arrayContaining(["/[locale]", "/[locale]/settings/security", "/docs", "/invite/[token]"]));
  expect(routes.length).toBeGreaterThan(20);
});

test("every page route, signed out and signed in, in two languages: the headers, whatever the answer", async ({ request }) => {
  const urls = [
    ...pageRoutes().flatMap((route) =>
      route.includes("[locale]") ? ["en", "he"].map((locale) => concrete(route, locale)) : [concrete(route, "en")],
    ),
    "/",
    "/no-such-page",
  ];
  const checked: string[] = [];
  for (const signedIn of [false, true]) {
    if (signedIn) {
      const registered = await request.post("/auth/register", {
        data: { email: `headers-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` },
      });
      expect(registered.status()).toBe(201);
    }
    for (const url of urls) {
      const response = await request.get(url, { maxRedirects: 0 });
      expect(response.status(), url).toBeLessThan(500);
      expectPageHeaders(response, `${url} (${signedIn ? "signed in" : "signed out"}: ${response.status()})`);
      checked.push(url);
    }
  }
  expect(checked.length).toBeGreaterThan(40);
});

test("each answer has its own nonce, and the page's scripts carry it", async ({ request }) => {
  const nonces = new Set<string>();
  for (const url of ["/en", "/en", "/docs", "/en/sign-in"]) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    const directives = expectPageHeaders(response, url);
    const nonce = (directives["script-src"] as string[]).find((value) => value.startsWith("'nonce-"))!.slice(7, -1);
    nonces.add(nonce);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length, url).toBeGreaterThan(0);
    for (const script of scripts) expect(script, url).toContain(`nonce="${nonce}"`);
  }
  expect(nonces.size).toBe(4);
});

test("the pages work under the policy: no violation while using them (the fixture fails on any)", async ({ page }) => {
  test.setTimeout(3 * RENDER_TIMEOUT);
  await page.goto("/en");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Swagger UI renders the document and opens an operation under the same policy.
  const docs = new DocsPage(page);
  await docs.goto();
  await docs.openTag("Account");
  const me = await docs.expand("get", "/api/v1/auth/me");
  await expect(me.locator(".responses-table")).toContainText("401");
});

test("a page cannot be framed by another site", async ({ page, cspViolations }, testInfo) => {
  // A page that is not ours (about:blank) frames the home page: the browser refuses to show it.
  await page.setContent(`<iframe src="${new URL("/en", testInfo.project.use.baseURL)}"></iframe>`);
  await expect.poll(() => cspViolations.filter((text) => /frame-ancestors/.test(text)).length).toBeGreaterThan(0);
  // That refusal is the point here, not a page breaking its own policy.
  cspViolations.splice(0);
});

test("a malformed % in a page path is a 400 problem, not a plain-text 500", async ({ request }) => {
  for (const url of ["/%", "/en/tasks/%E0%A4%A"]) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(400);
    expect(response.headers()["content-type"]).toMatch(/^application\/problem\+json/);
    expect((await response.json()).code).toBe("bad_request");
  }
});
