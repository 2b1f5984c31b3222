/**
 * Starts a real Spolu server (API, socket and all, without the pages) on a free port, on a fresh copy
 * of the migrated test database, and gives tests an HTTP client and raw SQL access to that database.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, inject } from "vitest";
import type { z } from "zod";
import { loadConfig } from "../../lib/config";
import { startPgliteThread, type EmbeddedClient } from "../../lib/db/pglite-thread";
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
  let pglite: EmbeddedClient | undefined;
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
    // On its own thread, as the server's embedded database runs by default.
    const client = await startPgliteThread({ loadDataDir: readFileSync(inject("pgliteTemplate")) });
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

/** A browser's cookies for one site: those it set (name and value), sent back to it, and no other site. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  /** The Cookie header for a request to `url` (empty for another site). */
  headers(url: string | URL): Record<string, string> {
    if (new URL(url).origin !== this.origin || this.cookies.size === 0) return {};
    return { Cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") };
  }

  /** Keeps what a response from `url` set (a cookie set to expire is dropped). */
  store(url: string | URL, response: Response): void {
    if (new URL(url).origin !== this.origin) return;
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** A fetch that sends and keeps this site's cookies, not following redirects. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      redirect: "manual",
      ...init,
      headers: { ...this.headers(url), ...(init.headers as Record<string, string>) },
    });
    this.store(url, response);
    return response;
  }
}

/**
 * Adds `who` to a team, project or family through `path` (`/api/v1/user-groups/{id}/members`, …) as `by`, the way
 * a person joins: whoever is not yet connected to `by` gets an invitation (202), which `who` accepts in the app.
 * Answers 201 and the member as the list shows them, however they joined (another answer of the add as it came).
 */
export async function addMember(
  server: TestServer,
  path: string,
  by: { token: string },
  who: { token: string; user: { id: string } },
  fields: Record<string, unknown> = {},
): Promise<ApiResponse> {
  const apiPath = path.startsWith("/api/v1") ? path : `/api/v1${path}`;
  const added = await server.request(apiPath, { token: by.token, json: { userId: who.user.id, ...fields } });
  if (added.status !== 202) return added;
  const accepted = await server.request(`/api/v1/invitations/${added.body.invitation.id}/accept`, {
    method: "POST",
    token: who.token,
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const listPath = apiPath.startsWith("/api/v1/family") ? "/api/v1/family" : apiPath;
  const list = await server.request(listPath, { token: by.token });
  const members = (list.body.items ?? list.body.members) as { userId: string }[];
  return { status: 201, headers: added.headers, body: members.find((member) => member.userId === who.user.id) };
}
