import { randomUUID } from "node:crypto";
import { advanceClock, resetClock } from "../../lib/clock";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { appliedStudyPlanOutput, goalOutput, studyPlanOutput } from "../../lib/goals/schema";
import { taskListOutput, taskOutput } from "../../lib/tasks/schema";
import { startChatCompletionsServer, type ChatCompletionsServer } from "./chat-completions-server";
import {
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";

/*
 * Study plans (lib/goals/study-plan.ts): the built-in planner on seeded goals (its sessions, dates and steps), the
 * AI endpoint against a local chat-completions server (valid, fenced, invalid and ill-shaped answers, an error
 * answer, a timeout, the daily budget, and prompts that hold this goal only), and applying a plan: one task per
 * session with its steps as subtasks, all or none, once per version.
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;
const ZONE = "Europe/Prague";
const DESCRIPTION = "- Grammar: the four cases\n- Vocabulary for work and travel.\n* Listening to podcasts";
const TOPICS = ["Grammar: the four cases", "Vocabulary for work and travel", "Listening to podcasts"];

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

/** A local date in a time zone, `days` from today there. */
function localDate(timeZone: string, days = 0): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(),
  );
  return addDays(today, days);
}

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** Every date from `from` to `to` whose ISO weekday is in `weekdays` (1 Monday … 7 Sunday). */
function datesBetween(from: string, to: string, weekdays: number[]): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    if (weekdays.includes(new Date(`${date}T00:00:00Z`).getUTCDay() || 7)) dates.push(date);
  }
  return dates;
}

