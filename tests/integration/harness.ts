/**
 * Starts a real Spolu server (API, socket and all, without the pages) on a free port, on a fresh copy
 * of the migrated test database, and gives tests an HTTP client and raw SQL access to that database.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { expect, inject } from "vitest";
import type { z } from "zod";
import { loadConfig } from "../../lib/config";
import { taskOutput } from "../../lib/tasks/schema";
import { startServer } from "../../server";
import { TEMPLATE_DATABASE, adminUrl, withAdminClient } from "./postgres";

export const ADMIN_EMAIL = "admin@spolu.test";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as is (for malformed bodies and other content types). */
  body?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  request<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Raw SQL on this server's database, for arranging and checking what the API cannot show. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "spolu-test-"));
  const settings: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_EMAILS: ADMIN_EMAIL,
    // Tests sign up many users from one address; the rate-limit tests set their own numbers.
    AUTH_RATE_LIMIT_POINTS: "10000",
    RATE_LIMIT_POINTS: "100000",
    ...env,
  };
  let pglite: PGlite | undefined;
  let sql: TestServer["sql"];
  let dropDatabase = async () => {};

  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const name = `spolu_test_${randomUUID().replaceAll("-", "")}`;
    await withAdminClient(baseUrl, (client) => client.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
    settings.DATABASE_URL = adminUrl(baseUrl, name);
    settings.REDIS_PREFIX = `spolu-test:${name}:`;
    const pool = new pg.Pool({ connectionString: settings.DATABASE_URL, max: 2 });
    // pool.end() resolves before its connections have closed: dropping the database (with force) may then end
    // one with "terminating connection due to administrator command", which must not be an unhandled error.
    pool.on("connect", (client) => client.on("error", () => {}));
    pool.on("error", () => {});
    sql = async (text, params) => (await pool.query(text, params)).rows;
    dropDatabase = async () => {
      await pool.end();
      await withAdminClient(baseUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    };
  } else {
    delete settings.DATABASE_URL;
    const template = readFileSync(inject("pgliteTemplate"));
    const client = new PGlite({ loadDataDir: new Blob([template]) });
    pglite = client;
    sql = async (text, params) => (await client.query(text, params)).rows as never;
  }

  loadConfig(settings);
  const server = await startServer({ port: 0, hostname: "127.0.0.1", pages: false, pglite, jobs: false });

  return {
    url: server.url,
    sql,
    async request(requestPath, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      let body = options.body;
      if (options.json !== undefined) {
        headers["Content-Type"] ??= "application/json";
        body = JSON.stringify(options.json);
      }
      const response = await fetch(server.url + requestPath, {
        method: options.method ?? (body === undefined ? "GET" : "POST"),
        headers,
        body,
      });
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      return { status: response.status, headers: response.headers, body: type.includes("json") ? JSON.parse(text) : text };
    },
    async close() {
      await server.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers a fresh user (unique email) and answers its token and details. */
export async function registerUser(server: TestServer, overrides: Record<string, unknown> = {}) {
  const email = `user-${randomUUID()}@example.com`;
  const password = `pw-${randomUUID()}`;
  const response = await server.request("/auth/register", { json: { email, password, name: "Test User", ...overrides } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { email: response.body.user.email as string, password, token: response.body.token as string, user: response.body.user };
}

/** Creates a task through the API (titled "A task" unless `fields` says otherwise); answers it, checked against the Task schema. */
export async function createTask(server: TestServer, token: string, fields: Record<string, unknown> = {}) {
  const response = await server.request("/tasks", { token, json: { title: "A task", ...fields } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(taskOutput, response.body);
}

/** Asserts an RFC 9457 problem answer with the given status and code; answers the body. */
export function expectProblem(response: ApiResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, code, type: `urn:spolu:problem:${code}` });
  return response.body as { detail: string; errors?: { in: string; pointer: string; detail: string }[] };
}

/** Parses a response body with an output schema (the API's own), failing the test on any mismatch. */
export function expectShape<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  expect(result.success, result.success ? "" : JSON.stringify(result.error.issues)).toBe(true);
  return result.data as z.infer<T>;
}
