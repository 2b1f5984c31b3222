import { describe, expect, test } from "vitest";
import { contentSecurityPolicy, newNonce, pageSecurityHeaders } from "./page-headers";

const base = { nonce: "bm9uY2Utb2YtdGhpcy1yZXF1ZXN0", host: "spolu.example", development: false };

describe("page security headers", () => {
  test("the script policy: this request's nonce, strict-dynamic, never unsafe-inline; eval only in development", () => {
    const csp = contentSecurityPolicy({ ...base, appUrl: "http://localhost:3000" });
    const scripts = csp.split("; ").find((directive) => directive.startsWith("script-src "))!;
    expect(scripts).toBe(`script-src 'self' 'nonce-${base.nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("connect-src 'self' ws://spolu.example wss://spolu.example");
    expect(contentSecurityPolicy({ ...base, appUrl: undefined, development: true })).toContain("'unsafe-eval'");
  });

  test("HSTS and upgrade-insecure-requests only when APP_URL is https", () => {
    const plain = new Map(pageSecurityHeaders({ ...base, appUrl: "http://localhost:3000" }));
    expect(plain.has("Strict-Transport-Security")).toBe(false);
    expect(plain.get("Content-Security-Policy")).not.toContain("upgrade-insecure-requests");
    const secure = new Map(pageSecurityHeaders({ ...base, appUrl: "https://spolu.example" }));
    expect(secure.get("Strict-Transport-Security")).toBe("max-age=31536000");
    expect(secure.get("Content-Security-Policy")).toContain("upgrade-insecure-requests");
    expect(secure.get("X-Frame-Options")).toBe("DENY");
    expect(secure.get("X-Content-Type-Options")).toBe("nosniff");
  });

  test("each nonce is new: 16 random bytes", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