async function createGoal(who: User, json: Record<string, unknown>) {
  const response = await api("/goals", { token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(goalOutput, response.body);
}

async function generate(who: User, goalId: string, json: Record<string, unknown> = {}) {
  const response = await api(`/goals/${goalId}/study-plan`, { token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(studyPlanOutput, response.body);
}

async function apply(who: User, goalId: string) {
  const response = await api(`/goals/${goalId}/study-plan/apply`, { token: who.token, method: "POST" });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(appliedStudyPlanOutput, response.body);
}

const wallClock = (instant: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(new Date(instant))
    .replace(",", "");

describe("/goals/{id}/study-plan with the built-in planner (no AI endpoint)", () => {
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("plans a session per topic on Mondays, Wednesdays and Fridays up to the target date, with reviews and a final review", async () => {
    const owner = await registerUser(server, { timeZone: ZONE, locale: "en" });
    const target = localDate(ZONE, 20);
    const goal = await createGoal(owner, { title: "Pass the B2 German exam", description: DESCRIPTION, targetDate: target });
    const plan = await generate(owner, goal.id);

    const today = localDate(ZONE);
    expect(plan).toMatchObject({
      goalId: goal.id,
      version: 1,
      answeredBy: { provider: "built-in" },
      fallbackReason: null,
      timeZone: ZONE,
      startDate: today,
      endDate: target,
      appliedAt: null,
    });
    // Czech public holidays are skipped (the time zone is Prague's); the test below pins a period with some.
    expect(plan).toMatchObject({ weekdays: null, holidayCountry: "CZ" });
    const holidays = new Set(plan.skippedHolidays.map((holiday) => holiday.date));
    const days = datesBetween(today, target, [1, 3, 5]).filter((date) => !holidays.has(date));
    expect(plan.sessions.map((session) => session.date)).toEqual(days);

    expect(plan.sessions[0]).toEqual({
      date: days[0],
      title: "Grammar: the four cases",
      steps: [
        "Work through “Grammar: the four cases”: read or watch one good source and take notes",
        "Practise “Grammar: the four cases” for 25 minutes with exercises",
        "Write down what is still unclear about “Grammar: the four cases”",
      ],
    });
    // The topics in turn, round after round; a review of the block just studied about every fourth session.
    const last = plan.sessions.at(-1)!;
    const studies = plan.sessions.slice(0, -1).filter((session) => !session.title.startsWith("Review: "));
    studies.forEach((session, index) => {
      const topic = TOPICS[index % TOPICS.length]!;
      const round = Math.floor(index / TOPICS.length) + 1;
      expect(session.title).toBe(round === 1 ? topic : `${topic} (round ${round})`);
      if (round > 1) expect(session.steps).toContain(`Test yourself on “${topic}” without your notes`);
    });
    expect(studies.length).toBeGreaterThanOrEqual(TOPICS.length);
    plan.sessions.forEach((session, index) => {
      if (session.title.startsWith("Review: "))
        expect(session.title).toContain(plan.sessions[index - 1]!.title.replace(/ \(round \d+\)$/, ""));
    });
    expect(plan.sessions.length - 1 - studies.length).toBe(Math.floor((days.length - 1) / 4));
    expect(last.title).toBe("Final review: Pass the B2 German exam");
    expect(last.steps.at(-1)).toBe("Check how close you are to the goal and add a progress report");

    expect((await api(`/goals/${goal.id}/study-plan`, { token: owner.token })).body).toEqual(plan);
  });

  test("is deterministic: regenerating gives the same sessions as the next version", async () => {
    const owner = await registerUser(server, { timeZone: ZONE });
    const goal = await createGoal(owner, {
      title: "Learn to juggle",
      description: "Two balls. Three balls. Five minutes without a drop!",
    });
    const first = await generate(owner, goal.id);
    const second = await generate(owner, goal.id);
    expect(second.version).toBe(2);
    expect(second.sessions).toEqual(first.sessions);
    expect(second.createdAt).toBe(first.createdAt);
    // A one-line description is cut into sentences; without a target date the plan covers 4 weeks.
    expect(first.endDate).toBe(localDate(ZONE, 27));
    expect(first.sessions.slice(0, 3).map((session) => session.title)).toEqual([
      "Two balls",
      "Three balls",
      "Five minutes without a drop",
    ]);
    // Monday, Wednesday and Friday, less the Czech public holidays in the period (Christmas, from late November on).
    const holidays = new Set(first.skippedHolidays.map((holiday: { date: string }) => holiday.date));
    expect(first.sessions.map((session) => session.date)).toEqual(
      datesBetween(localDate(ZONE), localDate(ZONE, 27), [1, 3, 5]).filter((date) => !holidays.has(date)),
    );
  });

  test("starts with the open tasks linked to the goal; the goal's title is the topic without a description", async () => {
    const owner = await registerUser(server, { timeZone: ZONE });
    const goal = await createGoal(owner, { title: "Renovate the kitchen" });
    const open = await createTask(server, owner.token, { title: "Order the tiles" });
    const done = await createTask(server, owner.token, { title: "Measure the walls", status: "done" });
    for (const task of [open, done])
      expect((await api(`/goals/${goal.id}/tasks/${task.id}`, { method: "PUT", token: owner.token })).status).toBe(200);
    const plan = await generate(owner, goal.id);
    expect(plan.sessions[0]).toMatchObject({
      title: "Renovate the kitchen",
      steps: [
        "Look at the open task linked to this goal: Order the tiles",
        expect.stringContaining("“Renovate the kitchen”"),
        expect.any(String),
        expect.any(String),
      ],
    });
    expect(JSON.stringify(plan)).not.toContain("Measure the walls");
  });

  test("with fewer days than topics, topics share sessions; the target date is the last day", async () => {
    const owner = await registerUser(server, { timeZone: ZONE });
    const goal = await createGoal(owner, { title: "Cram for the quiz", description: DESCRIPTION, targetDate: localDate(ZONE) });
    const plan = await generate(owner, goal.id);
    expect(plan.sessions).toHaveLength(1);
    expect(plan.sessions[0]!.date).toBe(localDate(ZONE));
    expect(plan.sessions[0]!.title).toBe("Grammar: the four cases, Vocabulary for work and travel, and Listening to podcasts");
    for (const topic of TOPICS) expect(plan.sessions[0]!.steps.some((step) => step.includes(`“${topic}”`))).toBe(true);
    expect(plan.sessions[0]!.steps.at(-1)).toBe("Check how close you are to the goal and add a progress report");
  });

  test("on the days of the week asked for, never on a public holiday of the time zone's country, which the plan names", async () => {
    const owner = await registerUser(server, { timeZone: ZONE, locale: "en" });
    // Monday 21 December 2026, 09:00 in Prague: Christmas Day and New Year's Day are Fridays.
    advanceClock(Date.parse("2026-12-21T08:00:00Z") - Date.now());
    try {
      const goal = await createGoal(owner, { title: "Read three books", description: "One\nTwo", targetDate: "2027-01-15" });
      const fridays = await generate(owner, goal.id, { weekdays: [5] });
      expect(fridays.sessions.map((session) => session.date)).toEqual(["2027-01-08", "2027-01-15"]);
      expect(fridays).toMatchObject({
        weekdays: [5],
        holidayCountry: "CZ",
        skippedHolidays: [
          { date: "2026-12-25", name: "Christmas Day" },
          { date: "2027-01-01", name: "New Year's Day" },
        ],
      });

      // Without the holidays (null), the Fridays are all there; the days are kept sorted.
      const all = await generate(owner, goal.id, { weekdays: [5, 2], holidayCountry: null });
      expect(all.sessions.map((session) => session.date)).toContain("2026-12-25");
      expect(all).toMatchObject({ weekdays: [2, 5], holidayCountry: null, skippedHolidays: [] });

      // Another country's holidays: Israel's calendar has none of these, so Christmas is a session day again.
      const israel = await generate(owner, goal.id, { weekdays: [5], holidayCountry: "IL" });
      expect(israel.sessions.map((session) => session.date)).toContain("2026-12-25");
      expect(israel.holidayCountry).toBe("IL");
    } finally {
      resetClock();
    }
  });

  test("a time zone of no single country skips no holidays; bad days of the week or countries are 400s naming the field", async () => {
    const owner = await registerUser(server, { timeZone: "UTC" });
    const goal = await createGoal(owner, { title: "Anything", targetDate: localDate("UTC", 10) });
    expect(await generate(owner, goal.id)).toMatchObject({ holidayCountry: null, skippedHolidays: [] });
    const cases: [Record<string, unknown>, string][] = [
      [{ weekdays: [0] }, "/weekdays/0"],
      [{ weekdays: [1, 8] }, "/weekdays/1"],
      [{ weekdays: [] }, "/weekdays"],
      [{ weekdays: [3, 3] }, "/weekdays"],
      [{ holidayCountry: "cz" }, "/holidayCountry"],
      [{ holidayCountry: "ZZ" }, "/holidayCountry"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(
        await api(`/goals/${goal.id}/study-plan`, { token: owner.token, json }),
        400,
        "validation_failed",
      );
      expect(problem.errors?.[0]?.pointer, JSON.stringify(json)).toBe(pointer);
    }
  });

  test("speaks the user's language", async () => {
    const owner = await registerUser(server, { timeZone: ZONE, locale: "cs" });
    const goal = await createGoal(owner, { title: "Naučit se vařit", description: "Polévky\nOmáčky" });
    const plan = await generate(owner, goal.id);
    expect(plan.sessions[0]!.steps[0]).toBe(
      "Projděte si „Polévky“: přečtěte si nebo zhlédněte jeden dobrý zdroj a dělejte si poznámky",
    );
    expect(plan.sessions.at(-1)!.title).toBe("Závěrečné opakování: Naučit se vařit");
  });

  test("a target date that has passed is a 409; no plan yet is a 404; a bad body is a 400", async () => {
    const owner = await registerUser(server, { timeZone: ZONE });
    const goal = await createGoal(owner, { title: "Too late", targetDate: localDate(ZONE, -1) });
    expect(
      expectProblem(await api(`/goals/${goal.id}/study-plan`, { token: owner.token, json: {} }), 409, "conflict").detail,
    ).toMatch(/passed/);
    expectProblem(await api(`/goals/${goal.id}/study-plan`, { token: owner.token }), 404, "not_found");
    expectProblem(await api(`/goals/${goal.id}/study-plan/apply`, { token: owner.token, method: "POST" }), 404, "not_found");
    const bad = expectProblem(
      await api(`/goals/${goal.id}/study-plan`, { token: owner.token, json: { assistant: "gpt" } }),
      400,
      "validation_failed",
    );
    expect(bad.errors?.[0]?.pointer).toBe("/assistant");
    // Without a body at all, the default applies.
    await api(`/goals/${goal.id}`, { method: "PATCH", token: owner.token, json: { targetDate: null } });
    expect((await api(`/goals/${goal.id}/study-plan`, { token: owner.token, method: "POST" })).status).toBe(201);
  });

  test("POST /goals/{id}/study-plan/apply makes one task per session with its steps as subtasks, due that day at 18:00, linked to the goal", async () => {
    const owner = await registerUser(server, { timeZone: ZONE });
    const goal = await createGoal(owner, {
      title: "Pass the B2 German exam",
      description: DESCRIPTION,
      targetDate: localDate(ZONE, 9),
    });
    const plan = await generate(owner, goal.id);
    const applied = await apply(owner, goal.id);

    expect(applied.taskIds).toHaveLength(plan.sessions.length);
    expect(applied.studyPlan).toMatchObject({ version: 1, sessions: plan.sessions, appliedAt: expect.any(String) });
    expect(applied.goal).toMatchObject({ progressMode: "tasks", progress: 0 });
    expect(applied.goal.linkedTasks.map((task) => task.id)).toEqual(applied.taskIds);
    for (const [index, taskId] of applied.taskIds.entries()) {
      const session = plan.sessions[index]!;
      const task = expectShape(taskOutput, (await server.request(`/tasks/${taskId}`, { token: owner.token })).body);
      expect(task).toMatchObject({ title: session.title, status: "todo", startDate: session.date, ownerId: owner.user.id });
      expect(task.description).toBe(
        `Session ${index + 1} of ${plan.sessions.length} of the study plan for the goal “Pass the B2 German exam”.`,
      );
      expect(wallClock(task.dueAt!, ZONE)).toBe(`${session.date} 18:00`);
      const subtasks = (await server.request(`/tasks/${taskId}/subtasks`, { token: owner.token })).body as {
        title: string;
        done: boolean;
      }[];
      expect(subtasks.map((subtask) => subtask.title)).toEqual(session.steps);
    }
    const list = expectShape(taskListOutput, (await server.request("/tasks?limit=100", { token: owner.token })).body);
    expect(list.items.map((task) => task.id)).toEqual(expect.arrayContaining(applied.taskIds));

    // Once: a second apply changes nothing, until the plan is regenerated.
    expect(
      expectProblem(await api(`/goals/${goal.id}/study-plan/apply`, { token: owner.token, method: "POST" }), 409, "conflict")
        .detail,
    ).toMatch(/applied already/);
    const regenerated = await generate(owner, goal.id);
    expect(regenerated).toMatchObject({ version: 2, appliedAt: null });
    const again = await apply(owner, goal.id);
    expect(again.goal.linkedTasks).toHaveLength(2 * plan.sessions.length);

    // Finishing the plan's tasks moves the goal's progress.
    await server.request(`/tasks/${applied.taskIds[0]}`, { method: "PATCH", token: owner.token, json: { status: "done" } });
    const goalNow = expectShape(goalOutput, (await api(`/goals/${goal.id}`, { token: owner.token })).body);
    expect(goalNow.progress).toBe(Math.floor(100 / (2 * plan.sessions.length)));
  });

  test("a goal whose progress was set by hand is asked first: 409 progress_set_by_hand, then applied with consent", async () => {
    const owner = await registerUser(server, { timeZone: ZONE });
    const goal = await createGoal(owner, { title: "Read ten novels", targetDate: localDate(ZONE, 9) });
    const set = await api(`/goals/${goal.id}`, { method: "PATCH", token: owner.token, json: { progress: 35 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const plan = await generate(owner, goal.id);

    const asked = await api(`/goals/${goal.id}/study-plan/apply`, { method: "POST", token: owner.token });
    expectProblem(asked, 409, "progress_set_by_hand");
    expect(asked.body.detail).toContain("35 %");
    const untouched = (await api(`/goals/${goal.id}`, { token: owner.token })).body;
    expect(untouched).toMatchObject({ progress: 35, progressMode: "manual", linkedTasks: [] });
    expect((await api(`/goals/${goal.id}/study-plan`, { token: owner.token })).body.appliedAt).toBeNull();
    expectProblem(
      await api(`/goals/${goal.id}/study-plan/apply`, {
        method: "POST",
        token: owner.token,
        json: { replaceManualProgress: "yes" },
      }),
      400,
      "validation_failed",
    );

    const applied = await api(`/goals/${goal.id}/study-plan/apply`, {
      method: "POST",
      token: owner.token,
      json: { replaceManualProgress: true },
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    expect(applied.body.taskIds).toHaveLength(plan.sessions.length);
    expect(applied.body.goal).toMatchObject({ progressMode: "tasks", progress: 0 });
  });

  test("applying is all or nothing: a failure on the last session leaves no task, link or mark behind", async () => {
    const owner = await registerUser(server, { timeZone: ZONE });
    const goal = await createGoal(owner, { title: "Atomic goal", description: DESCRIPTION, targetDate: localDate(ZONE, 13) });
    await generate(owner, goal.id);
    await server.sql(
      `update study_plans set plan = jsonb_set(plan, '{sessions,-1,steps,0}', '"BOOM: the last step"') where goal_id = $1`,
      [goal.id],
    );
    await server.sql(`create function fail_on_boom() returns trigger language plpgsql as $$
      begin if new.title like 'BOOM%' then raise exception 'boom'; end if; return new; end $$`);
    await server.sql("create trigger fail_on_boom before insert on subtasks for each row execute function fail_on_boom()");
    try {
      expectProblem(await api(`/goals/${goal.id}/study-plan/apply`, { token: owner.token, method: "POST" }), 500, "internal");
    } finally {
      await server.sql("drop trigger fail_on_boom on subtasks");
      await server.sql("drop function fail_on_boom()");
    }
    expect(await server.sql("select id from tasks where owner_id = $1", [owner.user.id])).toEqual([]);
    expect(await server.sql("select task_id from goal_tasks where goal_id = $1", [goal.id])).toEqual([]);
    expect((await api(`/goals/${goal.id}/study-plan`, { token: owner.token })).body.appliedAt).toBeNull();

    const applied = await apply(owner, goal.id);
    const subtasks = (await server.request(`/tasks/${applied.taskIds.at(-1)}/subtasks`, { token: owner.token })).body as {
      title: string;
    }[];
    expect(subtasks[0]?.title).toBe("BOOM: the last step");
  });
});

describe("POST /goals/{id}/study-plan with an AI endpoint", () => {
  let ai: ChatCompletionsServer;

  beforeAll(async () => {
    ai = await startChatCompletionsServer();
    server = await startTestServer({
      AI_BASE_URL: ai.url,
      ALLOW_PRIVATE_NETWORK_TARGETS: "ai", // the endpoint listens on 127.0.0.1, as a local Ollama would
      AI_MODEL: "plan-model",
      AI_TIMEOUT_MS: "500",
      AI_DAILY_REQUESTS: "3",
    });
  });
  afterAll(async () => {
    await server?.close();
    await ai?.close();
  });
  afterEach(() => {
    ai.requests.length = 0;
    ai.fail = null;
    ai.delayMs = 0;
  });

  /** A user with a goal, a linked task, an unlinked task and another goal; and a second user with their own. */
  async function seeded() {
    const marker = randomUUID().slice(0, 8);
    const owner = await registerUser(server, { timeZone: ZONE, locale: "ru" });
    const goal = await createGoal(owner, {
      title: `Speak Italian ${marker}`,
      description: "Verbs\nFood words",
      targetDate: localDate(ZONE, 14),
    });
    const linked = await createTask(server, owner.token, { title: `Find a tandem partner ${marker}` });
    await api(`/goals/${goal.id}/tasks/${linked.id}`, { method: "PUT", token: owner.token });
    await createTask(server, owner.token, { title: `Unrelated errand ${marker}` });
    await createGoal(owner, { title: `Another goal ${marker}` });
    const stranger = await registerUser(server, { timeZone: "Asia/Tokyo" });
    await createGoal(stranger, { title: `Zebra secret goal ${marker}` });
    await createTask(server, stranger.token, { title: `Quokka secret task ${marker}` });
    return { owner, goal, marker };
  }

  const answer = (sessions: unknown) => () => JSON.stringify({ sessions });

  test("a valid JSON answer is the plan (sorted by date), from a prompt with this goal and nothing else", async () => {
    const { owner, goal, marker } = await seeded();
    ai.reply = answer([
      { date: localDate(ZONE, 2), title: "Verb drill", steps: ["Conjugate essere and avere"] },
      { date: localDate(ZONE), title: "Kick-off", steps: ["Buy a grammar book", "Plan the week"] },
    ]);
    const plan = await generate(owner, goal.id);
    expect(plan).toMatchObject({
      answeredBy: { provider: "openai-compatible", model: "plan-model" },
      fallbackReason: null,
      sessions: [
        { date: localDate(ZONE), title: "Kick-off", steps: ["Buy a grammar book", "Plan the week"] },
        { date: localDate(ZONE, 2), title: "Verb drill", steps: ["Conjugate essere and avere"] },
      ],
    });

    expect(ai.requests).toHaveLength(1);
    const request = ai.requests[0]!;
    expect(request.response_format).toEqual({ type: "json_object" });
    const prompt = request.messages.map((message) => message.content).join("\n");
    for (const fact of [
      `Speak Italian ${marker}`,
      "Verbs\\nFood words",
      `Find a tandem partner ${marker}`,
      ZONE,
      localDate(ZONE),
      localDate(ZONE, 14),
      "Russian",
      '"sessions"',
    ]) {
      expect(prompt).toContain(fact);
    }
    for (const foreign of ["Zebra", "Quokka", "Unrelated errand", "Another goal", "Asia/Tokyo"])
      expect(prompt).not.toContain(foreign);

    // Applying it makes the AI's sessions into tasks.
    const applied = await apply(owner, goal.id);
    const first = (await server.request(`/tasks/${applied.taskIds[0]}/subtasks`, { token: owner.token })).body as {
      title: string;
    }[];
    expect(first.map((subtask) => subtask.title)).toEqual(["Buy a grammar book", "Plan the week"]);
  });

  test("an answer in a Markdown code fence is accepted", async () => {
    const { owner, goal } = await seeded();
    ai.reply = () =>
      "```json\n" + JSON.stringify({ sessions: [{ date: localDate(ZONE, 1), title: "Start", steps: ["Begin"] }] }) + "\n```";
    const plan = await generate(owner, goal.id);
    expect(plan).toMatchObject({ answeredBy: { provider: "openai-compatible" }, sessions: [{ title: "Start" }] });
  });

  test("an answer that is not JSON, or not the plan's shape, falls back to the built-in planner and says why", async () => {
    const { owner, goal } = await seeded();
    ai.reply = () => "Here is your plan: study every day!";
    const notJson = await generate(owner, goal.id);
    expect(notJson).toMatchObject({ answeredBy: { provider: "built-in" }, fallbackReason: "The AI answer was not JSON" });
    expect(notJson.sessions[0]!.title).toBe("Verbs");
    expect(notJson.sessions[0]!.steps[0]).toContain("Find a tandem partner"); // the linked task, in Russian
    expect(notJson.sessions[0]!.steps[1]).toMatch(/^Разберите «Verbs»/);

    // Nothing usable at all: every session outside the period, or without steps.
    ai.reply = answer([{ date: localDate(ZONE, 30), title: "Too late", steps: ["Nothing"] }]);
    const outside = await generate(owner, goal.id);
    expect(outside.answeredBy).toEqual({ provider: "built-in" });
    expect(outside.fallbackReason).toMatch(/no usable session \(Session 1 \(.+\) was left out: it is outside/);
    expect(outside.version).toBe(2);

    ai.reply = () => JSON.stringify({ sessions: [{ date: localDate(ZONE), title: "No steps", steps: [] }] });
    expect((await generate(owner, goal.id)).fallbackReason).toMatch(
      /Session 1 was left out \(steps: must hold at least one step\)/,
    );
  });

  test("an answer with one faulty session is repaired, not thrown away: that session is left out and the plan says so", async () => {
    const { owner, goal } = await seeded();
    ai.reply = answer([
      { date: localDate(ZONE, 1), title: "Start", steps: ["Begin"] },
      { date: localDate(ZONE, 40), title: "Far too late", steps: ["Nothing"] },
      { date: localDate(ZONE, 3), title: "", steps: ["A session without a title"] },
      { date: localDate(ZONE, 5), title: "Many steps", steps: Array.from({ length: 12 }, (_, index) => `Step ${index + 1}`) },
    ]);
    const plan = await generate(owner, goal.id);
    expect(plan.answeredBy).toEqual({ provider: "openai-compatible", model: "plan-model" });
    expect(plan.fallbackReason).toBeNull();
    expect(plan.sessions.map((session) => [session.title, session.steps.length])).toEqual([
      ["Start", 1],
      ["Many steps", 10],
    ]);
    expect(plan.adjustments).toEqual([
      `Session 2 (${localDate(ZONE, 40)}) was left out: it is outside ${plan.startDate} to ${plan.endDate}`,
      "Session 3 was left out (title: must not be empty)",
      "Session 4 kept its first 10 of 12 steps",
    ]);
    // Kept with the plan: reading it again says the same.
    const stored = await api(`/goals/${goal.id}/study-plan`, { token: owner.token });
    expect(stored.body.adjustments).toEqual(plan.adjustments);
    // A plan from the built-in planner has nothing repaired.
    const builtIn = await generate(owner, goal.id, { assistant: "built-in" });
    expect(builtIn.adjustments).toEqual([]);
  });

  test("the days of the week asked for reach the prompt, and a session on another day is left out and said", async () => {
    const { owner, goal } = await seeded();
    const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
    const upcoming = Array.from({ length: 7 }, (_, index) => localDate(ZONE, index + 1));
    const monday = upcoming.find((date) => weekdayOf(date) === 1)!;
    const tuesday = upcoming.find((date) => weekdayOf(date) === 2)!;
    ai.reply = answer([
      { date: monday, title: "On Monday", steps: ["Begin"] },
      { date: tuesday, title: "On Tuesday", steps: ["Go on"] },
    ]);
    const plan = await generate(owner, goal.id, { weekdays: [1], holidayCountry: null });
    expect(
      ai.requests
        .at(-1)!
        .messages.map((message) => message.content)
        .join("\n"),
    ).toContain("Only on these ISO days of the week (1 Monday … 7 Sunday): 1.");
    expect(plan.sessions.map((session) => session.title)).toEqual(["On Monday"]);
    expect(plan.adjustments).toEqual([`Session 2 (${tuesday}) was left out: it is not on one of the days of the week asked for`]);
  });

  test("an endpoint that fails or is too slow is a 503 and keeps the previous plan; `assistant: built-in` does not ask it", async () => {
    const { owner, goal } = await seeded();
    const builtIn = await generate(owner, goal.id, { assistant: "built-in" });
    expect(builtIn.answeredBy).toEqual({ provider: "built-in" });
    expect(ai.requests).toHaveLength(0);

    ai.fail = { status: 500, message: "model overloaded" };
    const failed = expectProblem(await api(`/goals/${goal.id}/study-plan`, { token: owner.token, json: {} }), 503, "unavailable");
    expect(failed.detail).toMatch(/model overloaded/);
    ai.fail = null;
    ai.delayMs = 1500;
    expect(
      expectProblem(await api(`/goals/${goal.id}/study-plan`, { token: owner.token, json: {} }), 503, "unavailable").detail,
    ).toMatch(/did not answer/);

    expect((await api(`/goals/${goal.id}/study-plan`, { token: owner.token })).body).toEqual(builtIn);
  });

  test("a used-up daily budget is a 429; the built-in planner still answers", async () => {
    const { owner, goal } = await seeded();
    ai.reply = answer([{ date: localDate(ZONE), title: "Today", steps: ["Go"] }]);
    for (let request = 0; request < 3; request++) await generate(owner, goal.id);
    expectProblem(await api(`/goals/${goal.id}/study-plan`, { token: owner.token, json: {} }), 429, "rate_limited");
    expect((await generate(owner, goal.id, { assistant: "built-in" })).version).toBe(4);
  });
});
