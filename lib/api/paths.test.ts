import { describe, expect, test } from "vitest";
import { apiRewrites, toApiPath } from "./paths";

describe("toApiPath", () => {
  test("spec paths at the root map to their /api/v1 twin", () => {
    expect(toApiPath("/auth/login")).toBe("/api/v1/auth/login");
    expect(toApiPath("/tasks")).toBe("/api/v1/tasks");
    expect(toApiPath("/tasks/5/subtasks")).toBe("/api/v1/tasks/5/subtasks");
    expect(toApiPath("/errors/report")).toBe("/api/v1/errors/report");
    expect(toApiPath("/invite/abc/accept")).toBe("/api/v1/invite/abc/accept");
    expect(toApiPath("/healthz")).toBe("/api/v1/healthz");
    expect(toApiPath("/api/v1/chat")).toBe("/api/v1/chat");
  });

  test("pages, the invitation landing page and /docs stay with Next", () => {
    for (const page of ["/", "/en", "/cs/tasks", "/docs", "/invite/abc", "/authors", "/tasksboard", "/_next/static/x.js"]) {
      expect(toApiPath(page), page).toBeNull();
    }
  });
});

test("apiRewrites cover the same aliases for Next", () => {
  const rewrites = apiRewrites();
  expect(rewrites).toContainEqual({ source: "/auth", destination: "/api/v1/auth" });
  expect(rewrites).toContainEqual({ source: "/auth/:rest+", destination: "/api/v1/auth/:rest+" });
  expect(rewrites).toContainEqual({ source: "/invite/:token/accept", destination: "/api/v1/invite/:token/accept" });
  expect(rewrites.find((r) => r.source.startsWith("/docs"))).toBeUndefined();
});
