import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_GROUPS, MAX_GROUPS } from "../../lib/groups/defaults";
import { findOwnGroup, firstActiveGroupId } from "../../lib/groups/repo";
import { groupListOutput, groupOutput, groupScheduleOutput } from "../../lib/groups/schema";
import { lookupTaskList, storeTaskList } from "../../lib/tasks/list-cache";
import { expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

async function groupsOf(token: string, query = "") {
  const response = await server.request(`/groups${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(groupListOutput, response.body);
}

async function createGroup(token: string, names: Record<string, string>) {
  const response = await server.request("/groups", { token, json: { names } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(groupOutput, response.body);
}

async function insertTasks(ownerId: string, groupId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const [row] = await server.sql<{ id: string }>(
      "insert into tasks (owner_id, group_id, title, position) values ($1, $2, 't', 'a0') returning id",
      [ownerId, groupId],
    );
    ids.push(row!.id);
  }
  return ids;
}

const tasksIn = async (groupId: string) =>
  (await server.sql<{ id: string }>("select id from tasks where group_id = $1 order by id", [groupId])).map((row) => row.id);

describe("GET /groups", () => {
  test("a new user has the eight default groups in order, named in English", async () => {
    const { token } = await registerUser(server);
    const list = await groupsOf(token);
    expect(list.lang).toBe("en");
    expect(list.items.map((group) => group.key)).toEqual(DEFAULT_GROUPS.map((group) => group.key));
    expect(list.items.map((group) => group.name)).toEqual([
      "Personal",
      "Work",
      "Family",
      "Home",
      "Shopping",
      "Health",
      "Study",
      "Finance",
    ]);
    expect(list.items.map((group) => group.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const group of list.items) {
      expect(group).toMatchObject({ archived: false, archivedAt: null, settings: { timeZones: [], locations: [] } });
      expect(Object.keys(group.names).sort()).toEqual(["cs", "en", "he", "ru", "ua"]);
    }
    expect((await server.request("/api/v1/groups", { token })).body).toEqual(list);
  });

  test("?lang= names each group in that language, for all five languages", async () => {
    const { token } = await registerUser(server);
    const expected = {
      en: ["Personal", "Work", "Family", "Home", "Shopping", "Health", "Study", "Finance"],
      cs: ["Osobní", "Práce", "Rodina", "Domácnost", "Nákupy", "Zdraví", "Studium", "Finance"],
      he: ["אישי", "עבודה", "משפחה", "בית", "קניות", "בריאות", "לימודים", "כספים"],
      ru: ["Личное", "Работа", "Семья", "Дом", "Покупки", "Здоровье", "Учёба", "Финансы"],
      ua: ["Особисте", "Робота", "Сім’я", "Дім", "Покупки", "Здоров’я", "Навчання", "Фінанси"],
    };
    for (const [lang, names] of Object.entries(expected)) {
      const list = await groupsOf(token, `?lang=${lang}`);
      expect(list.lang).toBe(lang);
      expect(
        list.items.map((group) => group.name),
        lang,
      ).toEqual(names);
    }
  });

  test("without lang, names in the profile locale, else in English", async () => {
    const czech = await registerUser(server, { locale: "cs" });
    const list = await groupsOf(czech.token);
    expect(list.lang).toBe("cs");
    expect(list.items[0]!.name).toBe("Osobní");
    expect((await groupsOf(czech.token, "?lang=ru")).items[0]!.name).toBe("Личное");

    const english = await registerUser(server);
    expect((await groupsOf(english.token)).lang).toBe("en");
  });

  test("an unknown lang is a 400 naming the allowed values", async () => {
    const { token } = await registerUser(server);
    for (const lang of ["de", "uk", "EN", ""]) {
      const problem = expectProblem(await server.request(`/groups?lang=${lang}`, { token }), 400, "validation_failed");
      expect(problem.errors).toEqual([{ in: "query", pointer: "/lang", detail: expect.stringContaining("en, cs, he, ru, ua") }]);
    }
    const unknown = expectProblem(await server.request("/groups?colour=red", { token }), 400, "validation_failed");
    expect(unknown.errors?.[0]?.pointer).toBe("/colour");
  });

  test("?counts=true gives each group its open tasks (todo, in_progress), archived ones too; none without it", async () => {
    const { token, user } = await registerUser(server);
    const stranger = await registerUser(server);
    const [personal, work] = (await groupsOf(token)).items;
    const errands = await createGroup(token, { en: "Errands" });
    const [done, cancelled, started] = await insertTasks(user.id, personal!.id, 5);
    await server.sql("update tasks set status = 'done', completed_at = now() where id = $1", [done]);
    await server.sql("update tasks set status = 'cancelled' where id = $1", [cancelled]);
    await server.sql("update tasks set status = 'in_progress' where id = $1", [started]);
    await insertTasks(user.id, errands.id, 2);
    await server.request(`/groups/${errands.id}`, { method: "PATCH", token, json: { archived: true } });
    // Another user's tasks count nowhere in this user's groups.
    const [strangerGroup] = (await groupsOf(stranger.token)).items;
    await insertTasks(stranger.user.id, strangerGroup!.id, 4);

    const counted = await groupsOf(token, "?counts=true&includeArchived=true");
    const open = Object.fromEntries(counted.items.map((group) => [group.id, group.openTasks]));
    expect(open[personal!.id]).toBe(3);
    expect(open[work!.id]).toBe(0);
    expect(open[errands.id]).toBe(2);
    expect(counted.items.every((group) => typeof group.openTasks === "number")).toBe(true);
    expect(counted.items.map((group) => group.id)).not.toContain(strangerGroup!.id);
    expect((await groupsOf(stranger.token, "?counts=true")).items[0]!.openTasks).toBe(4);
    expect((await groupsOf(token)).items.some((group) => "openTasks" in group)).toBe(false);
  });

  test("?counts= other than true or false is a 400 naming counts", async () => {
    const { token } = await registerUser(server);
    const response = await server.request("/groups?counts=maybe", { token });
    const problem = expectProblem(response, 400, "validation_failed");
    expect(problem.errors).toEqual([{ in: "query", pointer: "/counts", detail: "must be true or false" }]);
  });

  test("answers 401 without a token", async () => {
    expectProblem(await server.request("/groups"), 401, "unauthenticated");
  });
});

describe("POST /groups", () => {
  test("creates a group after the last one, names trimmed, falling back to English then to any name", async () => {
    const { token, user } = await registerUser(server);
    const group = await createGroup(token, { en: "  Garden  ", cs: "Zahrada" });
    expect(group).toMatchObject({
      key: null,
      name: "Garden",
      names: { en: "Garden", cs: "Zahrada" },
      position: 8,
      archived: false,
    });
    expect(Date.parse(group.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const list = await groupsOf(token, "?lang=ru");
    expect(list.items.at(-1)).toMatchObject({ id: group.id, name: "Garden" });
    expect((await server.request(`/groups/${group.id}?lang=cs`, { token })).body.name).toBe("Zahrada");

    const hebrewOnly = await createGroup(token, { he: "גינה" });
    expect(hebrewOnly.position).toBe(9);
    expect((await server.request(`/groups/${hebrewOnly.id}?lang=ua`, { token })).body.name).toBe("גינה");

    const [row] = await server.sql<{ owner_id: string }>("select owner_id from task_groups where id = $1", [group.id]);
    expect(row!.owner_id).toBe(user.id);
  });

  test("?lang= and the profile locale choose the name of the answer", async () => {
    const { token } = await registerUser(server, { locale: "cs" });
    const created = await server.request("/groups", { token, json: { names: { en: "Garden", cs: "Zahrada" } } });
    expect(created.body.name).toBe("Zahrada");
    const english = await server.request("/groups?lang=en", { token, json: { names: { en: "Garden", cs: "Zahrada" } } });
    expect(english.body.name).toBe("Garden");
  });

  test("answers 400 naming each bad name, and creates nothing", async () => {
    const { token, user } = await registerUser(server);
    const cases: [unknown, string[]][] = [
      [{}, ["/names"]],
      [{ names: {} }, ["/names"]],
      [{ names: { en: "   " } }, ["/names/en"]],
      [{ names: { cs: "x".repeat(101) } }, ["/names/cs"]],
      [{ names: { en: "Garden", de: "Garten" } }, ["/names/de"]],
      [{ names: { de: "Garten" } }, ["/names", "/names/de"]],
      [{ names: { en: 7 } }, ["/names/en"]],
      [{ names: { en: "Garden" }, colour: "red" }, ["/colour"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(await server.request("/groups", { token, json }), 400, "validation_failed");
      expect(problem.errors?.map((e) => e.pointer).sort(), JSON.stringify(json)).toEqual(pointers);
    }
    expect(await server.sql("select 1 from task_groups where owner_id = $1", [user.id])).toHaveLength(8);
    expect((await createGroup(token, { en: "x".repeat(100) })).name).toHaveLength(100);
  });

  test(`a user holds at most ${MAX_GROUPS} groups, archived ones included (409 beyond)`, async () => {
    const { token, user } = await registerUser(server);
    await server.sql(
      `insert into task_groups (owner_id, names, position) select $1, '{"en":"Filler"}'::jsonb, n from generate_series(8, ${MAX_GROUPS - 2}) n`,
      [user.id],
    );
    const last = await createGroup(token, { en: "Last one" });
    expect(last.position).toBe(MAX_GROUPS - 1);
    const full = expectProblem(
      await server.request("/groups", { token, json: { names: { en: "One too many" } } }),
      409,
      "conflict",
    );
    expect(full.detail).toContain(String(MAX_GROUPS));

    await server.request(`/groups/${last.id}`, { method: "PATCH", token, json: { archived: true } });
    expectProblem(await server.request("/groups", { token, json: { names: { en: "Still too many" } } }), 409, "conflict");
    expect((await server.request(`/groups/${last.id}`, { method: "DELETE", token })).status).toBe(204);
    await createGroup(token, { en: "Room again" });
    const [held] = await server.sql<{ count: number }>("select count(*)::int as count from task_groups where owner_id = $1", [
      user.id,
    ]);
    expect(held!.count).toBe(MAX_GROUPS);
  });
});

describe("GET /groups/{id}", () => {
  test("answers one group, archived too", async () => {
    const { token } = await registerUser(server);
    const [personal] = (await groupsOf(token)).items;
    const response = await server.request(`/groups/${personal!.id}?lang=he`, { token });
    expect(response.status).toBe(200);
    expect(expectShape(groupOutput, response.body)).toMatchObject({ id: personal!.id, key: "personal", name: "אישי" });
  });

  test("a malformed id is a 400 naming id; an unknown id is a 404", async () => {
    const { token } = await registerUser(server);
    const problem = expectProblem(await server.request("/groups/not-a-uuid", { token }), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "path", pointer: "/id" })]);
    expectProblem(await server.request(`/groups/${MISSING_ID}`, { token }), 404, "not_found");
  });
});

describe("PATCH /groups/{id}", () => {
  test("names merge per language; null removes a language, never the last one", async () => {
    const { token } = await registerUser(server);
    const group = await createGroup(token, { en: "Garden", cs: "Zahrada" });
    const patch = (json: unknown, query = "") => server.request(`/groups/${group.id}${query}`, { method: "PATCH", token, json });

    const renamed = await patch({ names: { cs: "Zahrádka", ru: "Сад" } }, "?lang=cs");
    expect(renamed.status).toBe(200);
    expect(expectShape(groupOutput, renamed.body)).toMatchObject({
      name: "Zahrádka",
      names: { en: "Garden", cs: "Zahrádka", ru: "Сад" },
    });

    const withoutEnglish = await patch({ names: { en: null } }, "?lang=he");
    expect(withoutEnglish.body.names).toEqual({ cs: "Zahrádka", ru: "Сад" });
    expect(withoutEnglish.body.name).toBe("Zahrádka");

    expect((await patch({ names: { cs: null, en: "Yard" } }, "?lang=ua")).body).toMatchObject({
      name: "Yard",
      names: { en: "Yard", ru: "Сад" },
    });

    const last = expectProblem(await patch({ names: { en: null, ru: null } }), 400, "validation_failed");
    expect(last.errors?.[0]?.pointer).toBe("/names");
    expect((await server.request(`/groups/${group.id}`, { token })).body.names).toEqual({ en: "Yard", ru: "Сад" });

    const bad = expectProblem(await patch({ names: { en: "", de: "Hof" }, archived: "yes" }), 400, "validation_failed");
    expect(bad.errors?.map((e) => e.pointer).sort()).toEqual(["/archived", "/names/de", "/names/en"]);
  });

  test("renames a default group in one language, keeping the others and its key", async () => {
    const { token } = await registerUser(server);
    const work = (await groupsOf(token)).items[1]!;
    const response = await server.request(`/groups/${work.id}`, { method: "PATCH", token, json: { names: { en: "Job" } } });
    expect(response.body).toMatchObject({ key: "work", name: "Job", names: { en: "Job", cs: "Práce", ua: "Робота" } });
    expect((await groupsOf(token, "?lang=ru")).items[1]!.name).toBe("Работа");
  });

  test("archived groups leave the list unless includeArchived=true, and come back when unarchived", async () => {
    const { token } = await registerUser(server);
    const home = (await groupsOf(token)).items.find((group) => group.key === "home")!;
    const archived = await server.request(`/groups/${home.id}`, { method: "PATCH", token, json: { archived: true } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ archived: true, archivedAt: expect.any(String) });

    expect((await groupsOf(token)).items.map((group) => group.key)).not.toContain("home");
    const all = await groupsOf(token, "?includeArchived=true");
    expect(all.items).toHaveLength(8);
    expect(all.items.find((group) => group.id === home.id)).toMatchObject({
      archived: true,
      archivedAt: archived.body.archivedAt,
    });
    expect((await server.request(`/groups/${home.id}`, { token })).body.archived).toBe(true);

    const again = await server.request(`/groups/${home.id}`, { method: "PATCH", token, json: { archived: true } });
    expect(again.body.archivedAt).toBe(archived.body.archivedAt);

    const back = await server.request(`/groups/${home.id}`, { method: "PATCH", token, json: { archived: false } });
    expect(back.body).toMatchObject({ archived: false, archivedAt: null });
    expect((await groupsOf(token)).items.map((group) => group.key)).toContain("home");
    expectProblem(await server.request("/groups?includeArchived=maybe", { token }), 400, "validation_failed");
  });
});

describe("PUT /groups/order", () => {
  test("sets the order of every group, archived ones included", async () => {
    const { token } = await registerUser(server);
    const before = (await groupsOf(token)).items;
    await server.request(`/groups/${before[3]!.id}`, { method: "PATCH", token, json: { archived: true } });
    const ids = before.map((group) => group.id).reverse();
    const response = await server.request("/groups/order?lang=cs", { method: "PUT", token, json: { ids } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const answered = expectShape(groupListOutput, response.body);
    expect(answered.items.map((group) => group.id)).toEqual(ids);
    expect(answered.items[0]!.name).toBe("Finance");
    expect(answered.items.map((group) => group.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

    const listed = await groupsOf(token);
    expect(listed.items.map((group) => group.key)).toEqual([
      "finance",
      "study",
      "health",
      "shopping",
      "family",
      "work",
      "personal",
    ]);
  });

  test("answers 400 naming ids unless every group is listed exactly once, and changes nothing", async () => {
    const { token } = await registerUser(server);
    const other = await registerUser(server);
    const ids = (await groupsOf(token)).items.map((group) => group.id);
    const otherId = (await groupsOf(other.token)).items[0]!.id;
    const cases: [unknown, string][] = [
      [{ ids: ids.slice(1) }, "/ids"],
      [{ ids: [...ids, ids[0]] }, "/ids"],
      [{ ids: [...ids.slice(1), ids[1]] }, "/ids"],
      [{ ids: [...ids.slice(1), otherId] }, "/ids"],
      [{ ids: [...ids, MISSING_ID] }, "/ids"],
      [{ ids: [] }, "/ids"],
      [{ ids: ["not-a-uuid", ...ids.slice(1)] }, "/ids/0"],
      [{}, "/ids"],
      [{ ids, extra: 1 }, "/extra"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(
        await server.request("/groups/order", { method: "PUT", token, json }),
        400,
        "validation_failed",
      );
      expect(
        problem.errors?.map((e) => e.pointer),
        JSON.stringify(json),
      ).toEqual([pointer]);
    }
    expect((await groupsOf(token)).items.map((group) => group.id)).toEqual(ids);
    expect((await groupsOf(other.token)).items[0]!.id).toBe(otherId);
  });
});

describe("DELETE /groups/{id}", () => {
  test("deletes an empty group", async () => {
    const { token } = await registerUser(server);
    const group = await createGroup(token, { en: "Empty" });
    const response = await server.request(`/groups/${group.id}`, { method: "DELETE", token });
    expect(response.status).toBe(204);
    expect(response.body).toBe("");
    expectProblem(await server.request(`/groups/${group.id}`, { token }), 404, "not_found");
    expectProblem(await server.request(`/groups/${group.id}`, { method: "DELETE", token }), 404, "not_found");
  });

  test("a group with tasks answers 409 saying how many and what to pass; nothing changes", async () => {
    const { token, user } = await registerUser(server);
    const group = await createGroup(token, { en: "Busy" });
    const taskIds = await insertTasks(user.id, group.id, 3);
    const problem = expectProblem(await server.request(`/groups/${group.id}`, { method: "DELETE", token }), 409, "conflict");
    expect(problem.detail).toMatch(/3 tasks/);
    expect(problem.detail).toMatch(/moveTo/);
    expect(problem.detail).toMatch(/deleteTasks=true/);
    expect((await server.request(`/groups/${group.id}?deleteTasks=false`, { method: "DELETE", token })).status).toBe(409);
    expect(await tasksIn(group.id)).toEqual(taskIds.sort());
    expect((await server.request(`/groups/${group.id}`, { token })).status).toBe(200);
  });

  test("moveTo moves the tasks to another of the user's groups, archived ones too", async () => {
    const { token, user } = await registerUser(server);
    const group = await createGroup(token, { en: "Old" });
    const target = await createGroup(token, { en: "New" });
    await server.request(`/groups/${target.id}`, { method: "PATCH", token, json: { archived: true } });
    const moving = await insertTasks(user.id, group.id, 2);
    const staying = await insertTasks(user.id, target.id, 1);

    const response = await server.request(`/groups/${group.id}?moveTo=${target.id}`, { method: "DELETE", token });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
    expect(await tasksIn(target.id)).toEqual([...moving, ...staying].sort());
    expect(await server.sql("select 1 from task_groups where id = $1", [group.id])).toEqual([]);
  });

  test("deleteTasks=true deletes the group's tasks (and their assignments), no one else's", async () => {
    const { token, user } = await registerUser(server);
    const assignee = await registerUser(server);
    const group = await createGroup(token, { en: "Doomed" });
    const kept = (await groupsOf(token)).items[0]!;
    const [doomed] = await insertTasks(user.id, group.id, 2);
    const [survivor] = await insertTasks(user.id, kept.id, 1);
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [doomed, assignee.user.id]);

    const response = await server.request(`/groups/${group.id}?deleteTasks=true`, { method: "DELETE", token });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
    expect(await tasksIn(group.id)).toEqual([]);
    expect(await server.sql("select 1 from task_assignees where user_id = $1", [assignee.user.id])).toEqual([]);
    expect(await tasksIn(kept.id)).toEqual([survivor]);
  });

  test("moving or deleting tasks drops the cached task lists of their owner and assignees", async () => {
    const { token, user } = await registerUser(server);
    const assignee = await registerUser(server);
    const bystander = await registerUser(server);
    const group = await createGroup(token, { en: "Cached" });
    const [task] = await insertTasks(user.id, group.id, 1);
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [task, assignee.user.id]);
    const cache = async (userId: string) => {
      const lookup = await lookupTaskList(userId, "q");
      if (!lookup.hit) await storeTaskList(userId, "q", lookup.generation, Buffer.from("[]"));
    };
    for (const id of [user.id, assignee.user.id, bystander.user.id]) await cache(id);
    expect((await lookupTaskList(user.id, "q")).hit).toBe(true);

    const target = (await groupsOf(token)).items[0]!;
    expect((await server.request(`/groups/${group.id}?moveTo=${target.id}`, { method: "DELETE", token })).status).toBe(204);
    expect((await lookupTaskList(user.id, "q")).hit).toBe(false);
    expect((await lookupTaskList(assignee.user.id, "q")).hit).toBe(false);
    expect((await lookupTaskList(bystander.user.id, "q")).hit).toBe(true);

    for (const id of [user.id, assignee.user.id]) await cache(id);
    const second = await createGroup(token, { en: "Cached too" });
    await server.sql("update tasks set group_id = $1 where id = $2", [second.id, task]);
    expect((await server.request(`/groups/${second.id}?deleteTasks=true`, { method: "DELETE", token })).status).toBe(204);
    expect((await lookupTaskList(user.id, "q")).hit).toBe(false);
    expect((await lookupTaskList(assignee.user.id, "q")).hit).toBe(false);
  });

  test("moveTo must be another of the user's own groups: itself is 400, another user's or a missing one 404", async () => {
    const { token, user } = await registerUser(server);
    const other = await registerUser(server);
    const group = await createGroup(token, { en: "Keep me" });
    const taskIds = await insertTasks(user.id, group.id, 2);
    const othersGroup = (await groupsOf(other.token)).items[0]!;

    const itself = expectProblem(
      await server.request(`/groups/${group.id}?moveTo=${group.id}`, { method: "DELETE", token }),
      400,
      "validation_failed",
    );
    expect(itself.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/moveTo" })]);
    const foreign = expectProblem(
      await server.request(`/groups/${group.id}?moveTo=${othersGroup.id}`, { method: "DELETE", token }),
      404,
      "not_found",
    );
    expect(foreign.detail).toMatch(/moveTo/);
    expect(JSON.stringify(foreign)).not.toContain(othersGroup.name);
    expectProblem(
      await server.request(`/groups/${group.id}?moveTo=${MISSING_ID}`, { method: "DELETE", token }),
      404,
      "not_found",
    );
    const malformed = expectProblem(
      await server.request(`/groups/${group.id}?moveTo=nope`, { method: "DELETE", token }),
      400,
      "validation_failed",
    );
    expect(malformed.errors?.[0]?.pointer).toBe("/moveTo");
    const both = expectProblem(
      await server.request(`/groups/${group.id}?moveTo=${(await groupsOf(token)).items[0]!.id}&deleteTasks=true`, {
        method: "DELETE",
        token,
      }),
      400,
      "validation_failed",
    );
    expect(both.detail).toMatch(/either moveTo or deleteTasks/);

    expect(await tasksIn(group.id)).toEqual(taskIds.sort());
    expect(await tasksIn(othersGroup.id)).toEqual([]);
    expect((await server.request(`/groups/${group.id}`, { token })).status).toBe(200);
  });
});

describe("GET and PUT /groups/{id}/schedule", () => {
  test("a group starts without time zones or locations; PUT replaces both", async () => {
    const { token } = await registerUser(server);
    const family = (await groupsOf(token)).items[2]!;
    const initial = await server.request(`/groups/${family.id}/schedule`, { token });
    expect(initial.status).toBe(200);
    expect(expectShape(groupScheduleOutput, initial.body)).toEqual({ groupId: family.id, timeZones: [], locations: [] });

    const schedule = {
      timeZones: ["Europe/Prague", "Asia/Jerusalem", "America/Sao_Paulo"],
      locations: [
        { name: " Home ", latitude: 50.0755, longitude: 14.4378, radiusMeters: 150 },
        { name: "Pole", latitude: -90, longitude: 180, radiusMeters: 100_000 },
      ],
    };
    const put = await server.request(`/groups/${family.id}/schedule`, { method: "PUT", token, json: schedule });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const expected = {
      groupId: family.id,
      timeZones: schedule.timeZones,
      locations: [{ ...schedule.locations[0], name: "Home" }, schedule.locations[1]],
    };
    expect(expectShape(groupScheduleOutput, put.body)).toEqual(expected);
    expect((await server.request(`/groups/${family.id}/schedule`, { token })).body).toEqual(expected);
    expect((await server.request(`/groups/${family.id}`, { token })).body.settings).toEqual({
      timeZones: expected.timeZones,
      locations: expected.locations,
    });

    const cleared = await server.request(`/groups/${family.id}/schedule`, {
      method: "PUT",
      token,
      json: { timeZones: [], locations: [] },
    });
    expect(cleared.body).toEqual({ groupId: family.id, timeZones: [], locations: [] });
  });

  test("bad values answer 400 naming each field, and change nothing", async () => {
    const { token } = await registerUser(server);
    const group = (await groupsOf(token)).items[0]!;
    const place = { name: "Office", latitude: 0, longitude: 0, radiusMeters: 10 };
    const cases: [unknown, string[]][] = [
      [{ timeZones: [], locations: [{ ...place, latitude: 91 }] }, ["/locations/0/latitude"]],
      [{ timeZones: [], locations: [place, { ...place, longitude: -180.5 }] }, ["/locations/1/longitude"]],
      [{ timeZones: [], locations: [{ ...place, radiusMeters: 0 }] }, ["/locations/0/radiusMeters"]],
      [{ timeZones: [], locations: [{ ...place, radiusMeters: 100_001 }] }, ["/locations/0/radiusMeters"]],
      [{ timeZones: [], locations: [{ ...place, name: " " }] }, ["/locations/0/name"]],
      [{ timeZones: [], locations: [{ ...place, name: "x".repeat(101) }] }, ["/locations/0/name"]],
      [{ timeZones: [], locations: [{ ...place, latitude: "50" }] }, ["/locations/0/latitude"]],
      [{ timeZones: [], locations: [{ ...place, altitude: 3 }] }, ["/locations/0/altitude"]],
      [{ timeZones: [], locations: Array.from({ length: 21 }, () => place) }, ["/locations"]],
      [{ timeZones: ["Europe/Prague", "Mars/Olympus"], locations: [] }, ["/timeZones/1"]],
      [{ timeZones: ["Europe/Prague", "Europe/Prague"], locations: [] }, ["/timeZones/1"]],
      [{ timeZones: Array.from({ length: 11 }, (_, i) => `Etc/GMT+${i}`), locations: [] }, ["/timeZones"]],
      [{ timeZones: ["UTC"] }, ["/locations"]],
      [{ timeZones: ["Nowhere"], locations: [{ ...place, latitude: -91 }] }, ["/locations/0/latitude", "/timeZones/0"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(
        await server.request(`/groups/${group.id}/schedule`, { method: "PUT", token, json }),
        400,
        "validation_failed",
      );
      expect(problem.errors?.map((e) => e.pointer).sort(), JSON.stringify(json)).toEqual(pointers);
    }
    expect((await server.request(`/groups/${group.id}/schedule`, { token })).body).toEqual({
      groupId: group.id,
      timeZones: [],
      locations: [],
    });
    const tenZones = Array.from({ length: 10 }, (_, i) => `Etc/GMT+${i}`);
    const ok = await server.request(`/groups/${group.id}/schedule`, {
      method: "PUT",
      token,
      json: { timeZones: tenZones, locations: Array.from({ length: 20 }, () => place) },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe("another user's group", () => {
  test("answers 404 on every route and is left as it was", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const group = await createGroup(owner.token, { en: "Private plans" });
    await insertTasks(owner.user.id, group.id, 1);
    const token = stranger.token;
    const attempts = [
      server.request(`/groups/${group.id}`, { token }),
      server.request(`/groups/${group.id}`, { method: "PATCH", token, json: { names: { en: "Mine now" }, archived: true } }),
      server.request(`/groups/${group.id}`, { method: "DELETE", token }),
      server.request(`/groups/${group.id}?deleteTasks=true`, { method: "DELETE", token }),
      server.request(`/groups/${group.id}/schedule`, { token }),
      server.request(`/groups/${group.id}/schedule`, { method: "PUT", token, json: { timeZones: ["UTC"], locations: [] } }),
    ];
    for (const response of await Promise.all(attempts)) {
      const problem = expectProblem(response, 404, "not_found");
      expect(JSON.stringify(problem)).not.toContain("Private plans");
    }
    const after = await server.request(`/groups/${group.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ name: "Private plans", archived: false, settings: { timeZones: [] } });
    expect(await tasksIn(group.id)).toHaveLength(1);
    expect((await groupsOf(stranger.token, "?includeArchived=true")).items.map((g) => g.id)).not.toContain(group.id);
  });

  test("a malformed id is a 400 naming id on every route", async () => {
    const { token } = await registerUser(server);
    const attempts = [
      server.request("/groups/123", { token }),
      server.request("/groups/123", { method: "PATCH", token, json: { archived: true } }),
      server.request("/groups/123", { method: "DELETE", token }),
      server.request("/groups/123/schedule", { token }),
      server.request("/groups/123/schedule", { method: "PUT", token, json: { timeZones: [], locations: [] } }),
    ];
    for (const response of await Promise.all(attempts)) {
      const problem = expectProblem(response, 400, "validation_failed");
      expect(problem.errors).toEqual([expect.objectContaining({ in: "path", pointer: "/id" })]);
    }
  });
});

