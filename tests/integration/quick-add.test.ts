import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { groupListOutput, groupOutput } from "../../lib/groups/schema";
import { projectOutput } from "../../lib/projects/schema";
import { quickAddOutput } from "../../lib/quick-add/schema";
import { taskOutput } from "../../lib/tasks/schema";
import {
  addMember,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function parse(who: User, json: unknown) {
  const response = await api("/tasks/parse", { token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(quickAddOutput, response.body);
}

/** The local "YYYY-MM-DD HH:MM" an instant shows in a zone (read independently of the parser). */
const local = (iso: string | undefined, timeZone: string) =>
  iso ? new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "short" }).format(new Date(iso)) : "";
/** Tomorrow's local date in a zone, "YYYY-MM-DD". */
const tomorrowIn = (timeZone: string) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short" }).format(new Date(Date.now() + 86_400_000));

async function groupNamed(who: User, name: string) {
  const response = await api("/groups?lang=en", { token: who.token });
  const group = expectShape(groupListOutput, response.body).items.find((item) => item.name === name);
  expect(group, name).toBeDefined();
  return group!;
}

describe("POST /tasks/parse", () => {
  test("reads the line in the profile's language and time zone, with the caller's own group by its Czech name", async () => {
    const user = await registerUser(server, { locale: "cs", timeZone: "Europe/Prague" });
    const work = await groupNamed(user, "Work");
    const text = "Koupit mléko zítra v 9 !1 #nákup +Práce";
    const parsed = await parse(user, { text });
    expect(parsed).toMatchObject({ title: "Koupit mléko", priority: "urgent", tags: ["nákup"], groupId: work.id });
    expect(local(parsed.dueAt, "Europe/Prague")).toBe(`${tomorrowIn("Europe/Prague")} 09:00`);
    expect(parsed.spans.map((span) => [span.kind, span.text, text.slice(span.start, span.end)])).toEqual([
      ["due", "zítra", "zítra"],
      ["due", "v 9", "v 9"],
      ["priority", "!1", "!1"],
      ["tag", "#nákup", "#nákup"],
      ["group", "+Práce", "+Práce"],
    ]);
  });

  test("`locale` overrides the profile's; times follow the caller's zone, not the server's", async () => {
    const user = await registerUser(server, { locale: "cs", timeZone: "America/New_York" });
    const parsed = await parse(user, { text: "Call mom tomorrow at 9 pm", locale: "en" });
    expect(parsed.title).toBe("Call mom");
    expect(local(parsed.dueAt, "America/New_York")).toBe(`${tomorrowIn("America/New_York")} 21:00`);
  });

  test("Hebrew, right to left: offsets are UTF-16 positions of the text as sent", async () => {
    const user = await registerUser(server, { locale: "he", timeZone: "Asia/Jerusalem" });
    const text = "לקנות חלב מחר ב־21:00 כל יום";
    const parsed = await parse(user, { text });
    expect(parsed.title).toBe("לקנות חלב");
    expect(parsed.recurrence).toEqual({ frequency: "daily", interval: 1, anchor: "scheduled", until: null, count: null });
    for (const span of parsed.spans) {
      expect(text.slice(span.start, span.end)).toBe(span.text);
      expect(Object.keys(span).sort()).toEqual(["end", "kind", "start", "text"]);
    }
    expect(parsed.spans.map((span) => span.text)).toEqual(["מחר", "ב־21:00", "כל יום"]);
  });

  test("what it answers is what POST /tasks takes: the task is created as parsed", async () => {
    const user = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const parsed = await parse(user, { text: "Water the plants every Monday at 8 p2 #home +Home" });
    const { spans: _spans, notes: _notes, startAt: _startAt, ...fields } = parsed;
    const created = await api("/tasks", { token: user.token, json: fields });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const task = expectShape(taskOutput, created.body);
    expect(task).toMatchObject({ title: "Water the plants", priority: "high", tags: ["home"], groupId: parsed.groupId });
    expect(task.recurrence).toMatchObject({ frequency: "weekly", interval: 1 });
    expect(new Date(task.dueAt!).getTime()).toBe(new Date(parsed.dueAt!).getTime());
    expect(new Intl.DateTimeFormat("en", { timeZone: "Europe/Prague", weekday: "long" }).format(new Date(task.dueAt!))).toBe(
      "Monday",
    );
  });

  test("a repeat rule tasks cannot store stays in the title, with a note, and nothing repeats", async () => {
    const user = await registerUser(server, { locale: "ru", timeZone: "Europe/Moscow" });
    const parsed = await parse(user, { text: "Зарядка по будням" });
    expect(parsed.recurrence).toBeUndefined();
    expect(parsed.title).toBe("Зарядка по будням");
    expect(parsed.notes).toMatchObject([{ code: "recurrence_unsupported", text: "по будням" }]);
  });

  test("`literal` ranges stay in the title: an undone recognition is not made again", async () => {
    const user = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const text = "Read Tomorrow by Friday";
    const parsed = await parse(user, { text, literal: [{ start: 5, end: 13 }] });
    expect(parsed.title).toBe("Read Tomorrow");
    expect(parsed.spans).toMatchObject([{ kind: "due", text: "by Friday" }]);
  });

  test("another user's group and a stranger's project never resolve; the caller's own project does", async () => {
    const owner = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const stranger = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const secret = await api("/groups", { token: stranger.token, json: { names: { en: "Secret garden" } } });
    expectShape(groupOutput, secret.body);
    const theirs = await api("/projects", { token: stranger.token, json: { name: "Moonshot" } });
    expectShape(projectOutput, theirs.body);
    const mine = await api("/projects", { token: owner.token, json: { name: "Kitchen remodel" } });
    const project = expectShape(projectOutput, mine.body);

    const refused = await parse(owner, { text: "Plant roses +Secret garden +Moonshot" });
    expect(refused.groupId).toBeUndefined();
    expect(refused.projectId).toBeUndefined();
    expect(refused.title).toBe("Plant roses +Secret garden +Moonshot");
    expect(refused.notes.map((note) => [note.code, note.text])).toEqual([
      ["list_not_found", "+Secret"],
      ["list_not_found", "+Moonshot"],
    ]);

    const resolved = await parse(owner, { text: "Order tiles +kitchen remodel" });
    expect(resolved).toMatchObject({ title: "Order tiles", projectId: project.id });
    // The stranger's own name resolves for the stranger only.
    expect((await parse(stranger, { text: "Plant roses +Secret garden" })).groupId).toBe(
      expectShape(groupOutput, secret.body).id,
    );
  });

  test("a group shared with the caller's family resolves (by its owner's name for it); it does not outside the family", async () => {
    const parent = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const child = await registerUser(server, { locale: "cs", timeZone: "Europe/Prague" });
    const neighbour = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    expect((await api("/family", { token: parent.token, json: { name: "Home" } })).status).toBe(201);
    const joined = await addMember(server, "/family/members", parent, child, { role: "child" });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const chores = expectShape(
      groupOutput,
      (await api("/groups", { token: parent.token, json: { names: { en: "Chores" } } })).body,
    );
    expect((await api(`/family/groups/${chores.id}`, { method: "PUT", token: parent.token })).status).toBe(200);

    const parsed = await parse(child, { text: "Vynést koš zítra +Chores" });
    expect(parsed).toMatchObject({ title: "Vynést koš", groupId: chores.id });
    const { spans: _spans, notes: _notes, startAt: _startAt, ...fields } = parsed;
    const created = await api("/tasks", { token: child.token, json: fields });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await parse(neighbour, { text: "Take out the bin +Chores" })).groupId).toBeUndefined();
  });

  test("a project resolves for its members, not for someone who only views it (they could not add the task there)", async () => {
    const owner = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const member = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const viewer = await registerUser(server, { locale: "en", timeZone: "Europe/Prague" });
    const project = expectShape(projectOutput, (await api("/projects", { token: owner.token, json: { name: "Garden" } })).body);
    for (const [who, role] of [
      [member, "member"],
      [viewer, "viewer"],
    ] as const) {
      const added = await addMember(server, `/projects/${project.id}/members`, owner, who, { role });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    expect((await parse(member, { text: "Mow the lawn +Garden" })).projectId).toBe(project.id);
    const refused = await parse(viewer, { text: "Mow the lawn +Garden" });
    expect(refused.projectId).toBeUndefined();
    expect(refused.notes.map((note) => note.code)).toEqual(["list_not_found"]);
  });

  test("400 naming the field: empty, blank, too long, unknown locale, a backwards literal range", async () => {
    const user = await registerUser(server);
    const cases: [unknown, string][] = [
      [{}, "/text"],
      [{ text: "" }, "/text"],
      [{ text: "   " }, "/text"],
      [{ text: "x".repeat(1001) }, "/text"],
      [{ text: "tomorrow", locale: "de" }, "/locale"],
      [{ text: "tomorrow", literal: [{ start: 4, end: 2 }] }, "/literal/0/end"],
      [{ text: "tomorrow", extra: true }, ""],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(await api("/tasks/parse", { token: user.token, json }), 400, "validation_failed");
      if (pointer)
        expect(
          problem.errors?.map((error) => error.pointer),
          JSON.stringify(json),
        ).toContain(pointer);
    }
  });

  test("401 without a token; the answer counts against the rate limit like any other", async () => {
    expectProblem(await api("/tasks/parse", { json: { text: "tomorrow" } }), 401, "unauthenticated");
    const user = await registerUser(server);
    const response = await api("/tasks/parse", { token: user.token, json: { text: "tomorrow" } });
    expect(response.headers.get("RateLimit-Limit")).toBeTruthy();
  });

  test("GET /openapi.json declares it with its schemas", async () => {
    const document = (await server.request("/openapi.json")).body;
    const operation = document.paths["/api/v1/tasks/parse"].post;
    expect(operation.requestBody.content["application/json"].schema.$ref).toBe("#/components/schemas/ParseQuickAddInput");
    expect(operation.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/QuickAdd");
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["400", "401", "429"]));
  });
});
