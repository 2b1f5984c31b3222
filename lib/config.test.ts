import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ConfigError, loadConfig, parseConfig } from "./config";

describe("parseConfig", () => {
  test("defaults give an embedded single-process setup on port 3000", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: "./data", embedded: true, TRUST_PROXY: 0, SERVE_PAGES: true });
  });

  test("an invalid value is refused with a message naming each bad variable", () => {
    expect(() => parseConfig({ PORT: "eighty", REDIS_URL: "http://x", TRUST_PROXY: "maybe" })).toThrow(ConfigError);
    try {
      parseConfig({ PORT: "eighty", REDIS_URL: "http://x", TRUST_PROXY: "maybe" });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/^\s+PORT: /m);
      expect(message).toMatch(/^\s+REDIS_URL: /m);
      expect(message).toMatch(/^\s+TRUST_PROXY: must be true, false or a number/m);
    }
  });

  test("DATABASE_URL without JWT_SECRET is refused, naming JWT_SECRET; an empty value counts as unset", () => {
    expect(() => parseConfig({ DATABASE_URL: "postgres://localhost/spolu", JWT_SECRET: "" })).toThrow(/JWT_SECRET: is required/);
    expect(parseConfig({ DATABASE_URL: "postgres://localhost/spolu", JWT_SECRET: "s".repeat(32) }).embedded).toBe(false);
  });

  test("migrating on PostgreSQL needs no JWT_SECRET (it signs nothing), but other settings are still checked", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://localhost/spolu" }, "migrate").embedded).toBe(false);
    expect(() => parseConfig({ DATABASE_URL: "postgres://localhost/spolu", PORT: "eighty" }, "migrate")).toThrow(/PORT: /);
  });

  test("lists and numbers are parsed: ADMIN_EMAILS normalised, TRUST_PROXY as hops", () => {
    const config = parseConfig({ ADMIN_EMAILS: " Ana@Example.com, ,bo@example.com ", TRUST_PROXY: "2" });
    expect(config.ADMIN_EMAILS).toEqual(["ana@example.com", "bo@example.com"]);
    expect(config.TRUST_PROXY).toBe(2);
    expect(parseConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(1);
  });
});

describe("loadConfig", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  test("in embedded mode generates the JWT secret once, keeps it private in the data directory", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "spolu-config-"));
    dirs.push(dir);
    const first = loadConfig({ DATA_DIR: dir }).JWT_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(loadConfig({ DATA_DIR: dir }).JWT_SECRET).toBe(first);
    expect(readFileSync(path.join(dir, "jwt-secret"), "utf8")).toBe(first);
    expect(statSync(path.join(dir, "jwt-secret")).mode & 0o077).toBe(0);
  });

  test("to migrate, an unset JWT_SECRET is neither required nor generated, and reading it throws", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "spolu-config-"));
    dirs.push(dir);
    const loaded = loadConfig({ DATA_DIR: dir, DATABASE_URL: "postgres://localhost/spolu" }, "migrate");
    expect(loaded.DATABASE_URL).toBe("postgres://localhost/spolu");
    expect(() => loaded.JWT_SECRET).toThrow(ConfigError);
    expect(() => statSync(path.join(dir, "jwt-secret"))).toThrow();
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: "m".repeat(40) }, "migrate").JWT_SECRET).toBe("m".repeat(40));
  });

  test("a configured JWT_SECRET wins and nothing is written", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "spolu-config-"));
    dirs.push(dir);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: "k".repeat(40) }).JWT_SECRET).toBe("k".repeat(40));
    expect(() => statSync(path.join(dir, "jwt-secret"))).toThrow();
  });
});