describe("for the tasks module", () => {
  test("findOwnGroup finds only the owner's groups; firstActiveGroupId is the lowest active position", async () => {
    const { token, user } = await registerUser(server);
    const other = await registerUser(server);
    const groups = (await groupsOf(token)).items;
    expect((await findOwnGroup(user.id, groups[1]!.id))?.key).toBe("work");
    expect(await findOwnGroup(other.user.id, groups[1]!.id)).toBeNull();
    expect(await findOwnGroup(user.id, "not-a-uuid")).toBeNull();

    expect(await firstActiveGroupId(user.id)).toBe(groups[0]!.id);
    await server.request(`/groups/${groups[0]!.id}`, { method: "PATCH", token, json: { archived: true } });
    expect(await firstActiveGroupId(user.id)).toBe(groups[1]!.id);
    const reordered = [groups[5]!, ...groups.filter((_, i) => i !== 5)].map((group) => group.id);
    await server.request("/groups/order", { method: "PUT", token, json: { ids: reordered } });
    expect(await firstActiveGroupId(user.id)).toBe(groups[5]!.id);
  });
});

describe("default groups in the database", () => {
  test("registration creates the user and the groups in one transaction", async () => {
    const email = `atomic-${Date.now()}@example.com`;
    await server.sql("alter table task_groups rename column names to names_broken");
    let response;
    try {
      response = await server.request("/auth/register", { json: { email, password: "long enough pw" } });
    } finally {
      await server.sql("alter table task_groups rename column names_broken to names");
    }
    expectProblem(response, 500, "internal");
    expect(await server.sql("select 1 from users where email = $1", [email])).toEqual([]);
  });

  test("the migration's backfill gives every user without groups the eight defaults, and no one else", async () => {
    const migration = readFileSync(path.join(import.meta.dirname, "../../db/migrations/0001_tasks.sql"), "utf8");
    const backfill = migration
      .split("--> statement-breakpoint")
      .find((statement) => statement.includes('INSERT INTO "task_groups"'))!;
    const [old] = await server.sql<{ id: string }>(
      "insert into users (email, name, password_hash) values ('before-groups@example.com', 'Old', 'x') returning id",
    );
    const { user } = await registerUser(server);
    await server.sql(backfill);
    const rows = await server.sql<{ key: string; names: unknown; position: number }>(
      "select key, names, position from task_groups where owner_id = $1 order by position",
      [old!.id],
    );
    expect(rows).toEqual(DEFAULT_GROUPS.map(({ key, names }, position) => ({ key, names, position })));
    expect(await server.sql("select 1 from task_groups where owner_id = $1", [user.id])).toHaveLength(8);
  });
});

describe("OpenAPI", () => {
  test("every groups route is tagged Groups, with a summary", async () => {
    const document = (await server.request("/openapi.json")).body;
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([route]) => route.startsWith("/api/v1/groups"))
      .flatMap(([route, item]) =>
        Object.entries(item).map(([method, operation]) => ({ where: `${method} ${route}`, operation })),
      );
    expect(operations.map((o) => o.where).sort()).toEqual([
      "delete /api/v1/groups/{id}",
      "get /api/v1/groups",
      "get /api/v1/groups/{id}",
      "get /api/v1/groups/{id}/schedule",
      "patch /api/v1/groups/{id}",
      "post /api/v1/groups",
      "put /api/v1/groups/order",
      "put /api/v1/groups/{id}/schedule",
    ]);
    for (const { where, operation } of operations) {
      expect(operation.tags, where).toEqual(["Groups"]);
      expect(operation.summary, where).toBeTruthy();
    }
    const remove = document.paths["/api/v1/groups/{id}"].delete;
    expect(remove.description).toMatch(/moveTo/);
    expect(remove.description).toMatch(/deleteTasks=true/);
    expect(document.paths["/api/v1/groups"].get.description).toMatch(/English/);
  });
});
