import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { jobStatusListOutput } from "../../lib/admin/schema";
import { onEvent } from "../../lib/events/publish";
import { databaseJobSchedule } from "../../lib/jobs/repo";
import { startJobRunner } from "../../lib/jobs/runner";
import { MODULE_IDS } from "../../lib/modules/ids";
import { moduleListOutput, moduleOutput } from "../../lib/modules/schema";
import {
  ADMIN_EMAIL,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";
import { TEMPLATE_DATABASE, adminUrl, withAdminClient } from "./postgres";
import { killSpawnedServers, spawnServer } from "./spawned-server";

/*
 * The module registry at run time (issue 9): administrators switch modules through /admin/modules, every process
 * follows, and a switched-off module's routes, jobs and event handlers stop while its data stays.
 */

let server: TestServer;
let admin: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  // The poll, short, so that a switch written by "another process" (straight into the table) arrives quickly.
  server = await startTestServer({ MODULES_DISABLED: "deploy", MODULE_REFRESH_MS: "200" });
  admin = await registerUser(server, { email: ADMIN_EMAIL, name: "Ada Admin" });
});
afterAll(async () => {
  killSpawnedServers();
  await server?.close();
});

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);
const switchModule = async (id: string, enabled: boolean) => {
  const response = await api(`/admin/modules/${id}`, { method: "PUT", token: admin.token, json: { enabled } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(moduleOutput, response.body);
};
const resetModule = async (id: string) => {
  const response = await api(`/admin/modules/${id}`, { method: "DELETE", token: admin.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(moduleOutput, response.body);
};
const listModules = async () => expectShape(moduleListOutput, (await api("/admin/modules", { token: admin.token })).body).items;
const expectModuleOff = (response: Awaited<ReturnType<typeof api>>, id: string) => {
  const problem = expectProblem(response, 404, "module_disabled");
  expect(problem.detail).toContain(`The ${id} module is switched off`);
};
/** The embedded database's runExclusive: no other process to wait for. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(50);
  }
  return Date.now() - started;
}

describe("admin module routes for someone who is not an administrator", () => {
  test("GET /admin/modules, PUT and DELETE /admin/modules/{id}, GET /admin/jobs – 403 signed in, 401 without a session", async () => {
    const user = await registerUser(server);
    expectProblem(await api("/admin/modules", { token: user.token }), 403, "forbidden");
    expectProblem(
      await api("/admin/modules/activity", { method: "PUT", token: user.token, json: { enabled: false } }),
      403,
      "forbidden",
    );
    expectProblem(await api("/admin/modules/activity", { method: "DELETE", token: user.token }), 403, "forbidden");
    expectProblem(await api("/admin/jobs", { token: user.token }), 403, "forbidden");
    expectProblem(await api("/admin/modules"), 401, "unauthenticated");
    // Nothing was switched.
    expect((await api("/activity/summary", { token: user.token })).status).toBe(200);
    expect((await listModules()).find((module) => module.id === "activity")).toMatchObject({
      enabled: true,
      source: "configuration",
    });
  });
});

describe("GET /admin/modules", () => {
  test("every module with its name, description and source; MODULES_DISABLED is respected", async () => {
    const modules = await listModules();
    expect(modules.map((module) => module.id)).toEqual([...MODULE_IDS]);
    expect(modules.find((module) => module.id === "projects")).toMatchObject({
      name: "Projects",
      enabled: true,
      source: "configuration",
      configured: true,
      updatedAt: null,
      updatedBy: null,
    });
    expect(modules.find((module) => module.id === "deploy")).toMatchObject({
      enabled: false,
      source: "configuration",
      configured: false,
    });
    for (const module of modules) expect(module.description.length).toBeGreaterThan(20);
  });
});

describe("PUT /admin/modules/{id} and DELETE /admin/modules/{id}", () => {
  test("unknown module: 404; a body without a boolean `enabled`: 400 naming it", async () => {
    expectProblem(
      await api("/admin/modules/chess", { method: "PUT", token: admin.token, json: { enabled: false } }),
      404,
      "not_found",
    );
    expectProblem(await api("/admin/modules/chess", { method: "DELETE", token: admin.token }), 404, "not_found");
    const problem = expectProblem(
      await api("/admin/modules/activity", { method: "PUT", token: admin.token, json: { enabled: "no" } }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.map((error) => error.pointer)).toEqual(["/enabled"]);
  });

  test("an administrator's switch beats MODULES_DISABLED, and a reset hands the module back to it", async () => {
    const on = await switchModule("deploy", true);
    expect(on).toMatchObject({
      enabled: true,
      source: "administrator",
      configured: false,
      updatedBy: { id: admin.user.id, name: "Ada Admin" },
    });
    expect(Date.parse(on.updatedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await resetModule("deploy")).toMatchObject({
      enabled: false,
      source: "configuration",
      updatedAt: null,
      updatedBy: null,
    });
    // Off by an administrator although the configuration has it on; reset: on again.
    expect(await switchModule("family", false)).toMatchObject({ enabled: false, source: "administrator", configured: true });
    expect(await resetModule("family")).toMatchObject({ enabled: true, source: "configuration" });
  });

  test("projects: its routes answer 404 module_disabled while off; the project is there again when it is back", async () => {
    const owner = await registerUser(server);
    const created = await api("/projects", { token: owner.token, json: { name: `Roadmap ${randomUUID()}` } });
    expect(created.status).toBe(201);
    const task = await createTask(server, owner.token, { projectId: created.body.id });
    await switchModule("projects", false);
    try {
      expectModuleOff(await api(`/projects/${created.body.id}`, { token: owner.token }), "projects");
      expectModuleOff(await api("/projects", { token: owner.token }), "projects");
      // No task goes into a project meanwhile; the one there stays there, visible to its owner.
      const refused = expectProblem(
        await api("/tasks", { token: owner.token, json: { title: "New", projectId: created.body.id } }),
        400,
        "validation_failed",
      );
      expect(refused.errors?.[0]).toMatchObject({ pointer: "/projectId", detail: expect.stringContaining("switched off") });
      expect((await api(`/tasks/${task.id}`, { token: owner.token })).body.projectId).toBe(created.body.id);
      expectModuleOff(await api("/invitations", { token: owner.token, json: { projectId: created.body.id } }), "projects");
    } finally {
      await resetModule("projects");
    }
    const again = await api(`/projects/${created.body.id}`, { token: owner.token });
    expect(again.status).toBe(200);
    expect(again.body.name).toBe(created.body.name);
  });

  test("family: GET /family answers 404 module_disabled while off; the family is there again when it is back", async () => {
    const parent = await registerUser(server);
    expect((await api("/family", { token: parent.token, json: { name: "The Nováks" } })).status).toBe(201);
    await switchModule("family", false);
    try {
      expectModuleOff(await api("/family", { token: parent.token }), "family");
    } finally {
      await switchModule("family", true);
    }
    expect((await api("/family", { token: parent.token })).body.name).toBe("The Nováks");
    await resetModule("family");
  });

  test("activity: its routes answer 404 module_disabled while off; the records are there again when it is back", async () => {
    const me = await registerUser(server, { timeZone: "Europe/Prague" });
    const now = Date.now();
    const record = {
      id: randomUUID(),
      app: "Reader",
      category: "reading",
      seconds: 600,
      startedAt: new Date(now - 900_000).toISOString(),
      endedAt: new Date(now - 300_000).toISOString(),
    };
    expect((await api("/activity/records", { token: me.token, json: { records: [record] } })).status).toBe(200);
    const before = (await api("/activity/summary", { token: me.token })).body;
    await switchModule("activity", false);
    try {
      expectModuleOff(await api("/activity/summary", { token: me.token }), "activity");
      expectModuleOff(await api("/activity/records", { token: me.token, json: { records: [] } }), "activity");
    } finally {
      await resetModule("activity");
    }
    expect((await api("/activity/summary", { token: me.token })).body).toEqual(before);
  });

  test("ai: chat, briefing and study plans answer 404 module_disabled while off; goals stay; the plan is there again", async () => {
    const me = await registerUser(server);
    const goal = (await api("/goals", { token: me.token, json: { title: "Learn Czech", description: "Verbs\nNouns" } })).body;
    const plan = await api(`/goals/${goal.id}/study-plan`, { token: me.token, json: { assistant: "built-in" } });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    await switchModule("ai", false);
    try {
      expectModuleOff(await api("/chat", { token: me.token, json: { message: "What is due today?" } }), "ai");
      expectModuleOff(await api("/briefing", { token: me.token }), "ai");
      expectModuleOff(await api(`/goals/${goal.id}/study-plan`, { token: me.token }), "ai");
      expect((await api(`/goals/${goal.id}`, { token: me.token })).status).toBe(200);
    } finally {
      await resetModule("ai");
    }
    expect((await api(`/goals/${goal.id}/study-plan`, { token: me.token })).body.version).toBe(plan.body.version);
    expect((await api("/briefing", { token: me.token })).status).toBe(200);
  });
});

describe("every process follows the switches", () => {
  test("a switch written by another process arrives with the next poll (MODULE_REFRESH_MS), and so does its reset", async () => {
    const me = await registerUser(server);
    // As another process would: straight into the table, without telling this one.
    await server.sql("insert into module_settings (module_id, enabled) values ('activity', false)");
    try {
      const took = await eventually(async () => (await api("/activity/summary", { token: me.token })).status === 404);
      expect(took).toBeLessThan(2000);
      expectModuleOff(await api("/activity/summary", { token: me.token }), "activity");
    } finally {
      await server.sql("delete from module_settings where module_id = 'activity'");
    }
    await eventually(async () => (await api("/activity/summary", { token: me.token })).status === 200);
  });

  test.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)(
    "PostgreSQL + Redis: a switch through one process holds in the other at once (Redis), long before its poll",
    async () => {
      const base = process.env.DATABASE_URL!;
      const name = `spolu_modules_${randomUUID().replaceAll("-", "")}`;
      await withAdminClient(base, (client) => client.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
      try {
        const env = {
          DATABASE_URL: adminUrl(base, name),
          JWT_SECRET: "m".repeat(40),
          DATA_DIR: tmpdir(),
          REDIS_PREFIX: `spolu-modules-${randomUUID()}:`,
          ADMIN_EMAILS: ADMIN_EMAIL,
          MODULE_REFRESH_MS: "60000",
        };
        const servers = [spawnServer(env), spawnServer(env)];
        const [first, second] = await Promise.all(servers.map((spawned) => spawned.ready));
        const call = (url: string, path: string, init: { method?: string; token?: string; json?: unknown } = {}) =>
          fetch(`${url}/api/v1${path}`, {
            method: init.method ?? "GET",
            headers: {
              ...(init.token && { Authorization: `Bearer ${init.token}` }),
              ...(init.json !== undefined && { "Content-Type": "application/json" }),
            },
            body: init.json === undefined ? undefined : JSON.stringify(init.json),
          });
        const registered = await (
          await call(first!, "/auth/register", { method: "POST", json: { email: ADMIN_EMAIL, password: "modules everywhere" } })
        ).json();
        const token = registered.token as string;
        expect((await call(second!, "/activity/summary", { token })).status).toBe(200);

        expect((await call(first!, "/admin/modules/activity", { method: "PUT", token, json: { enabled: false } })).status).toBe(
          200,
        );
        const took = await eventually(async () => (await call(second!, "/activity/summary", { token })).status === 404);
        expect(took).toBeLessThan(2000);
        expect((await call(first!, "/admin/modules/activity", { method: "DELETE", token })).status).toBe(200);
        await eventually(async () => (await call(second!, "/activity/summary", { token })).status === 200);

        servers.forEach((spawned) => spawned.child.kill("SIGTERM"));
        expect((await Promise.all(servers.map((spawned) => spawned.exited))).map((exit) => exit.code)).toEqual([0, 0]);
      } finally {
        await withAdminClient(base, (client) => client.query(`drop database if exists ${name} with (force)`));
      }
    },
    90_000,
  );
});

describe("jobs and event handlers of a switched-off module", () => {
  test("a job of a switched-off module does not run; it runs again once the module is back", async () => {
    let runs = 0;
    await switchModule("activity", false);
    const runner = startJobRunner(
      [{ name: "activity-test-job", module: "activity", intervalMs: 50, initialDelayMs: 0, run: async () => void runs++ }],
      databaseJobSchedule,
    );
    try {
      await sleep(300);
      expect(runs).toBe(0);
      await resetModule("activity");
      await eventually(async () => runs > 0);
    } finally {
      await runner.stop(5000);
      await resetModule("activity");
    }
  });

  test("an event handler of a switched-off module is not called; it is again once the module is back", async () => {
    const owner = await registerUser(server);
    const seen: string[] = [];
    const stop = onEvent("modules-test-handler", (event) => void (event.actorId === owner.user.id && seen.push(event.type)), {
      module: "activity",
    });
    try {
      await switchModule("activity", false);
      await createTask(server, owner.token, { title: "Unseen" });
      await sleep(300);
      expect(seen).toEqual([]);
      await resetModule("activity");
      await createTask(server, owner.token, { title: "Seen" });
      await eventually(async () => seen.includes("task.created"));
    } finally {
      stop();
      await resetModule("activity");
    }
  });
});

describe("GET /admin/jobs", () => {
  test("every job with its interval and module; a run's outcome, error, duration and counts, whichever process ran it", async () => {
    const before = expectShape(jobStatusListOutput, (await api("/admin/jobs", { token: admin.token })).body).items;
    expect(before.map((job) => job.name)).toEqual(
      expect.arrayContaining(["recurring-tasks", "reminders", "weekly-reports", "oauth-states-purge"]),
    );
    expect(before.find((job) => job.name === "reminders")).toMatchObject({
      intervalMs: 60_000,
      module: null,
      paused: false,
      lastStartedAt: null,
      lastOutcome: null,
      runCount: 0,
    });

    // The job's own name, with a run that fails and then one that succeeds, written down as the runner does.
    const runOnce = async (run: () => Promise<void>) => {
      let began!: () => void;
      const started = new Promise<void>((resolve) => (began = resolve));
      const job = { name: "oauth-states-purge", intervalMs: 3_600_000, initialDelayMs: 0, run: () => (began(), run()) };
      // Due now (the schedule would otherwise wait the job's hour after the previous run).
      await server.sql("update job_runs set next_run_at = now() where name = $1", [job.name]);
      const runner = startJobRunner([job], databaseJobSchedule);
      await started;
      await runner.stop(5000); // waits for the run, and its record
    };
    const purge = async () =>
      expectShape(jobStatusListOutput, (await api("/admin/jobs", { token: admin.token })).body).items.find(
        (job) => job.name === "oauth-states-purge",
      )!;
    await runOnce(async () => {
      throw new Error("The mail server said no");
    });
    expect(await purge()).toMatchObject({
      lastOutcome: "failed",
      lastError: "The mail server said no",
      failureCount: 1,
      runCount: 1,
      lastRunner: expect.stringContaining(`:${process.pid}`),
    });
    await runOnce(async () => {});
    const after = await purge();
    expect(after).toMatchObject({ lastOutcome: "succeeded", lastError: null, failureCount: 1, runCount: 2 });
    expect(Date.parse(after.lastFinishedAt!)).toBeGreaterThanOrEqual(Date.parse(after.lastStartedAt!));
    expect(after.lastDurationMs).toBeGreaterThanOrEqual(0);
  });
});

describe("GET /openapi.json", () => {
  test("marks every operation of projects, family, activity and the AI with x-spolu-module, and the core's with none", async () => {
    const document = (await server.request("/openapi.json")).body as {
      paths: Record<string, Record<string, { "x-spolu-module"?: string }>>;
    };
    const expected = (path: string): string | undefined => {
      if (path.startsWith("/api/v1/projects")) return "projects";
      if (path.startsWith("/api/v1/family")) return "family";
      if (path.startsWith("/api/v1/activity")) return "activity";
      if (path.startsWith("/api/v1/chat") || path === "/api/v1/briefing" || path.includes("/study-plan")) return "ai";
      return undefined;
    };
    const marked = new Map<string, number>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // Other modules (gamification, templates...) mark their own paths; only the core must carry no mark.
        const module = operation["x-spolu-module"];
        const want = expected(path);
        if (want) expect(module, `${method} ${path}`).toBe(want);
        else if (module && ["projects", "family", "activity", "ai"].includes(module))
          throw new Error(`${method} ${path} is marked ${module}`);
        if (module) marked.set(module, (marked.get(module) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(["projects", "family", "activity", "ai"].map((id) => [id, marked.get(id)]))).toEqual({
      // 11 of projects and members, 4 of their board columns (lib/board-columns).
      projects: 15,
      family: 10,
      activity: 5,
      ai: 9,
    });
    expect(document.paths["/api/v1/goals/{id}"]!.get!["x-spolu-module"]).toBeUndefined();
  });
});
