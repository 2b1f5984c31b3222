import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LOCALES } from "../../lib/i18n/locales";
import { moduleOverrides } from "../../lib/modules/registry";
import { BUILT_IN_TEMPLATES } from "../../lib/templates/defaults";
import { appliedTemplateOutput, templateListOutput, templateOutput } from "../../lib/templates/schema";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";

/*
 * Templates (lib/templates): the three built-in ones in five languages and read-only, a user's own (from scratch,
 * from a group, from a project) private to them, and applying one: every task with its subtasks in one
 * transaction, due dates relative to the apply date in the user's time zone (also across a DST change), nothing
 * at all when something fails on the way.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const PRAGUE = "Europe/Prague";
const [MOVING, WEEKLY] = BUILT_IN_TEMPLATES as [(typeof BUILT_IN_TEMPLATES)[number], (typeof BUILT_IN_TEMPLATES)[number]];
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function createTemplate(who: User, json: Record<string, unknown>) {
  const response = await api("/templates", { token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(templateOutput, response.body);
}

async function apply(who: User, templateId: string, json?: Record<string, unknown>, query = "") {
  const response = await api(`/templates/${templateId}/apply${query}`, { method: "POST", token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(appliedTemplateOutput, response.body);
}

function expectInvalid(response: Awaited<ReturnType<typeof api>>, pointer: string) {
  const problem = expectProblem(response, 400, "validation_failed");
  expect(
    problem.errors?.map((error) => error.pointer),
    JSON.stringify(problem),
  ).toContain(pointer);
}

const subtaskTitles = async (who: User, taskId: string) =>
  ((await server.request(`/tasks/${taskId}/subtasks`, { token: who.token })).body as { title: string }[]).map(
    (subtask) => subtask.title,
  );
const taskCount = async (who: User) =>
  ((await server.sql("select count(*)::int as n from tasks where owner_id = $1", [who.user.id])) as { n: number }[])[0]!.n;

describe("the built-in templates", () => {
  test("GET /templates – three, in each of the five languages; the profile locale by default", async () => {
    const czech = await registerUser(server, { locale: "cs" });
    const names = new Set<string>();
    for (const lang of LOCALES) {
      const list = expectShape(templateListOutput, (await api(`/templates?lang=${lang}`, { token: czech.token })).body);
      expect(list.lang).toBe(lang);
      expect(list.items.map((item) => item.key)).toEqual(["moving-house", "weekly-review", "onboarding"]);
      expect(list.items.every((item) => item.builtIn && item.tasks.length >= 3)).toBe(true);
      list.items.forEach((item) => names.add(item.name));
    }
    expect(names.size).toBe(15);
    const byDefault = expectShape(templateListOutput, (await api("/templates", { token: czech.token })).body);
    expect(byDefault.lang).toBe("cs");
    expect(byDefault.items[0]).toMatchObject({
      name: "Stěhování",
      tasks: expect.arrayContaining([expect.objectContaining({ title: "Zabalit" })]),
    });
    const hebrew = expectShape(templateOutput, (await api(`/templates/${WEEKLY.id}?lang=he`, { token: czech.token })).body);
    expect(hebrew).toMatchObject({ name: "סקירה שבועית", lang: "he", createdAt: null });
    expect(hebrew.tasks[0]!.subtasks).toEqual(["דואר אלקטרוני", "הודעות ופתקים", "מגש הניירות"]);
    expectInvalid(await api("/templates?lang=de", { token: czech.token }), "/lang");
  });

  test("PATCH and DELETE of a built-in template are a 403; it stays as it was", async () => {
    const user = await registerUser(server);
    expectProblem(
      await api(`/templates/${MOVING.id}`, { method: "PATCH", token: user.token, json: { name: "Mine" } }),
      403,
      "forbidden",
    );
    expectProblem(await api(`/templates/${MOVING.id}`, { method: "DELETE", token: user.token }), 403, "forbidden");
    expect((await api(`/templates/${MOVING.id}`, { token: user.token })).body.name).toBe("Moving house");
  });
});

describe("your own templates", () => {
  test("POST, PATCH, DELETE /templates – validated; another user's is a 404 everywhere", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    expectInvalid(await api("/templates", { token: owner.token, json: { name: "Empty", tasks: [] } }), "/tasks");
    expectInvalid(await api("/templates", { token: owner.token, json: { name: " ", tasks: [{ title: "A" }] } }), "/name");
    expectInvalid(
      await api("/templates", {
        token: owner.token,
        json: { name: "Late", tasks: [{ title: "A", dueAfter: { days: 1, hours: 24 } }] },
      }),
      "/tasks/0/dueAfter/hours",
    );
    expectInvalid(
      await api("/templates", {
        token: owner.token,
        json: { name: "Far", tasks: [{ title: "A", dueAfter: { days: 400, hours: 1 } }] },
      }),
      "/tasks/0/dueAfter/days",
    );
    expectInvalid(
      await api("/templates", { token: owner.token, json: { name: "X", tasks: [{ title: "A", subtasks: [""] }] } }),
      "/tasks/0/subtasks/0",
    );
    expectInvalid(
      await api("/templates", { token: owner.token, json: { name: "X", ownerId: stranger.user.id, tasks: [{ title: "A" }] } }),
      "/ownerId",
    );

    const made = await createTemplate(owner, {
      name: " Garden ",
      tasks: [{ title: "Mow", dueAfter: { days: 1, hours: 9 }, subtasks: ["Fuel"] }, { title: "Water" }],
    });
    expect(made).toMatchObject({
      builtIn: false,
      key: null,
      name: "Garden",
      tasks: [
        { title: "Mow", description: "", priority: "normal", dueAfter: { days: 1, hours: 9, minutes: 0 }, subtasks: ["Fuel"] },
        { title: "Water", dueAfter: null, subtasks: [] },
      ],
    });
    const listed = expectShape(templateListOutput, (await api("/templates", { token: owner.token })).body);
    expect(listed.items.map((item) => item.id)).toEqual([...BUILT_IN_TEMPLATES.map((template) => template.id), made.id]);
    const theirs = expectShape(templateListOutput, (await api("/templates", { token: stranger.token })).body);
    expect(theirs.items.map((item) => item.id)).not.toContain(made.id);

    expectProblem(await api(`/templates/${made.id}`, { token: stranger.token }), 404, "not_found");
    expectProblem(
      await api(`/templates/${made.id}`, { method: "PATCH", token: stranger.token, json: { name: "Stolen" } }),
      404,
      "not_found",
    );
    expectProblem(await api(`/templates/${made.id}/apply`, { method: "POST", token: stranger.token }), 404, "not_found");
    expectProblem(await api(`/templates/${made.id}`, { method: "DELETE", token: stranger.token }), 404, "not_found");
    expect(await taskCount(stranger)).toBe(0);

    const renamed = await api(`/templates/${made.id}`, { method: "PATCH", token: owner.token, json: { name: "Yard" } });
    expect(expectShape(templateOutput, renamed.body)).toMatchObject({ name: "Yard", tasks: made.tasks });
    expectInvalid(await api(`/templates/${made.id}`, { method: "PATCH", token: owner.token, json: {} }), "/name");
    expect((await api(`/templates/${made.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expectProblem(await api(`/templates/${made.id}`, { token: owner.token }), 404, "not_found");
  });

  test("POST /templates/from-group/{id} – open tasks with subtasks, due dates as offsets from the earliest", async () => {
    const owner = await registerUser(server, { timeZone: PRAGUE });
    const stranger = await registerUser(server);
    const group = await api("/groups", { token: owner.token, json: { names: { en: "Renovation" } } });
    expect(group.status).toBe(201);
    const groupId = group.body.id as string;
    // 09:00 on 4 May and 17:30 on 6 May in Prague (summer time, UTC+2).
    const paint = await createTask(server, owner.token, {
      title: "Paint",
      groupId,
      dueAt: "2026-05-06T15:30:00Z",
      priority: "high",
    });
    const buy = await createTask(server, owner.token, { title: "Buy paint", groupId, dueAt: "2026-05-04T07:00:00Z" });
    await createTask(server, owner.token, { title: "Measure", groupId, status: "done" });
    await createTask(server, owner.token, { title: "Clean up", groupId });
    for (const title of ["Walls", "Ceiling"]) {
      expect((await server.request(`/tasks/${paint.id}/subtasks`, { token: owner.token, json: { title } })).status).toBe(201);
    }
    expect(buy.id).toBeTruthy();

    expectProblem(await api(`/templates/from-group/${groupId}`, { method: "POST", token: stranger.token }), 404, "not_found");
    const response = await api(`/templates/from-group/${groupId}`, { method: "POST", token: owner.token });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const made = expectShape(templateOutput, response.body);
    expect(made.name).toBe("Renovation");
    expect(made.tasks).toEqual([
      {
        title: "Paint",
        description: "",
        priority: "high",
        dueAfter: { days: 2, hours: 17, minutes: 30 },
        subtasks: ["Walls", "Ceiling"],
      },
      { title: "Buy paint", description: "", priority: "normal", dueAfter: { days: 0, hours: 9, minutes: 0 }, subtasks: [] },
      { title: "Clean up", description: "", priority: "normal", dueAfter: null, subtasks: [] },
    ]);

    // Applied again a week later: same wall-clock times, same order, the subtasks open.
    const applied = await apply(owner, made.id, { startDate: "2026-06-01" });
    expect(applied.tasks.map((task) => [task.title, task.dueAt, task.subtasks])).toEqual([
      ["Paint", "2026-06-03T15:30:00.000Z", { total: 2, done: 0 }],
      ["Buy paint", "2026-06-01T07:00:00.000Z", { total: 0, done: 0 }],
      ["Clean up", null, { total: 0, done: 0 }],
    ]);

    const empty = await api("/groups", { token: owner.token, json: { names: { en: "Empty" } } });
    expectProblem(await api(`/templates/from-group/${empty.body.id}`, { method: "POST", token: owner.token }), 409, "conflict");
  });

  test("POST /templates/from-project/{id} – any member may save it; a stranger gets 404", async () => {
    const owner = await registerUser(server);
    const viewer = await registerUser(server);
    const stranger = await registerUser(server);
    const project = await api("/projects", { token: owner.token, json: { name: "Launch" } });
    expect((await joinAs(server, `/api/v1/projects/${project.body.id}/members`, owner, viewer, { role: "viewer" })).status).toBe(
      201,
    );
    await createTask(server, owner.token, { title: "Press release", projectId: project.body.id });
    await createTask(server, owner.token, { title: "Not in the project" });

    expectProblem(
      await api(`/templates/from-project/${project.body.id}`, { method: "POST", token: stranger.token }),
      404,
      "not_found",
    );
    const response = await api(`/templates/from-project/${project.body.id}`, {
      method: "POST",
      token: viewer.token,
      json: { name: "Launch plan" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(expectShape(templateOutput, response.body)).toMatchObject({
      name: "Launch plan",
      tasks: [{ title: "Press release" }],
    });
  });
});

describe("POST /templates/{id}/apply", () => {
  test("a built-in template: every task with its subtasks, in the user's language, events published", async () => {
    const user = await registerUser(server, { locale: "ru", timeZone: PRAGUE });
    const applied = await apply(user, WEEKLY.id, { startDate: "2026-01-12" });
    expect(applied).toMatchObject({ templateId: WEEKLY.id, startDate: "2026-01-12", timeZone: PRAGUE });
    expect(applied.tasks.map((task) => [task.title, task.dueAt])).toEqual([
      ["Разобрать входящие", "2026-01-12T09:00:00.000Z"],
      ["Оглянуться на прошлую неделю", "2026-01-12T10:00:00.000Z"],
      ["Спланировать следующую неделю", "2026-01-12T11:00:00.000Z"],
    ]);
    expect(await subtaskTitles(user, applied.tasks[2]!.id)).toEqual([
      "Просмотреть календарь",
      "Выбрать три приоритета",
      "Выделить время для сосредоточенной работы",
    ]);
    expect(applied.tasks[2]).toMatchObject({ priority: "high", status: "todo", ownerId: user.user.id });
    const events = await server.sql("select task_id from domain_events where type = 'task.created' and actor_id = $1", [
      user.user.id,
    ]);
    expect(events.map((event) => event.task_id).sort()).toEqual(applied.tasks.map((task) => task.id).sort());
    // The task list shows them at once (its cache was invalidated).
    const list = await server.request("/tasks?limit=50", { token: user.token });
    expect(list.body.items.map((task: { id: string }) => task.id)).toEqual(
      expect.arrayContaining(applied.tasks.map((task) => task.id)),
    );
  });

  test("relative due dates keep their wall-clock time across the DST change", async () => {
    const user = await registerUser(server, { timeZone: PRAGUE });
    const made = await createTemplate(user, {
      name: "Spring",
      tasks: [
        { title: "Before", dueAfter: { days: 0, hours: 18 } },
        { title: "After", dueAfter: { days: 2, hours: 18 } },
        { title: "Skipped hour", dueAfter: { days: 1, hours: 2, minutes: 30 } },
      ],
    });
    // Summer time starts in Prague on Sunday 29 March 2026 at 02:00 (UTC+1 → UTC+2).
    const applied = await apply(user, made.id, { startDate: "2026-03-28" });
    expect(applied.tasks.map((task) => task.dueAt)).toEqual([
      "2026-03-28T17:00:00.000Z",
      "2026-03-30T16:00:00.000Z",
      expect.stringMatching(/^2026-03-29T01:/),
    ]);
  });

  test("without startDate the due dates count from today in the user's time zone", async () => {
    const user = await registerUser(server, { timeZone: "Pacific/Kiritimati" });
    const made = await createTemplate(user, { name: "Today", tasks: [{ title: "Now", dueAfter: { days: 0, hours: 12 } }] });
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date());
    const applied = await apply(user, made.id);
    expect(applied.startDate).toBe(today);
  });

  test("into a group or project that is not usable: a 400 naming the field, nothing created", async () => {
    const owner = await registerUser(server);
    const viewer = await registerUser(server);
    const project = await api("/projects", { token: owner.token, json: { name: "Read only" } });
    expect((await joinAs(server, `/api/v1/projects/${project.body.id}/members`, owner, viewer, { role: "viewer" })).status).toBe(
      201,
    );
    const before = await taskCount(viewer);
    expectInvalid(
      await api(`/templates/${MOVING.id}/apply`, { method: "POST", token: viewer.token, json: { projectId: project.body.id } }),
      "/projectId",
    );
    const ownersGroup = (await server.request("/groups", { token: owner.token })).body.items[0].id as string;
    expectInvalid(
      await api(`/templates/${MOVING.id}/apply`, { method: "POST", token: viewer.token, json: { groupId: ownersGroup } }),
      "/groupId",
    );
    expectInvalid(
      await api(`/templates/${MOVING.id}/apply`, { method: "POST", token: viewer.token, json: { startDate: "2026-02-30" } }),
      "/startDate",
    );
    expect(await taskCount(viewer)).toBe(before);
  });

  test("a failure in the middle (the second task's subtask) leaves no task, subtask or event", async () => {
    const user = await registerUser(server);
    const made = await createTemplate(user, {
      name: "Fragile",
      tasks: [{ title: "First", subtasks: ["One"] }, { title: "Second", subtasks: ["Fine", "boom"] }, { title: "Third" }],
    });
    // A database fault: inserting a subtask titled "boom" fails, after the first task and the second's row exist.
    await server.sql(`create or replace function fail_on_boom() returns trigger language plpgsql as $$
      begin if new.title = 'boom' then raise exception 'injected failure'; end if; return new; end $$`);
    await server.sql("create trigger fail_on_boom before insert on subtasks for each row execute function fail_on_boom()");
    try {
      const response = await api(`/templates/${made.id}/apply`, { method: "POST", token: user.token });
      expectProblem(response, 500, "internal");
    } finally {
      await server.sql("drop trigger fail_on_boom on subtasks");
    }
    expect(await taskCount(user)).toBe(0);
    expect(await server.sql("select id from domain_events where actor_id = $1", [user.user.id])).toEqual([]);
    // Nothing was left half-done: applying again now creates all three.
    expect((await apply(user, made.id)).tasks.map((task) => [task.title, task.subtasks.total])).toEqual([
      ["First", 1],
      ["Second", 2],
      ["Third", 0],
    ]);
  });
});

describe("while the module is off", () => {
  test("every templates route answers 404 module_disabled", async () => {
    const user = await registerUser(server);
    const task = await createTask(server, user.token);
    moduleOverrides().set("templates", false);
    try {
      for (const [path, method] of [
        ["/templates", "GET"],
        [`/templates/${WEEKLY.id}`, "GET"],
        [`/templates/${WEEKLY.id}/apply`, "POST"],
        [`/templates/from-group/${task.groupId}`, "POST"],
      ] as const) {
        const problem = expectProblem(await api(path, { method, token: user.token }), 404, "module_disabled");
        expect(problem.detail).toContain("templates");
      }
    } finally {
      moduleOverrides().delete("templates");
    }
    expect((await api("/templates", { token: user.token })).status).toBe(200);
  });
});
