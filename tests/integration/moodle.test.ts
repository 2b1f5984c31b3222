import { createHmac, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { courseListOutput, gradeListOutput } from "../../lib/connectors/moodle/schema";
import { createdConnectionOutput, runOutput, statusOutput } from "../../lib/connectors/schema";
import { runConnectorRetries, RETRY_DELAYS_MS } from "../../lib/connectors/service";
import { moduleOverrides } from "../../lib/modules/registry";
import { expectProblem, expectShape, registerUser, startTestServer, type RequestOptions, type TestServer } from "./harness";
import { ALL_FUNCTIONS, startMoodleServer, type MoodleCourse, type MoodleServer } from "./moodle-server";

/** The local system listens on 127.0.0.1: the deployment setting that lets connectors reach that one address. */
const SYSTEM_ON_LOOPBACK = { ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1" };

/*
 * The learning connector (lib/connectors/moodle) against a local Moodle site speaking the REST web services
 * (moodle-server.ts): courses become goals, assignments tasks, completion and grades come in; Moodle's HTTP 200
 * exceptions, warnings, slowness and one course failing are handled as a user would want.
 */

let server: TestServer;
let moodle: MoodleServer;
type User = Awaited<ReturnType<typeof registerUser>>;

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

let nextId = 100;
const newId = () => (nextId += 1);
const SECONDS = (iso: string) => Date.parse(iso) / 1000;

/** A Moodle student with a token that may call every function the connector needs. */
function student(functions = ALL_FUNCTIONS): { token: string; userId: number } {
  const token = randomBytes(16).toString("hex");
  const userId = newId();
  moodle.tokens.set(token, { userId, functions });
  moodle.enrolments.set(userId, []);
  return { token, userId };
}

function course(userId: number, fields: Partial<MoodleCourse> = {}): MoodleCourse {
  const id = newId();
  const created: MoodleCourse = {
    id,
    shortname: `C${id}`,
    fullname: `Course ${id}`,
    summary: "",
    startdate: SECONDS("2026-02-01T08:00:00Z"),
    enddate: 0,
    assignments: [],
    states: {},
    completion: false,
    grades: [],
    ...fields,
  };
  moodle.courses.set(id, created);
  moodle.enrolments.get(userId)!.push(id);
  return created;
}

async function connect(user: User, token: string, settings: Record<string, unknown> = {}) {
  const response = await api("/connectors", {
    token: user.token,
    json: { kind: "learning", name: "School Moodle", baseUrl: moodle.url, credentials: { token }, settings },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdConnectionOutput, response.body);
}

async function runImport(user: User, connectionId: string) {
  const response = await api(`/connectors/${connectionId}/import`, { token: user.token, method: "POST" });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(runOutput, response.body);
}

async function goalsOf(user: User) {
  return (await api("/goals", { token: user.token })).body.items as {
    id: string;
    title: string;
    description: string;
    status: string;
    targetDate: string | null;
    progress: number;
    linkedTasks: { id: string; title: string; status: string; dueAt: string | null }[];
  }[];
}

async function tasksOf(user: User) {
  const rows = await server.sql<{ id: string; title: string; description: string; status: string; due_at: Date | null }>(
    "select id, title, description, status, due_at from tasks where owner_id = $1 order by title",
    [user.user.id],
  );
  return rows.map((row) => ({ ...row, due_at: row.due_at ? new Date(row.due_at).toISOString() : null }));
}

const sign = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

beforeAll(async () => {
  moodle = await startMoodleServer();
  server = await startTestServer({ ...SYSTEM_ON_LOOPBACK, CONNECTOR_TIMEOUT_MS: "400" });
  // The local Moodle stands in for a public host.
});

afterAll(async () => {
  await server.close();
  await moodle.close();
});

afterEach(() => {
  resetClock();
  moodle.delayMs = 0;
  moodle.httpStatus = 0;
  moodle.ignoreFormat = false;
  moduleOverrides().delete("learning");
});

describe("the import", () => {
  test("courses become goals and assignments tasks with their due dates, completion and grades; a re-run creates nothing twice", async () => {
    const alice = await registerUser(server, { timeZone: "Europe/Prague" });
    const { token, userId } = student();
    const algebra = course(userId, {
      fullname: "Linear Algebra",
      summary: "<p>Vectors &amp; <b>matrices</b></p><p>Weekly exercises.</p>",
      enddate: SECONDS("2026-06-30T22:30:00Z"),
      assignments: [
        {
          id: newId(),
          cmid: 501,
          name: "Exercise sheet 1",
          duedate: SECONDS("2026-03-10T23:00:00Z"),
          intro: "<p>Solve <i>all</i> problems.</p>",
        },
        { id: newId(), cmid: 502, name: "Reading log", duedate: 0, intro: "" },
        { id: newId(), cmid: 503, name: "Quiz retake", duedate: SECONDS("2026-04-01T10:00:00Z"), intro: "Second try" },
      ],
      states: { 501: 2, 502: 0, 503: 3 },
      completion: false,
    });
    const sheet = algebra.assignments[0]!;
    algebra.grades = [
      {
        id: 9001,
        itemname: "Exercise sheet 1",
        itemtype: "mod",
        itemmodule: "assign",
        iteminstance: sheet.id,
        graderaw: 87.5,
        gradeformatted: "87.50",
        grademin: 0,
        grademax: 100,
        percentageformatted: "87.50 %",
        feedback: "<p>Well done</p>",
        gradedategraded: SECONDS("2026-03-12T09:00:00Z"),
      },
      {
        id: 9002,
        itemname: null,
        itemtype: "course",
        itemmodule: null,
        iteminstance: algebra.id,
        graderaw: null,
        gradeformatted: "-",
        grademin: 0,
        grademax: 100,
        percentageformatted: "-",
        feedback: "",
        gradedategraded: null,
      },
    ];
    const history = course(userId, {
      fullname: "World History",
      completion: true,
      assignments: [{ id: newId(), cmid: 601, name: "Essay", duedate: SECONDS("2026-02-20T12:00:00Z"), intro: "" }],
      states: { 601: 1 },
    });
    const connection = await connect(alice, token);

    const first = await runImport(alice, connection.id);
    expect(first.status, JSON.stringify(first.items)).toBe("succeeded");
    expect(first.counts).toMatchObject({ created: 6, updated: 0, failed: 0 });

    const goals = await goalsOf(alice);
    expect(goals.map((goal) => [goal.title, goal.status, goal.targetDate])).toEqual(
      expect.arrayContaining([
        ["Linear Algebra", "active", "2026-07-01"], // the end date, on the owner's calendar
        ["World History", "achieved", null],
      ]),
    );
    const algebraGoal = goals.find((goal) => goal.title === "Linear Algebra")!;
    expect(algebraGoal.description).toBe("Vectors & matrices\n\nWeekly exercises.");
    expect(algebraGoal.linkedTasks.map((task) => [task.title, task.status, task.dueAt]).sort()).toEqual([
      ["Exercise sheet 1", "done", "2026-03-10T23:00:00.000Z"],
      ["Quiz retake", "todo", "2026-04-01T10:00:00.000Z"],
      ["Reading log", "todo", null],
    ]);
    expect(algebraGoal.progress).toBe(33);
    const tasks = await tasksOf(alice);
    expect(tasks.find((task) => task.title === "Exercise sheet 1")!.description).toBe("Solve all problems.");
    // Complete but failed: stays open, and says so.
    expect(tasks.find((task) => task.title === "Quiz retake")!.description).toBe(
      "Second try\n\nMoodle: completed, but not passed (complete fail).",
    );
    expect(tasks.find((task) => task.title === "Essay")!.status).toBe("done");

    // The calls were Moodle's: form-encoded, JSON asked for, the course ids as a PHP array.
    const assignmentsCall = moodle.calls.find(
      (call) => call.wsfunction === "mod_assign_get_assignments" && (call.params.courseids as number[]).includes(algebra.id),
    );
    expect(assignmentsCall!.params.courseids).toEqual([algebra.id, history.id]);

    const grades = expectShape(
      gradeListOutput,
      (await api(`/learning/grades?connectionId=${connection.id}`, { token: alice.token })).body,
    );
    const sheetTask = tasks.find((task) => task.title === "Exercise sheet 1")!;
    expect(grades.items).toEqual([
      expect.objectContaining({
        courseId: String(algebra.id),
        goalId: algebraGoal.id,
        itemId: "9001",
        name: "Exercise sheet 1",
        assignmentId: String(sheet.id),
        taskId: sheetTask.id,
        grade: 87.5,
        gradeMax: 100,
        percentage: "87.50 %",
        feedback: "Well done",
        gradedAt: "2026-03-12T09:00:00.000Z",
      }),
      expect.objectContaining({ itemId: "9002", name: "Course total", type: "course", grade: null, taskId: null }),
    ]);

    const courses = expectShape(courseListOutput, (await api("/learning/courses", { token: alice.token })).body);
    expect(courses.moodleUserId).toBe(userId);
    expect(courses.items.map((each) => [each.fullname, each.goalId])).toEqual([
      ["Linear Algebra", algebraGoal.id],
      ["World History", goals.find((goal) => goal.title === "World History")!.id],
    ]);
    expect(courses.items[0]!.url).toBe(`${moodle.url}/course/view.php?id=${algebra.id}`);

    // Again: nothing new. Then Moodle changes a due date (to none), a name, and the course completes.
    const again = await runImport(alice, connection.id);
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: 6, failed: 0 });
    algebra.assignments[1]!.name = "Reading journal";
    algebra.assignments[0]!.duedate = 0;
    algebra.completion = true;
    const changed = await runImport(alice, connection.id);
    expect(changed.counts).toMatchObject({ created: 0, updated: 3, unchanged: 3 });
    const after = await tasksOf(alice);
    expect(after.map((task) => [task.title, task.due_at])).toEqual([
      ["Essay", "2026-02-20T12:00:00.000Z"],
      ["Exercise sheet 1", null],
      ["Quiz retake", "2026-04-01T10:00:00.000Z"],
      ["Reading journal", null],
    ]);
    expect((await goalsOf(alice)).map((goal) => goal.status)).toEqual(["achieved", "achieved"]);
    expect(await server.sql("select 1 from goals where owner_id = $1", [alice.user.id])).toHaveLength(2);
  });

  test("one course's exception fails that course alone (partial); no completion criteria is not a failure; warnings become notes", async () => {
    const bob = await registerUser(server);
    const { token, userId } = student();
    course(userId, {
      fullname: "No criteria",
      completion: "nocriteriaset",
      assignments: [{ id: newId(), cmid: 701, name: "Lab report", duedate: 0, intro: "" }],
    });
    const broken = course(userId, {
      fullname: "Locked course",
      fail: {
        wsfunction: "gradereport_user_get_grade_items",
        exception: "required_capability_exception",
        errorcode: "nopermissions",
        message: "Sorry, but you do not currently have permissions to do that (View your own grade report).",
      },
    });
    const hidden = course(userId, { fullname: "Assignments hidden", assignWarning: true });
    const connection = await connect(bob, token);
    const result = await runImport(bob, connection.id);
    expect(result.status).toBe("partial");
    expect(result.counts).toMatchObject({ created: 3, failed: 1 });
    expect(result.items.find((item) => item.externalId === String(hidden.id))).toMatchObject({
      action: "created",
      note: "1: No access rights in module context",
    });
    expect(result.items[0]).toMatchObject({ entity: "course", externalId: String(broken.id), action: "failed" });
    expect(result.items[0]!.error).toContain("nopermissions");
    expect(result.error).toBe("1 of 4 items failed");
    expect((await goalsOf(bob)).map((goal) => goal.title).sort()).toEqual(["Assignments hidden", "No criteria"]);

    // Once Moodle lets it through, the next run brings it in, the rest unchanged.
    delete broken.fail;
    const fixed = await runImport(bob, connection.id);
    expect(fixed).toMatchObject({ status: "succeeded", counts: { created: 1, unchanged: 3, failed: 0 } });
  });

  test("a task or goal deleted here is not created again when Moodle's side changes", async () => {
    const jane = await registerUser(server);
    const { token, userId } = student();
    const physics = course(userId, {
      fullname: "Physics",
      assignments: [
        { id: newId(), cmid: 901, name: "Pendulum lab", duedate: 0, intro: "" },
        { id: newId(), cmid: 902, name: "Optics lab", duedate: 0, intro: "" },
      ],
    });
    const connection = await connect(jane, token);
    await runImport(jane, connection.id);
    const pendulum = (await tasksOf(jane)).find((task) => task.title === "Pendulum lab")!;
    expect((await api(`/tasks/${pendulum.id}`, { token: jane.token, method: "DELETE" })).status).toBe(204);

    physics.assignments[0]!.name = "Pendulum lab (revised)";
    physics.assignments[1]!.name = "Optics lab (revised)";
    const rerun = await runImport(jane, connection.id);
    expect(rerun.items.find((item) => item.externalId === String(physics.assignments[0]!.id))).toMatchObject({
      action: "skipped",
      note: "its task was deleted here: not created again",
    });
    expect((await tasksOf(jane)).map((task) => task.title)).toEqual(["Optics lab (revised)"]);

    const [goal] = await goalsOf(jane);
    expect((await api(`/goals/${goal!.id}`, { token: jane.token, method: "DELETE" })).status).toBe(204);
    physics.fullname = "Physics I";
    const third = await runImport(jane, connection.id);
    expect(third.items.find((item) => item.entity === "course")).toMatchObject({ action: "skipped" });
    expect(await goalsOf(jane)).toEqual([]);
    expect(third.status).toBe("succeeded");
  });

  test("an invalid token: the check says not authenticated; the run fails and is not retried", async () => {
    const carol = await registerUser(server);
    const connection = await connect(carol, "0123456789abcdef0123456789abcdef");
    const status = expectShape(
      statusOutput,
      (await api(`/learning/status?connectionId=${connection.id}`, { token: carol.token })).body,
    );
    expect(status).toMatchObject({ reachable: true, authenticated: false });
    expect(status.error).toContain("invalidtoken");
    expect((await api(`/connectors/${connection.id}`, { token: carol.token })).body.status).toBe("error");

    const run = await runImport(carol, connection.id);
    expect(run).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(run.error).toContain("invalidtoken");
    expectProblem(await api(`/learning/courses?connectionId=${connection.id}`, { token: carol.token }), 503, "unavailable");
  });

  test("the check names the site, the release and the functions the token's service lacks", async () => {
    const dave = await registerUser(server);
    const { token, userId } = student(ALL_FUNCTIONS.filter((name) => name !== "gradereport_user_get_grade_items"));
    const connection = await connect(dave, token);
    const status = expectShape(statusOutput, (await api("/learning/status", { token: dave.token })).body);
    expect(status).toMatchObject({ reachable: true, authenticated: true, version: "4.5 (Build: 20241007)" });
    expect(status.details).toMatchObject({
      siteName: "Spolu Test Academy",
      tokenUserId: userId,
      syncedUserId: userId,
      missingFunctions: ["gradereport_user_get_grade_items"],
    });
    expect(status.error).toContain("gradereport_user_get_grade_items");

    // Without the function, each course's call is refused: an access exception fails the run, not retried.
    course(userId);
    const run = await runImport(dave, connection.id);
    expect(run).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(run.error).toContain("accessexception");
  });

  test("Moodle answering too slowly fails the run for a retry, which imports once it answers", async () => {
    const erin = await registerUser(server);
    const { token, userId } = student();
    course(userId, { fullname: "Slow course" });
    const connection = await connect(erin, token, { userId });
    moodle.delayMs = 1500;
    const slow = await runImport(erin, connection.id);
    expect(slow.status).toBe("failed");
    expect(slow.error).toContain("did not answer within 400 ms");
    expect(slow.nextAttemptAt).not.toBeNull();

    moodle.delayMs = 0;
    advanceClock(RETRY_DELAYS_MS[0] + 1000);
    expect(await runConnectorRetries()).toBeGreaterThanOrEqual(1);
    const [retried] = (await api(`/connectors/${connection.id}/runs`, { token: erin.token })).body.items;
    expect(retried).toMatchObject({ id: slow.id, status: "succeeded", attempt: 2, counts: { created: 1 } });
    expect((await goalsOf(erin)).map((goal) => goal.title)).toEqual(["Slow course"]);
  });

  test("HTTP 503 from the site is retried; a wrong address (404) or an answer that is not JSON is not", async () => {
    const frank = await registerUser(server);
    const { token, userId } = student();
    const connection = await connect(frank, token, { userId });
    moodle.httpStatus = 503;
    const failed = await runImport(frank, connection.id);
    expect(failed.error).toContain("HTTP 503");
    expect(failed.nextAttemptAt).not.toBeNull();
    moodle.httpStatus = 0;

    const wrong = await connect(frank, token, { userId });
    await api(`/connectors/${wrong.id}`, { token: frank.token, method: "PATCH", json: { baseUrl: `${moodle.url}/moodle` } });
    const lost = await runImport(frank, wrong.id);
    expect(lost).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(lost.error).toContain("HTTP 404");

    moodle.ignoreFormat = true;
    const notJson = await runImport(frank, connection.id);
    expect(notJson).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(notJson.error).toContain("did not answer JSON");
    moodle.ignoreFormat = false;

    // The site's default format is XML: a call without moodlewsrestformat=json gets XML, which the client refuses.
    const xml = await fetch(`${moodle.url}/webservice/rest/server.php`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `wstoken=${token}&wsfunction=core_webservice_get_site_info`,
    });
    expect(await xml.text()).toMatch(/^<\?xml[\s\S]*<RESPONSE>/);
  });
});

