/** server.ts as an operator runs it: a separate process, its signals and its data directory. */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { io } from "socket.io-client";
import { afterAll, describe, expect, test } from "vitest";
import { TEMPLATE_DATABASE, adminUrl, withAdminClient } from "./postgres";
import { killSpawnedServers, spawnServer } from "./spawned-server";

afterAll(killSpawnedServers);

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe("server.ts", () => {
  test("an invalid setting stops the process with a message naming the variable", async () => {
    const { exited } = spawnServer({ PORT: "not-a-port", DATA_DIR: path.join(tmpdir(), "spolu-never-used") });
    const { code, output } = await exited;
    expect(code).toBe(1);
    expect(output).toMatch(/PORT/);
  });

  test("embedded: one process per data directory; SIGTERM drains in-flight requests; data survives a restart", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "spolu-process-"));
    try {
      const first = spawnServer({ DATA_DIR: dataDir });
      const url = await first.ready;
      expect(readFileSync(path.join(dataDir, "jwt-secret"), "utf8").length).toBeGreaterThanOrEqual(32);
      const credentials = { email: "keep@example.com", password: "survives restarts" };
      expect((await post(`${url}/auth/register`, credentials)).status).toBe(201);

      const second = spawnServer({ DATA_DIR: dataDir });
      const refused = await second.exited;
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/in use by process/);

      // A sign-in whose body is still arriving when SIGTERM comes must still be answered.
      const body = JSON.stringify(credentials);
      const answered = new Promise<number>((resolve, reject) => {
        const req = request(
          `${url}/auth/login`,
          {
            method: "POST",
            headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          first.child.kill("SIGTERM");
          setTimeout(() => req.end(body.slice(10)), 300);
        }, 100);
      });
      expect(await answered).toBe(200);
      const stopped = await first.exited;
      expect(stopped.code, stopped.output).toBe(0);
      expect(existsSync(path.join(dataDir, "spolu.lock"))).toBe(false);

      const restarted = spawnServer({ DATA_DIR: dataDir });
      const again = await restarted.ready;
      const login = await post(`${again}/auth/login`, credentials);
      expect(login.status).toBe(200);
      expect((await fetch(`${again}/auth/me`, { headers: { Authorization: `Bearer ${login.body.token}` } })).status).toBe(200);
      restarted.child.kill("SIGTERM");
      expect((await restarted.exited).code).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  test.runIf(process.env.DATABASE_URL)(
    "PostgreSQL: two processes starting together apply each migration once and both serve",
    async () => {
      const base = process.env.DATABASE_URL!;
      const name = `spolu_race_${randomUUID().replaceAll("-", "")}`;
      await withAdminClient(base, (client) => client.query(`create database ${name}`));
      try {
        const env = { DATABASE_URL: adminUrl(base, name), JWT_SECRET: "x".repeat(40), DATA_DIR: tmpdir() };
        const servers = [spawnServer(env), spawnServer(env)];
        const urls = await Promise.all(servers.map((s) => s.ready));
        const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")).entries.length;
        const rows = await withAdminClient(adminUrl(base, name), (client) =>
          client.query("select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash"),
        );
        expect(rows.rows).toHaveLength(journal);
        expect(rows.rows.every((row) => row.n === 1)).toBe(true);
        const account = { email: "both@example.com", password: "shared database" };
        expect((await post(`${urls[0]}/auth/register`, account)).status).toBe(201);
        expect((await post(`${urls[1]}/auth/login`, account)).status).toBe(200);
        servers.forEach((s) => s.child.kill("SIGTERM"));
        expect((await Promise.all(servers.map((s) => s.exited))).map((e) => e.code)).toEqual([0, 0]);
      } finally {
        await withAdminClient(base, (client) => client.query(`drop database if exists ${name} with (force)`));
      }
    },
    180_000,
  );

  test.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)(
    "PostgreSQL + Redis: a write through one process refreshes the lists (the writer's and a teammate's), sockets and sessions the other serves",
    async () => {
      const base = process.env.DATABASE_URL!;
      const name = `spolu_pair_${randomUUID().replaceAll("-", "")}`;
      await withAdminClient(base, (client) => client.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
      try {
        const env = {
          DATABASE_URL: adminUrl(base, name),
          JWT_SECRET: "y".repeat(40),
          DATA_DIR: tmpdir(),
          REDIS_PREFIX: `spolu-pair-${randomUUID()}:`,
          RUN_JOBS: "false",
        };
        const servers = [spawnServer(env), spawnServer(env)];
        const [first, second] = await Promise.all(servers.map((s) => s.ready));
        const account = { email: "pair@example.com", password: "two processes" };
        const { token } = (await post(`${first}/auth/register`, account)).body;
        const list = async (url: string, bearer = token) => {
          const response = await fetch(`${url}/tasks`, { headers: { Authorization: `Bearer ${bearer}` } });
          return { status: response.status, cache: response.headers.get("x-cache"), body: await response.json() };
        };
        expect((await list(second!)).cache).toBe("MISS");
        expect((await list(second!)).cache).toBe("HIT");
        const created = await fetch(`${first}/tasks`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ title: "Written through the first process" }),
        });
        expect(created.status).toBe(201);
        const fresh = await list(second!);
        expect(fresh.cache).toBe("MISS");
        expect(fresh.body.items.map((task: { title: string }) => task.title)).toEqual(["Written through the first process"]);

        // Another user's write through the first process reaches the list the second process cached for a
        // teammate who sees the task through their user group.
        const teammate = (await post(`${first}/auth/register`, { email: "mate@example.com", password: "two processes too" }))
          .body;
        const send = (url: string, method: string, body: unknown, bearer = token) =>
          fetch(url, {
            method,
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${bearer}` },
            body: JSON.stringify(body),
          });
        const group = await (await send(`${first}/api/v1/user-groups`, "POST", { name: "Pair" })).json();
        // Not yet connected: the teammate is invited and accepts (through the other process).
        const invited = await send(`${first}/api/v1/user-groups/${group.id}/members`, "POST", { userId: teammate.user.id });
        expect(invited.status).toBe(202);
        const { invitation } = await invited.json();
        expect(
          (await send(`${second}/api/v1/invitations/${invitation.id}/accept`, "POST", undefined, teammate.token)).status,
        ).toBe(200);
        const shared = await (await send(`${first}/tasks`, "POST", { title: "For the team", userGroupId: group.id })).json();
        expect((await list(second!, teammate.token)).body.items.map((task: { title: string }) => task.title)).toEqual([
          "For the team",
        ]);
        expect((await list(second!, teammate.token)).cache).toBe("HIT");
        expect((await send(`${first}/tasks/${shared.id}`, "PATCH", { title: "Renamed for the team" })).status).toBe(200);
        const teammateList = await list(second!, teammate.token);
        expect(teammateList.cache).toBe("MISS");
        expect(teammateList.body.items.map((task: { title: string }) => task.title)).toEqual(["Renamed for the team"]);

        // A change written through the first process reaches the teammate's socket on the second (the Redis
        // adapter carries it), and a reconnect to the first process with the cursor replays what they missed.
        const socket = io(second!, {
          path: "/ws",
          transports: ["websocket"],
          auth: { token: teammate.token },
          reconnection: false,
        });
        const heard: { id: number; type: string; data: { task: { title: string } } }[] = [];
        // The events of the requests above may still be on their way (consumers read the log after commit): the
        // socket waits for the one of this change.
        const eventTitled = (title: string) =>
          new Promise<(typeof heard)[number]>((resolve) => {
            const hear = (event: (typeof heard)[number]) => {
              if (event.data?.task?.title !== title) return;
              socket.off("event", hear);
              resolve(event);
            };
            socket.on("event", hear);
          });
        await new Promise<void>((resolve, reject) => socket.once("connect", () => resolve()).once("connect_error", reject));
        const arriving = eventTitled("Heard on the other process");
        expect((await send(`${first}/tasks/${shared.id}`, "PATCH", { title: "Heard on the other process" })).status).toBe(200);
        heard.push(await arriving);
        expect(heard[0]).toMatchObject({ type: "task.updated", data: { task: { title: "Heard on the other process" } } });
        socket.disconnect();
        expect((await send(`${second}/tasks/${shared.id}`, "PATCH", { title: "Missed while away" })).status).toBe(200);
        const back = io(first!, {
          path: "/ws",
          transports: ["websocket"],
          auth: { token: teammate.token, cursor: heard[0]!.id },
          reconnection: false,
        });
        const replayed: (typeof heard)[number][] = [];
        back.on("event", (event: (typeof heard)[number]) => replayed.push(event));
        await new Promise((resolve) => back.once("caught-up", resolve));
        // Events at or below the cursor may come again (the late-commit overlap): clients apply each id once.
        expect(replayed.filter((event) => event.id > heard[0]!.id).map((event) => event.data.task.title)).toEqual([
          "Missed while away",
        ]);
        back.disconnect();

        // A password change through one process revokes the old token on the other at once.
        const changed = await fetch(`${first}/auth/change-password`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ currentPassword: account.password, newPassword: "a brand new secret" }),
        });
        expect(changed.status).toBe(200);
        expect((await list(second!)).status).toBe(401);
        servers.forEach((s) => s.child.kill("SIGTERM"));
        await Promise.all(servers.map((s) => s.exited));
      } finally {
        await withAdminClient(base, (client) => client.query(`drop database if exists ${name} with (force)`));
      }
    },
    180_000,
  );

  test.runIf(process.env.DATABASE_URL)("PostgreSQL without JWT_SECRET refuses to start, naming it", async () => {
    const { exited } = spawnServer({ DATABASE_URL: adminUrl(process.env.DATABASE_URL!, TEMPLATE_DATABASE), JWT_SECRET: "" });
    const { code, output } = await exited;
    expect(code).toBe(1);
    expect(output).toMatch(/JWT_SECRET/);
  });
});
