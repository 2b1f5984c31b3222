import { expect, test } from "vitest";
import { isLocalizedPath, localeOfPath } from "./localized-paths";

test.each(["/", "/en", "/he/settings", "/tasks-overview", "/documents"])("%s gets a locale", (pathname) => {
  expect(isLocalizedPath(pathname)).toBe(true);
});

test.each([
  "/api/v1/auth/me",
  "/auth/login",
  "/healthz",
  "/openapi.json",
  "/invite/abc123/accept",
  "/invite/abc123",
  "/docs",
  "/docs/anything",
  "/_next/static/chunks/main.js",
  "/favicon.ico",
  "/ws/",
])("%s passes through", (pathname) => {
  expect(isLocalizedPath(pathname)).toBe(false);
});

test.each([
  ["/ua", "ua"],
  ["/ua/tasks", "ua"],
  ["/he/", "he"],
  ["/uk", null],
  ["/", null],
  ["/english", null],
  ["/docs", null],
] as const)("localeOfPath(%s) is %s", (pathname, locale) => {
  expect(localeOfPath(pathname)).toBe(locale);
});