describe("the export", () => {
  const MANUAL = "core_completion_update_activity_completion_status_manually";
  const manualCalls = () => moodle.calls.filter((call) => call.wsfunction === MANUAL);

  async function runExport(user: User, connectionId: string) {
    const response = await api(`/connectors/${connectionId}/export`, { token: user.token, method: "POST" });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(runOutput, response.body);
  }

  async function setStatus(user: User, title: string, status: string) {
    const task = (await tasksOf(user)).find((each) => each.title === title)!;
    const response = await api(`/tasks/${task.id}`, { token: user.token, method: "PATCH", json: { status } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return task.id;
  }

  const itemOf = (run: { items: { externalId: string | null }[] }, assignmentId: number) =>
    run.items.find((item) => item.externalId === String(assignmentId));

  test("POST /connectors/{id}/export – a task done here marks its manual activity complete; automatic and untracked ones are skipped with the reason; a re-run sends nothing", async () => {
    const fay = await registerUser(server);
    const { token, userId } = student();
    const [manual, automatic, untracked, already] = [newId(), newId(), newId(), newId()].map((id, index) => ({
      id,
      cmid: id + 1000,
      name: ["Manual essay", "Automatic quiz", "Untracked reading", "Already ticked"][index]!,
      duedate: 0,
      intro: "",
    }));
    const lit = course(userId, {
      fullname: "Literature",
      assignments: [manual!, automatic!, untracked!, already!],
      states: { [already!.cmid]: 1 },
      tracking: { [manual!.cmid]: 1, [automatic!.cmid]: 2, [untracked!.cmid]: 0, [already!.cmid]: 1 },
    });
    const connection = await connect(fay, token);
    expect((await runImport(fay, connection.id)).counts.created).toBe(5);
    const manualTask = await setStatus(fay, "Manual essay", "done");
    await setStatus(fay, "Automatic quiz", "done");

    moodle.calls.length = 0;
    const first = await runExport(fay, connection.id);
    expect(first).toMatchObject({ operation: "export", status: "succeeded", counts: { updated: 1, skipped: 2, unchanged: 1 } });
    expect(itemOf(first, manual!.id)).toMatchObject({ localId: manualTask, action: "updated", note: "sent: complete" });
    expect(itemOf(first, automatic!.id)).toMatchObject({ action: "skipped", note: expect.stringContaining("automatic") });
    expect(itemOf(first, untracked!.id)).toMatchObject({ action: "skipped", note: expect.stringContaining("does not track") });
    expect(itemOf(first, already!.id)).toMatchObject({ action: "unchanged" });
    expect(manualCalls().map((call) => call.params)).toEqual([{ cmid: manual!.cmid, completed: true }]);
    expect(lit.states[manual!.cmid]).toBe(1);
    expect(lit.states[automatic!.cmid] ?? 0).toBe(0);

    // Again: Moodle has it all already, nothing is sent.
    const again = await runExport(fay, connection.id);
    expect(again.counts).toMatchObject({ updated: 0, unchanged: 2, skipped: 2, failed: 0 });
    expect(manualCalls()).toHaveLength(1);

    // Reopened here: sent as incomplete.
    await setStatus(fay, "Manual essay", "todo");
    const reopened = await runExport(fay, connection.id);
    expect(itemOf(reopened, manual!.id)).toMatchObject({ action: "updated", note: "sent: incomplete" });
    expect(manualCalls().map((call) => call.params.completed)).toEqual([true, false]);
    expect(lit.states[manual!.cmid]).toBe(0);

    // Ticked in Moodle afterwards: the export does not undo it while the task has not changed here.
    lit.states[manual!.cmid] = 1;
    const ticked = await runExport(fay, connection.id);
    expect(itemOf(ticked, manual!.id)).toMatchObject({ action: "skipped", note: expect.stringContaining("changed in Moodle") });
    expect(manualCalls()).toHaveLength(2);
    expect(lit.states[manual!.cmid]).toBe(1);
  });

  test("POST /connectors/{id}/export – Moodle refusing manual completion is a skip with its reason, another refusal fails that item alone; a connection for another Moodle user sends nothing", async () => {
    const gus = await registerUser(server);
    const { token, userId } = student();
    const refused = { id: newId(), cmid: newId(), name: "Refused by Moodle", duedate: 0, intro: "" };
    const broken = { id: newId(), cmid: newId(), name: "Capability missing", duedate: 0, intro: "" };
    const fine = { id: newId(), cmid: newId(), name: "Fine one", duedate: 0, intro: "" };
    course(userId, {
      assignments: [refused],
      states: {},
      tracking: { [refused.cmid]: 1 },
      fail: {
        wsfunction: MANUAL,
        exception: "moodle_exception",
        errorcode: "cannotmanualctrack",
        message: "Cannot manually track",
      },
    });
    course(userId, {
      assignments: [broken],
      states: {},
      tracking: { [broken.cmid]: 1 },
      fail: {
        wsfunction: MANUAL,
        exception: "required_capability_exception",
        errorcode: "nopermissions",
        message: "No permission",
      },
    });
    const ok = course(userId, { assignments: [fine], states: {}, tracking: { [fine.cmid]: 1 } });
    const connection = await connect(gus, token);
    await runImport(gus, connection.id);
    for (const title of ["Refused by Moodle", "Capability missing", "Fine one"]) await setStatus(gus, title, "done");

    const run = await runExport(gus, connection.id);
    expect(run).toMatchObject({ status: "partial", counts: { updated: 1, skipped: 1, failed: 1 } });
    expect(itemOf(run, refused.id)).toMatchObject({
      action: "skipped",
      note: expect.stringMatching(/takes no manual completion.*cannotmanualctrack/),
    });
    expect(itemOf(run, broken.id)).toMatchObject({ action: "failed", error: expect.stringContaining("nopermissions") });
    expect(ok.states[fine.cmid]).toBe(1);

    // A connection syncing another Moodle user than the token's: the function would mark the token's user.
    const teacher = student();
    moodle.enrolments.set(teacher.userId, [...moodle.enrolments.get(userId)!]);
    const other = await connect(gus, teacher.token, { userId });
    await runImport(gus, other.id);
    moodle.calls.length = 0;
    const elsewhere = await runExport(gus, other.id);
    expect(elsewhere.counts).toMatchObject({ skipped: 3, updated: 0 });
    expect(elsewhere.items[0]!.note).toContain("token's own user");
    expect(manualCalls()).toEqual([]);
  });

  test("POST /connectors/{id}/export – Moodle unavailable fails the run for a retry, which sends the completion once", async () => {
    const hal = await registerUser(server);
    const { token, userId } = student();
    const essay = { id: newId(), cmid: newId(), name: "Retried essay", duedate: 0, intro: "" };
    const target = course(userId, { assignments: [essay], states: {}, tracking: { [essay.cmid]: 1 } });
    const connection = await connect(hal, token);
    await runImport(hal, connection.id);
    await setStatus(hal, "Retried essay", "done");

    moodle.httpStatus = 503;
    const failed = await runExport(hal, connection.id);
    expect(failed).toMatchObject({ status: "failed", nextAttemptAt: expect.any(String) });
    expect(target.states[essay.cmid] ?? 0).toBe(0);

    moodle.httpStatus = 0;
    moodle.calls.length = 0;
    advanceClock(RETRY_DELAYS_MS[0] + 1000);
    expect(await runConnectorRetries()).toBeGreaterThanOrEqual(1);
    const [retried] = (await api(`/connectors/${connection.id}/runs`, { token: hal.token })).body.items;
    expect(retried).toMatchObject({
      id: failed.id,
      operation: "export",
      status: "succeeded",
      attempt: 2,
      counts: { updated: 1 },
    });
    expect(target.states[essay.cmid]).toBe(1);
    expect(manualCalls()).toHaveLength(1);
  });
});

describe("the webhook", () => {
  test("a Moodle event re-imports its course; another user's event and a course not enrolled are skipped", async () => {
    const grace = await registerUser(server);
    const { token, userId } = student();
    const first = course(userId, {
      fullname: "Chemistry",
      assignments: [{ id: newId(), cmid: 801, name: "Titration report", duedate: 0, intro: "" }],
    });
    const connection = await connect(grace, token);
    await runImport(grace, connection.id);

    first.assignments[0]!.duedate = SECONDS("2026-05-05T10:00:00Z");
    first.states[801] = 1;
    first.grades = [
      {
        id: 9100,
        itemname: "Titration report",
        itemtype: "mod",
        itemmodule: "assign",
        iteminstance: first.assignments[0]!.id,
        graderaw: 9,
        gradeformatted: "9.00",
        grademin: 0,
        grademax: 10,
        percentageformatted: "90.00 %",
        feedback: "",
        gradedategraded: SECONDS("2026-05-06T10:00:00Z"),
      },
    ];
    const before = moodle.calls.length;
    const post = (payload: Record<string, unknown>) => {
      const body = JSON.stringify(payload);
      return api(`/connectors/${connection.id}/webhook`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-hub-signature-256": sign(connection.webhookSecret, body) },
      });
    };
    const graded = await post({
      eventname: "\\core\\event\\user_graded",
      courseid: first.id,
      contextinstanceid: 801,
      userid: 2,
      relateduserid: userId,
    });
    expect(graded.status, JSON.stringify(graded.body)).toBe(200);
    expect(graded.body.run).toMatchObject({ operation: "webhook", status: "succeeded", counts: { updated: 1, unchanged: 1 } });
    // Only that course was asked about.
    const asked = moodle.calls.slice(before).filter((call) => call.wsfunction === "mod_assign_get_assignments");
    expect(asked.map((call) => call.params.courseids)).toEqual([[first.id]]);
    expect((await tasksOf(grace))[0]).toMatchObject({
      title: "Titration report",
      status: "done",
      due_at: "2026-05-05T10:00:00.000Z",
    });
    expect((await api(`/learning/grades?courseId=${first.id}`, { token: grace.token })).body.items[0]).toMatchObject({
      grade: 9,
      percentage: "90.00 %",
    });

    const other = await post({
      eventname: "\\mod_assign\\event\\assessable_submitted",
      courseid: first.id,
      contextinstanceid: 801,
      userid: userId + 1000,
    });
    expect(other.body.run).toMatchObject({ status: "succeeded", counts: { skipped: 1 } });
    const notMine = await post({ eventname: "\\core\\event\\course_completed", courseid: 999_999, userid: userId });
    expect(notMine.body.run).toMatchObject({ status: "succeeded", counts: { skipped: 1 } });
    const malformed = await post({ eventname: "\\core\\event\\course_completed" });
    expect(malformed.body.run).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(malformed.body.run.error).toContain("courseid");
  });
});

describe("the learning routes", () => {
  test("another user's connection is a 404; several connections need a connectionId; bad input is a 400", async () => {
    const henry = await registerUser(server);
    const stranger = await registerUser(server);
    const { token } = student();
    const connection = await connect(henry, token);
    for (const path of ["status", "courses", "grades"]) {
      expectProblem(await api(`/learning/${path}?connectionId=${connection.id}`, { token: stranger.token }), 404, "not_found");
      expectProblem(await api(`/learning/${path}`, { token: stranger.token }), 404, "not_found");
    }
    const bad = expectProblem(await api("/learning/grades?connectionId=nope", { token: henry.token }), 400, "validation_failed");
    expect(bad.errors!.map((error) => error.pointer)).toEqual(["/connectionId"]);
    expectProblem(await api("/learning/grades?courseId=abc", { token: henry.token }), 400, "validation_failed");

    await connect(henry, token);
    const several = expectProblem(await api("/learning/grades", { token: henry.token }), 400, "validation_failed");
    expect(several.errors!.map((error) => error.pointer)).toEqual(["/connectionId"]);
    expect((await api(`/learning/grades?connectionId=${connection.id}`, { token: henry.token })).body).toEqual({
      connectionId: connection.id,
      items: [],
    });

    const badToken = await api("/connectors", {
      token: henry.token,
      json: { kind: "learning", name: "M", baseUrl: moodle.url, credentials: { token: "has spaces in it!" } },
    });
    expect(expectProblem(badToken, 400, "validation_failed").errors!.map((error) => error.pointer)).toContain(
      "/credentials/token",
    );
    const badUser = await api("/connectors", {
      token: henry.token,
      json: { kind: "learning", name: "M", baseUrl: moodle.url, credentials: { token }, settings: { userId: -3 } },
    });
    expect(expectProblem(badUser, 400, "validation_failed").errors!.map((error) => error.pointer)).toContain("/settings/userId");
  });

  test("while the learning module is off its routes and connections answer 404 module_disabled", async () => {
    const ivy = await registerUser(server);
    const { token } = student();
    const connection = await connect(ivy, token);
    moduleOverrides().set("learning", false);
    for (const path of ["/learning/status", "/learning/courses", "/learning/grades", `/connectors/${connection.id}`]) {
      expectProblem(await api(path, { token: ivy.token }), 404, "module_disabled");
    }
    moduleOverrides().delete("learning");
    expect((await api("/learning/grades", { token: ivy.token })).status).toBe(200);
  });
});
