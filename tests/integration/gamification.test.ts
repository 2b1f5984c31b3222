import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, now, resetClock } from "../../lib/clock";
import type { StoredDomainEvent } from "../../lib/events/types";
import { badgeListOutput, historyOutput, leaderboardOutput, profileOutput } from "../../lib/gamification/schema";
import { awardCompletion } from "../../lib/gamification/service";
import { moduleOverrides } from "../../lib/modules/registry";
import { createDueOccurrences } from "../../lib/tasks/recurring";
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
 * The gamification module over HTTP: points on time and late, exactly once per user and task (reopened and
 * completed again, the event handled twice at once), streaks on the local calendar of two time zones and over a
 * DST change (the clock moved, never slept on), levels, badges, the opt-in leaderboard and its scopes, the module
 * switched off. Awards come from the `task.completed` handler after the commit, so tests wait for them.
 */

let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());
afterEach(() => {
  resetClock();
  moduleOverrides().delete("gamification");
});

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

/** Sets the service's clock to an instant (the server runs in this process). */
function setClock(iso: string) {
  advanceClock(Date.parse(iso) - now());
}

async function profile(who: User) {
  const response = await api("/gamification/me", { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(profileOutput, response.body);
}

async function history(who: User) {
  const response = await api("/gamification/history", { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(historyOutput, response.body);
}

async function setStatus(who: User, taskId: string, status: string) {
  const response = await server.request(`/tasks/${taskId}`, { method: "PATCH", token: who.token, json: { status } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Waits (polling, up to 5 s) until the user's award count reaches `count`; answers their profile. */
async function awaitAwards(who: User, count: number) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const current = await profile(who);
    if (current.tasksCompleted >= count) return current;
    if (Date.now() > deadline) throw new Error(`expected ${count} awards, have ${current.tasksCompleted}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Creates a task and completes it; waits for its award. */
async function completeNew(who: User, fields: Record<string, unknown> = {}) {
  const before = (await profile(who)).tasksCompleted;
  const task = await createTask(server, who.token, fields);
  await setStatus(who, task.id, "done");
  await awaitAwards(who, before + 1);
  return task;
}

/** The stored `task.completed` events of a task, oldest first, as the handler receives them. */
async function completedEvents(taskId: string): Promise<StoredDomainEvent[]> {
  const rows = await server.sql<{
    id: string;
    type: string;
    actor_id: string | null;
    task_id: string;
    audience: string[] | string;
    data: unknown;
    created_at: string | Date;
  }>(
    "select id, type, actor_id, task_id, audience, data, created_at from domain_events where task_id = $1 and type = 'task.completed' order by id",
    [taskId],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    type: "task.completed",
    actorId: row.actor_id,
    taskId: row.task_id,
    audience: [],
    data: (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
  }));
}

const hoursFromNow = (hours: number) => new Date(now() + hours * 3600_000).toISOString();

describe("task.completed → points (GET /gamification/me, GET /gamification/history)", () => {
  test("GET /gamification/me – all zero before the first completed task, not on any board", async () => {
    const me = await registerUser(server);
    expect(await profile(me)).toMatchObject({
      points: 0,
      level: { level: 1, levelPoints: 0, nextLevelPoints: 50, percent: 0 },
      streak: { current: 0, longest: 0, lastActiveDate: null },
      tasksCompleted: 0,
      badgesEarned: 0,
      leaderboardOptIn: false,
      levelUps: [],
    });
  });

  test("PATCH /tasks/{id} done – on time earns 10 + 10, late only 10, urgent 10 more; history says why", async () => {
    const me = await registerUser(server);
    const onTime = await completeNew(me, { title: "On time", dueAt: hoursFromNow(2) });
    expect((await profile(me)).points).toBe(20);
    const late = await completeNew(me, { title: "Late", dueAt: hoursFromNow(-2) });
    expect((await profile(me)).points).toBe(30);
    await completeNew(me, { title: "Urgent, no due time", priority: "urgent" });
    const mine = await profile(me);
    expect(mine).toMatchObject({ points: 50, tasksCompleted: 3, onTimeCompleted: 1 });

    const items = (await history(me)).items;
    expect(items.map((item) => [item.taskTitle, item.points, item.onTime])).toEqual([
      ["Urgent, no due time", 20, null],
      ["Late", 10, false],
      ["On time", 20, true],
    ]);
    expect(items.find((item) => item.taskId === onTime.id)).toMatchObject({ basePoints: 10, onTimeBonus: 10, priorityBonus: 0 });
    expect(items.find((item) => item.taskId === late.id)).toMatchObject({ basePoints: 10, onTimeBonus: 0, priorityBonus: 0 });
  });

  test("reopening and completing again awards nothing more, also when the event is handled again", async () => {
    const me = await registerUser(server);
    const task = await completeNew(me, { dueAt: hoursFromNow(1) });
    await setStatus(me, task.id, "todo");
    await setStatus(me, task.id, "done");
    const events = await completedEvents(task.id);
    expect(events).toHaveLength(2);
    // Whatever the handler did with the second completion, handling either event again awards nothing.
    expect(await awardCompletion(events[1]!)).toBeNull();
    expect(await awardCompletion(events[0]!)).toBeNull();
    const mine = await profile(me);
    expect(mine).toMatchObject({ points: 20, tasksCompleted: 1 });
    expect(await server.sql("select 1 from gamification_awards where task_id = $1", [task.id])).toHaveLength(1);
  });

  test("the next occurrence of a recurring task is a new task: completing it earns again", async () => {
    const me = await registerUser(server);
    const first = await completeNew(me, {
      title: "Water the plants",
      dueAt: hoursFromNow(1),
      recurrence: { frequency: "daily" },
    });
    await createDueOccurrences(new Date(now()));
    const next = (await server.request("/tasks?limit=50", { token: me.token })).body.items.find(
      (task: { seriesId: string; occurrence: number }) => task.seriesId === first.seriesId && task.occurrence === 2,
    ) as { id: string };
    expect(next).toBeDefined();
    await setStatus(me, next.id, "done");
    expect(await awaitAwards(me, 2)).toMatchObject({ points: 40, tasksCompleted: 2 });
  });

  test("an assignee who completes the task earns the points, not its owner; it counts as shared (team player)", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server);
    const task = await createTask(server, owner.token, { title: "Together" });
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [task.id, helper.user.id]);
    await setStatus(helper, task.id, "done");
    await awaitAwards(helper, 1);
    expect((await profile(owner)).points).toBe(0);
    const badges = expectShape(badgeListOutput, (await api("/gamification/badges", { token: helper.token })).body).items;
    expect(badges.find((badge) => badge.id === "team_player")).toMatchObject({ earned: true });

    // Reopened, the owner completes it: they earn their own points for it, once.
    await setStatus(owner, task.id, "todo");
    await setStatus(owner, task.id, "done");
    await awaitAwards(owner, 1);
    expect((await profile(owner)).points).toBe(10);
    expect((await profile(helper)).points).toBe(10);
  });
});

describe("the gamification module switched off", () => {
  test("routes answer 404 module_disabled; a completion meanwhile never earns points; two handlers at once award once", async () => {
    const me = await registerUser(server);
    moduleOverrides().set("gamification", false);
    for (const path of ["/gamification/me", "/gamification/badges", "/gamification/leaderboard", "/gamification/history"]) {
      expectProblem(await api(path, { token: me.token }), 404, "module_disabled");
    }
    expectProblem(
      await api("/gamification/me", { method: "PATCH", token: me.token, json: { leaderboardOptIn: true } }),
      404,
      "module_disabled",
    );
    const task = await createTask(server, me.token);
    await setStatus(me, task.id, "done");
    const [event] = await completedEvents(task.id);
    // The consumers read the log after the commit, in their own time (with the embedded database on its own thread,
    // often after the PATCH has answered): once the gamification consumer's cursor has passed the event, switched
    // off, it skipped it.
    await expect
      .poll(
        async () =>
          (
            await server.sql<{ last: number }>(
              "select last_event_id::int as last from event_cursors where consumer = 'gamification'",
            )
          )[0]?.last ?? 0,
      )
      .toBeGreaterThanOrEqual(event!.id);
    moduleOverrides().delete("gamification");
    expect((await profile(me)).points).toBe(0);
    expect(await server.sql("select 1 from gamification_awards where user_id = $1", [me.user.id])).toHaveLength(0);

    // The same event delivered twice at once (two processes): one award, points once.
    const results = await Promise.all([awardCompletion(event!), awardCompletion(event!)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await profile(me)).toMatchObject({ points: 10, tasksCompleted: 1 });
  });
});

describe("GET /gamification/me – streaks", () => {
  test("count local days: 23:30 and 00:30 are two days in Tokyo, one in Los Angeles", async () => {
    setClock("2027-03-10T14:30:00Z"); // Tokyo 23:30 on the 10th; Los Angeles 07:30 on the 10th
    const tokyo = await registerUser(server, { timeZone: "Asia/Tokyo" });
    const angeles = await registerUser(server, { timeZone: "America/Los_Angeles" });
    await completeNew(tokyo);
    await completeNew(angeles);
    setClock("2027-03-10T15:30:00Z"); // Tokyo 00:30 on the 11th; Los Angeles 08:30 on the 10th
    await completeNew(tokyo);
    await completeNew(angeles);
    expect((await profile(tokyo)).streak).toEqual({ current: 2, longest: 2, lastActiveDate: "2027-03-11", today: "2027-03-11" });
    expect((await profile(angeles)).streak).toEqual({
      current: 1,
      longest: 1,
      lastActiveDate: "2027-03-10",
      today: "2027-03-10",
    });

    // A day without completions ends the streak: Tokyo's 12th passes, it is the 13th there.
    setClock("2027-03-12T15:30:00Z");
    expect((await profile(tokyo)).streak).toMatchObject({ current: 0, longest: 2, today: "2027-03-13" });
  });

  test("run across the spring DST change in Prague (a 23-hour day) and reset after a missed day", async () => {
    setClock("2027-03-27T22:30:00Z"); // 23:30 CET on the 27th
    const me = await registerUser(server, { timeZone: "Europe/Prague" });
    await completeNew(me);
    setClock("2027-03-28T21:30:00Z"); // 23:30 CEST on the 28th: 23 hours later
    await completeNew(me);
    setClock("2027-03-28T22:30:00Z"); // 00:30 on the 29th
    await completeNew(me);
    expect((await profile(me)).streak).toMatchObject({ current: 3, longest: 3, lastActiveDate: "2027-03-29" });
    setClock("2027-03-30T21:59:00Z"); // 23:59 on the 30th: the streak is alive until the day ends
    expect((await profile(me)).streak).toMatchObject({ current: 3 });
    setClock("2027-03-30T22:00:00Z"); // 00:00 on the 31st: the 30th was missed
    expect((await profile(me)).streak).toMatchObject({ current: 0, longest: 3 });
    await completeNew(me);
    expect((await profile(me)).streak).toMatchObject({ current: 1, longest: 3, lastActiveDate: "2027-03-31" });
  });
});

describe("GET /gamification/me and GET /gamification/badges – levels and badges", () => {
  test("levels rise at 50 and 150 points, each recorded once with a notification", async () => {
    const me = await registerUser(server);
    await completeNew(me, { priority: "urgent", dueAt: hoursFromNow(5) }); // 30
    expect((await profile(me)).level).toEqual({ level: 1, levelPoints: 0, nextLevelPoints: 50, percent: 60 });
    await completeNew(me, { priority: "urgent", dueAt: hoursFromNow(5) }); // 60
    const second = await profile(me);
    expect(second.level).toEqual({ level: 2, levelPoints: 50, nextLevelPoints: 150, percent: 10 });
    expect(second.levelUps).toEqual([{ level: 2, points: 50, reachedAt: expect.any(String) }]);
    for (let index = 0; index < 3; index += 1) await completeNew(me, { priority: "urgent", dueAt: hoursFromNow(5) }); // 150
    const third = await profile(me);
    expect(third).toMatchObject({ points: 150, level: { level: 3, percent: 0 } });
    expect(third.levelUps.map((row) => row.level)).toEqual([2, 3]);

    const notifications = (await api("/notifications", { token: me.token })).body.items as {
      kind: string;
      title: string;
      data: Record<string, unknown>;
    }[];
    expect(
      notifications
        .filter((item) => item.kind === "gamification.level_up")
        .map((item) => item.title)
        .sort(),
    ).toEqual(["Level 2 reached", "Level 3 reached"]);
  });

  test("GET /gamification/badges – the catalog with progress; first task and early bird earned once, in the user's language", async () => {
    const me = await registerUser(server, { locale: "cs" });
    const start = expectShape(badgeListOutput, (await api("/gamification/badges", { token: me.token })).body).items;
    expect(start.map((badge) => badge.id)).toEqual([
      "first_task",
      "tasks_10",
      "tasks_100",
      "early_bird",
      "team_player",
      "streak_7",
      "streak_30",
      "level_5",
    ]);
    expect(start.every((badge) => !badge.earned && badge.earnedAt === null)).toBe(true);
    expect(start.map((badge) => badge.progress.current)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]); // everyone starts at level 1

    for (let index = 0; index < 5; index += 1) await completeNew(me, { dueAt: hoursFromNow(3) });
    const badges = expectShape(badgeListOutput, (await api("/gamification/badges", { token: me.token })).body).items;
    const byId = Object.fromEntries(badges.map((badge) => [badge.id, badge]));
    expect(byId.first_task).toMatchObject({ earned: true, progress: { current: 1, target: 1 } });
    expect(byId.early_bird).toMatchObject({ earned: true, progress: { current: 5, target: 5 } });
    expect(byId.tasks_10).toMatchObject({ earned: false, earnedAt: null, progress: { current: 5, target: 10 } });
    expect(byId.streak_7).toMatchObject({ earned: false, progress: { current: 1, target: 7 } });
    expect(Date.parse(byId.first_task!.earnedAt!)).toBeLessThanOrEqual(Date.parse(byId.early_bird!.earnedAt!));
    expect((await profile(me)).badgesEarned).toBe(2);
    expect(await server.sql("select badge from gamification_badges where user_id = $1 order by badge", [me.user.id])).toEqual([
      { badge: "early_bird" },
      { badge: "first_task" },
    ]);

    const notifications = (await api("/notifications", { token: me.token })).body.items as { kind: string; title: string }[];
    expect(
      notifications
        .filter((item) => item.kind === "gamification.badge_earned")
        .map((item) => item.title)
        .sort(),
    ).toEqual(["Nový odznak: První krok", "Nový odznak: Ranní ptáče"].sort());
  });
});

describe("GET /gamification/leaderboard", () => {
  async function board(who: User, query = "") {
    const response = await api(`/gamification/leaderboard${query}`, { token: who.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(leaderboardOutput, response.body);
  }
  const optIn = (who: User, leaderboardOptIn: boolean) =>
    api("/gamification/me", { method: "PATCH", token: who.token, json: { leaderboardOptIn } });

  test("lists only people who opted in; a team's board for its members only; the caller sees their own rank", async () => {
    const [ana, ben, cyd, stranger] = [
      await registerUser(server, { name: "Ana" }),
      await registerUser(server, { name: "Ben" }),
      await registerUser(server, { name: "Cyd" }),
      await registerUser(server, { name: "Stranger" }),
    ];
    const team = (await api("/user-groups", { token: ana.token, json: { name: "Racers" } })).body as { id: string };
    for (const who of [ben, cyd])
      expect((await joinAs(server, `/api/v1/user-groups/${team.id}/members`, ana, who)).status).toBe(201);
    const strangersTeam = (await api("/user-groups", { token: stranger.token, json: { name: "Elsewhere" } })).body as {
      id: string;
    };

    await completeNew(ana); // 10
    await completeNew(ben, { priority: "urgent" }); // 20
    await completeNew(cyd, { dueAt: hoursFromNow(1), priority: "urgent" }); // 30, never opted in
    const opted = await optIn(ana, true);
    expect(expectShape(profileOutput, opted.body).leaderboardOptIn).toBe(true);
    await optIn(ben, true);

    const teamBoard = await board(ana, `?scope=team&teamId=${team.id}`);
    expect(teamBoard).toMatchObject({
      scope: "team",
      teamId: team.id,
      period: "all",
      since: null,
      listed: 2,
      you: { optedIn: true, points: 10, rank: 2 },
    });
    expect(teamBoard.entries.map((entry) => [entry.rank, entry.name, entry.points, entry.isYou])).toEqual([
      [1, "Ben", 20, false],
      [2, "Ana", 10, true],
    ]);
    expect(JSON.stringify(teamBoard)).not.toContain(cyd.user.id);

    // Cyd sees where they would stand, and still appears to nobody.
    expect((await board(cyd, `?scope=team&teamId=${team.id}`)).you).toEqual({ optedIn: false, points: 30, rank: 1 });
    const global = await board(ben, "?limit=100");
    expect(global.entries.map((entry) => entry.userId)).not.toContain(cyd.user.id);
    expect(global.entries.map((entry) => entry.userId)).toEqual(expect.arrayContaining([ana.user.id, ben.user.id]));

    // Opting out takes Ben off every board at once.
    await optIn(ben, false);
    expect((await board(ana, `?scope=team&teamId=${team.id}`)).entries.map((entry) => entry.name)).toEqual(["Ana"]);

    // Another team's board, or a team that does not exist: 404, nothing about it.
    for (const id of [strangersTeam.id, "00000000-0000-4000-8000-000000000000"]) {
      const problem = expectProblem(
        await api(`/gamification/leaderboard?scope=team&teamId=${id}`, { token: ana.token }),
        404,
        "not_found",
      );
      expect(JSON.stringify(problem)).not.toContain("Elsewhere");
    }
  });

  test("the family board lists opted-in members of the caller's family; without one it is a 404", async () => {
    const parent = await registerUser(server, { name: "Parent" });
    const child = await registerUser(server, { name: "Child" });
    expectProblem(await api("/gamification/leaderboard?scope=family", { token: parent.token }), 404, "not_found");
    expect((await api("/family", { token: parent.token, json: { name: "Home" } })).status).toBe(201);
    expect((await joinAs(server, "/api/v1/family/members", parent, child, { role: "child" })).status).toBe(201);
    await optIn(child, true);
    await completeNew(child);
    const family = await board(parent, "?scope=family");
    expect(family.entries.map((entry) => [entry.name, entry.points, entry.level])).toEqual([["Child", 10, 1]]);
    expect(family.you).toEqual({ optedIn: false, points: 0, rank: 2 });
  });

  test("periods count points since Monday or the 1st in the caller's time zone", async () => {
    setClock("2027-05-31T10:00:00Z"); // a Monday
    const me = await registerUser(server, { timeZone: "Europe/Prague" });
    await optIn(me, true);
    await completeNew(me); // on Monday the 31st of May
    setClock("2027-06-01T10:00:00Z"); // Tuesday the 1st of June
    await completeNew(me, { priority: "high" }); // 15
    const week = await board(me, "?period=week");
    expect(week).toMatchObject({ period: "week", since: "2027-05-30T22:00:00.000Z", you: { points: 25 } });
    const month = await board(me, "?period=month");
    expect(month).toMatchObject({ period: "month", since: "2027-05-31T22:00:00.000Z", you: { points: 15 } });
    expect(month.entries.find((entry) => entry.isYou)).toMatchObject({ points: 15, level: 1 });
    expect((await board(me, "?period=all")).you.points).toBe(25);
  });

  test("bad input is a 400 naming the field", async () => {
    const me = await registerUser(server);
    const cases: [string, string][] = [
      ["?scope=team", "/teamId"],
      ["?scope=galaxy", "/scope"],
      ["?period=year", "/period"],
      ["?limit=0", "/limit"],
      ["?limit=101", "/limit"],
      ["?scope=global&teamId=00000000-0000-4000-8000-000000000000", "/teamId"],
      ["?scope=team&teamId=not-a-uuid", "/teamId"],
      ["?extra=1", ""],
    ];
    for (const [query, pointer] of cases) {
      const problem = expectProblem(
        await api(`/gamification/leaderboard${query}`, { token: me.token }),
        400,
        "validation_failed",
      );
      if (pointer)
        expect(
          problem.errors?.map((error) => error.pointer),
          query,
        ).toContain(pointer);
    }
    const patch = expectProblem(
      await api("/gamification/me", { method: "PATCH", token: me.token, json: { leaderboardOptIn: "yes" } }),
      400,
      "validation_failed",
    );
    expect(patch.errors?.map((error) => error.pointer)).toEqual(["/leaderboardOptIn"]);
    expectProblem(
      await api("/gamification/me", { method: "PATCH", token: me.token, json: { leaderboardOptIn: true, points: 1000 } }),
      400,
      "validation_failed",
    );
    expectProblem(await api("/gamification/history?cursor=nonsense", { token: me.token }), 400, "validation_failed");
    expect((await profile(me)).points).toBe(0);
  });
});

describe("GET /gamification/history", () => {
  test("pages newest first with nextCursor", async () => {
    const me = await registerUser(server);
    for (const title of ["one", "two", "three"]) {
      await completeNew(me, { title });
      advanceClock(1000);
    }
    const first = expectShape(historyOutput, (await api("/gamification/history?limit=2", { token: me.token })).body);
    expect(first.items.map((item) => item.taskTitle)).toEqual(["three", "two"]);
    const second = expectShape(
      historyOutput,
      (await api(`/gamification/history?limit=2&cursor=${first.nextCursor}`, { token: me.token })).body,
    );
    expect(second).toMatchObject({ items: [{ taskTitle: "one" }], nextCursor: null });
  });
});
