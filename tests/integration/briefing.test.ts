import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { briefingOutput } from "../../lib/assistant/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { moduleOverrides } from "../../lib/modules/registry";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * GET /briefing with the built-in assistant and an injected clock: the day is the user's (New York here, while
 * the same instant is already the next day in Prague), overdue items, goal progress (derived from linked tasks
 * or set by hand), the spaced-repetition cards due by the end of the day (none while that module is off), and a
 * narrative naming the user's own tasks.
 */

const NEW_YORK = "America/New_York";
// Thursday 2026-02-12, 05:00 in New York (UTC−5).
const NOW = "2026-02-12T10:00:00Z";

let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;
let me: User;
let other: User;
const titles = (tasks: { title: string }[]) => tasks.map((task) => task.title);
const api = (path: string, options?: Parameters<TestServer["request"]>[1]) => server.request(`/api/v1${path}`, options);

async function addGoal(
  user: User,
  fields: { title: string; progress?: number; targetDate?: string; status?: string },
): Promise<string> {
  const [goal] = await server.sql<{ id: string }>(
    "insert into goals (owner_id, title, progress, target_date, status, created_at) values ($1, $2, $3, $4, $5, $6) returning id",
    [user.user.id, fields.title, fields.progress ?? 0, fields.targetDate ?? null, fields.status ?? "active", NOW],
  );
  return goal!.id;
}

async function setStatus(user: User, taskId: string, status: string) {
  expect((await api(`/tasks/${taskId}`, { method: "PATCH", token: user.token, json: { status } })).status).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer();
  resetClock();
  advanceClock(Date.parse(NOW) - Date.now());
  me = await registerUser(server, { timeZone: NEW_YORK });
  other = await registerUser(server, { timeZone: NEW_YORK });
  await createTask(server, other.token, { title: "Zebra secret of the other user", dueAt: "2026-02-12T15:00:00Z" });
  await createTask(server, me.token, { title: "Morning run", dueAt: "2026-02-12T12:00:00Z" }); // 07:00 today
  await createTask(server, me.token, { title: "Night owl post", dueAt: "2026-02-12T23:30:00Z" }); // 18:30 today (the 13th in Prague)
  await createTask(server, me.token, { title: "Early report", dueAt: "2026-02-12T08:00:00Z" }); // 03:00 today, passed
  await createTask(server, me.token, { title: "Yesterday's call", dueAt: "2026-02-11T20:00:00Z" });
  await createTask(server, me.token, { title: "Tomorrow's dentist", dueAt: "2026-02-13T15:00:00Z" });
  await createTask(server, me.token, { title: "Undated idea" });
  const done = await createTask(server, me.token, { title: "Already done today", dueAt: "2026-02-12T14:00:00Z" });
  await setStatus(me, done.id, "done");

  // Marathon: two of three linked tasks count (one is cancelled), one of them is done: 50 %.
  const marathon = await addGoal(me, { title: "Marathon", progress: 5, targetDate: "2026-05-01" });
  const linked = [
    await createTask(server, me.token, { title: "Long run 1" }),
    await createTask(server, me.token, { title: "Long run 2" }),
    await createTask(server, me.token, { title: "Long run 3" }),
  ];
  await setStatus(me, linked[0]!.id, "done");
  await setStatus(me, linked[1]!.id, "cancelled");
  for (const task of linked) await server.sql("insert into goal_tasks (goal_id, task_id) values ($1, $2)", [marathon, task.id]);
  await addGoal(me, { title: "Spanish", progress: 30, targetDate: "2026-03-01" });
  await addGoal(me, { title: "Paused hobby", progress: 10, status: "paused" });
  await addGoal(other, { title: "Zebra goal" });
});
afterAll(async () => {
  resetClock();
  await server.close();
});

