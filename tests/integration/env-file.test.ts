/**
 * `.env` as `.env.example` promises: `npm start` and `npm run db:migrate` read it from the directory they run in,
 * and a variable set in the environment beats the file. Each test lays out an application directory of its own
 * (links to this checkout, its own package.json and .env) so that no developer's .env is read or overwritten.
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { adminUrl, withAdminClient } from "./postgres";
import { killSpawnedServers, spawnNpmScript } from "./spawned-server";

afterAll(killSpawnedServers);

const ROOT = process.cwd();
/**
 * Not linked: the checkout's own settings and data; package.json and server.ts are copied instead (server.ts runs
 * only when started as itself: through a link, node reports the link's target as the module and it stays idle).
 */
const COPIED = ["package.json", "server.ts"];
const NOT_LINKED = new Set([".env", ".env.local", "data", ".git", ...COPIED]);
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function appDirectory(dotenv: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "spolu-dotenv-"));
  dirs.push(dir);
  for (const entry of readdirSync(ROOT)) {
    if (!NOT_LINKED.has(entry)) symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  }
  COPIED.forEach((file) => copyFileSync(path.join(ROOT, file), path.join(dir, file)));
  const lines = Object.entries({ DATA_DIR: path.join(dir, "data"), ...dotenv }).map(([name, value]) => `${name}=${value}`);
  writeFileSync(path.join(dir, ".env"), `# written by env-file.test.ts\n${lines.join("\n")}\n`);
  return dir;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls /healthz until it answers (the server may be told to log nothing at info level). */
async function answering(url: string, exited: Promise<{ output: string }>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server exited before answering:\n${(await exited).output}`);
    const response = await fetch(`${url}/healthz`).catch(() => null);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the server did not answer /healthz within 60 s");
}

async function register(url: string, email: string) {
  const response = await fetch(`${url}/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "read from the file" }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { token: string; user: { isAdmin: boolean } };
  const admin = await fetch(`${url}/api/v1/admin/users`, { headers: { Authorization: `Bearer ${body.token}` } });
  return { isAdmin: body.user.isAdmin, adminStatus: admin.status };
}

const FILE = { ADMIN_EMAILS: "boss@example.com", LOG_LEVEL: "warn", SERVE_PAGES: "false", HOST: "127.0.0.1" };

describe(".env", () => {
  test("npm start reads .env: the file's ADMIN_EMAILS and LOG_LEVEL take effect", async () => {
    const dir = appDirectory(FILE);
    const port = await freePort();
    const server = spawnNpmScript("start", dir, { PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    await answering(url, server.exited);

    expect(await register(url, "boss@example.com")).toEqual({ isAdmin: true, adminStatus: 200 });
    expect(await register(url, "staff@example.com")).toEqual({ isAdmin: false, adminStatus: 403 });

    server.signal("SIGTERM");
    const { output } = await server.exited;
    // LOG_LEVEL=warn from the file: the info lines every start and stop writes are not there.
    expect(output).not.toContain('"msg":"Spolu is listening"');
    expect(output).not.toContain('"msg":"Shutting down"');
  }, 90_000);

  test("a variable set in the environment beats the same variable in .env", async () => {
    const dir = appDirectory(FILE);
    const server = spawnNpmScript("start", dir, { PORT: "0", LOG_LEVEL: "info", ADMIN_EMAILS: "chief@example.com" });
    const url = await server.ready; // logged at info: the environment's LOG_LEVEL won
    expect(await register(url, "boss@example.com")).toEqual({ isAdmin: false, adminStatus: 403 });
    expect(await register(url, "chief@example.com")).toEqual({ isAdmin: true, adminStatus: 200 });
    server.signal("SIGTERM");
    expect((await server.exited).output).toContain('"msg":"Shutting down"');
  }, 90_000);

  test.runIf(process.env.DATABASE_URL)(
    "npm run db:migrate applies every migration on PostgreSQL without JWT_SECRET; npm start still requires it",
    async () => {
      const base = process.env.DATABASE_URL!;
      const name = `spolu_dotenv_${randomUUID().replaceAll("-", "")}`;
      await withAdminClient(base, (client) => client.query(`create database ${name}`));
      try {
        const dir = appDirectory({ DATABASE_URL: adminUrl(base, name), SERVE_PAGES: "false" });
        const migrate = spawnNpmScript("db:migrate", dir, {});
        const migrated = await migrate.exited;
        expect(migrated.code, migrated.output).toBe(0);
        expect(migrated.output).toContain("Migrations applied (PostgreSQL)");
        const journal = JSON.parse(readFileSync(path.join(ROOT, "db/migrations/meta/_journal.json"), "utf8")).entries.length;
        const applied = await withAdminClient(adminUrl(base, name), (client) =>
          client.query("select count(*)::int as n from drizzle.__drizzle_migrations"),
        );
        expect(applied.rows[0].n).toBe(journal);

        const server = spawnNpmScript("start", dir, { PORT: "0" });
        const refused = await server.exited;
        expect(refused.code).toBe(1);
        expect(refused.output).toMatch(/JWT_SECRET: is required when DATABASE_URL is set/);
      } finally {
        await withAdminClient(base, (client) => client.query(`drop database if exists ${name} with (force)`));
      }
    },
    90_000,
  );
});