describe("GET /briefing", () => {
  test("today in the user's time zone: their tasks due today, overdue ones, active goals, no cards to review", async () => {
    const response = await api("/briefing", { token: me.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const briefing = expectShape(briefingOutput, response.body);
    expect(briefing).toMatchObject({
      date: "2026-02-12",
      timeZone: NEW_YORK,
      reviews: [],
      reviewsDue: 0,
      reviewsAvailable: true,
      answeredBy: { provider: "built-in" },
      fallbackReason: null,
    });
    expect(titles(briefing.today)).toEqual(["Early report", "Morning run", "Night owl post"]);
    expect(titles(briefing.overdue)).toEqual(["Yesterday's call"]);
    expect(briefing.goals).toEqual([
      expect.objectContaining({ title: "Spanish", progress: 30, progressMode: "manual", targetDate: "2026-03-01" }),
      expect.objectContaining({ title: "Marathon", progress: 50, progressMode: "tasks", targetDate: "2026-05-01" }),
    ]);
    expect(briefing.narrative).toBe(
      "3 tasks are due on Thursday, February 12. 1 task is overdue. Start with “Yesterday's call”. Your goal “Spanish” is at 30%; its target date is Sunday, March 1.",
    );
    expect(JSON.stringify(briefing)).not.toContain("Zebra");
  });

  test("another day: that day's tasks, and what is overdue by now", async () => {
    const briefing = expectShape(briefingOutput, (await api("/briefing?date=2026-02-13&lang=ru", { token: me.token })).body);
    expect(briefing.date).toBe("2026-02-13");
    expect(titles(briefing.today)).toEqual(["Tomorrow's dentist"]);
    expect(titles(briefing.overdue)).toEqual(["Yesterday's call", "Early report"]);
    expect(briefing.narrative).toMatch(
      /^На 13 февраля \(пятница\) запланирована 1 задача\. 2 задачи просрочены\. Начните с «Yesterday's call»\./,
    );
  });

  test("each user's own; a bad date is a 400 naming it; signed out is a 401", async () => {
    const theirs = expectShape(briefingOutput, (await api("/briefing", { token: other.token })).body);
    expect(titles(theirs.today)).toEqual(["Zebra secret of the other user"]);
    expect(theirs.goals.map((goal) => goal.title)).toEqual(["Zebra goal"]);
    expect(
      expectProblem(await api("/briefing?date=2026-02-30", { token: me.token }), 400, "validation_failed").errors?.[0]?.pointer,
    ).toBe("/date");
    expectProblem(await api("/briefing"), 401, "unauthenticated");
  });
});

describe("GET /briefing – spaced-repetition reviews", () => {
  test("the cards due by the end of the day: counted, the first 5 named, the longest due first; none of anyone else's", async () => {
    const learner = await registerUser(server, { timeZone: NEW_YORK });
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const card = await api("/review-cards", {
        token: learner.token,
        json: { front: `Word ${i}`, back: `Slovo ${i}`, deck: "Czech" },
      });
      expect(card.status, JSON.stringify(card.body)).toBe(201);
      ids.push(card.body.id);
    }
    // Word 1 due two days ago, word 2 yesterday, word 3 tonight at 23:00 (New York), word 4 tomorrow; the rest now.
    const dueAt = ["2026-02-10T12:00:00Z", "2026-02-11T12:00:00Z", "2026-02-13T04:00:00Z", "2026-02-13T06:00:00Z"];
    for (const [i, due] of dueAt.entries()) await server.sql("update review_cards set due = $2 where id = $1", [ids[i], due]);
    await api("/review-cards", { token: other.token, json: { front: "Zebra card", back: "of the other user" } });

    const briefing = expectShape(briefingOutput, (await api("/briefing", { token: learner.token })).body);
    expect(briefing).toMatchObject({ reviewsAvailable: true, reviewsDue: 6 });
    expect(briefing.reviews.map((review) => review.front)).toEqual(["Word 1", "Word 2", "Word 5", "Word 6", "Word 7"]);
    expect(briefing.reviews[0]).toEqual({ id: ids[0], front: "Word 1", deck: "Czech", dueAt: "2026-02-10T12:00:00.000Z" });
    expect(briefing.narrative).toMatch(/ 6 cards are waiting for review\.$/);
    expect(JSON.stringify(briefing)).not.toContain("Zebra");

    // Tomorrow's briefing counts tomorrow's card too; reviewing one takes it out.
    expect(expectShape(briefingOutput, (await api("/briefing?date=2026-02-13", { token: learner.token })).body).reviewsDue).toBe(
      7,
    );
    expect((await api(`/review-cards/${ids[0]}/reviews`, { token: learner.token, json: { grade: "easy" } })).status).toBe(201);
    const after = expectShape(briefingOutput, (await api("/briefing", { token: learner.token })).body);
    expect(after.reviewsDue).toBe(5);
    expect(after.reviews.map((review) => review.front)).not.toContain("Word 1");
  });

  test("while the spaced-repetition module is off: no reviews and reviewsAvailable false; the cards come back after", async () => {
    const learner = await registerUser(server, { timeZone: NEW_YORK });
    expect((await api("/review-cards", { token: learner.token, json: { front: "Hola", back: "Hello" } })).status).toBe(201);
    moduleOverrides().set("spaced-repetition", false);
    try {
      const briefing = expectShape(briefingOutput, (await api("/briefing", { token: learner.token })).body);
      expect(briefing).toMatchObject({ reviews: [], reviewsDue: 0, reviewsAvailable: false });
      expect(briefing.narrative).not.toMatch(/review/);
    } finally {
      moduleOverrides().delete("spaced-repetition");
    }
    expect(expectShape(briefingOutput, (await api("/briefing", { token: learner.token })).body)).toMatchObject({
      reviewsDue: 1,
      reviewsAvailable: true,
    });
  });
});
