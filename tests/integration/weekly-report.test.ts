import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { moduleOverrides } from "../../lib/modules/registry";
import { weeklyReportOutput } from "../../lib/notifications/schema";
import { runWeeklyReports } from "../../lib/notifications/summaries";
import { createTask, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The weekly report with the assistant's parts (goal progress over the week, time tracked, the built-in
 * narrative), made by the Monday 08:00 job under an injected clock for users on both sides of the date line:
 * Tokyo's Monday morning is Sunday evening in Los Angeles. The job runs twice at once (two processes) and again
 * after a restart (a new process knows only the database): one report per user and week.
 */

const TOKYO = "Asia/Tokyo";
const LOS_ANGELES = "America/Los_Angeles";

let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;
const api = (path: string, options?: Parameters<TestServer["request"]>[1]) => server.request(`/api/v1${path}`, options);

function setClock(instant: string) {
  resetClock();
  advanceClock(Date.parse(instant) - Date.now());
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  resetClock();
  await server.close();
});

async function reportsOf(user: User) {
  const rows = await server.sql<{ week_start: string }>("select week_start::text from weekly_reports where user_id = $1", [
    user.user.id,
  ]);
  const fires = await server.sql("select id from reminder_fires where user_id = $1 and subject = 'weekly'", [user.user.id]);
  const notifications = await server.sql("select id from notifications where user_id = $1 and kind = 'weekly_report'", [
    user.user.id,
  ]);
  return { weeks: rows.map((row) => row.week_start), fires: fires.length, notifications: notifications.length };
}

describe("the weekly report job", () => {
  test("one report per user and week across time zones, runs at once and a restart; with goals, time and a narrative", async () => {
    setClock("2026-02-01T00:00:00Z");
    const tokyo = await registerUser(server, { timeZone: TOKYO });
    const angeleno = await registerUser(server, { timeZone: LOS_ANGELES });
    // Tokyo's week: Monday 2026-02-09 to Sunday 2026-02-15, local.
    const [japanese] = await server.sql<{ id: string }>(
      "insert into goals (owner_id, title, progress, target_date, created_at) values ($1, 'Japanese', 0, '2026-06-01', '2026-02-01T00:00:00Z') returning id",
      [tokyo.user.id],
    );
    const lessons = [
      await createTask(server, tokyo.token, { title: "Lesson 1" }),
      await createTask(server, tokyo.token, { title: "Lesson 2" }),
    ];
    // Time tracked: an hour inside the week, and an entry across its start (Monday 00:00 in Tokyo) that counts half.
    await server.sql(
      `insert into time_entries (user_id, task_id, started_at, ended_at) values
       ($1, $2, '2026-02-10T01:00:00Z', '2026-02-10T02:00:00Z'), ($1, $2, '2026-02-08T14:30:00Z', '2026-02-08T15:30:00Z')`,
      [tokyo.user.id, lessons[0]!.id],
    );
    for (const lesson of lessons)
      await server.sql("insert into goal_tasks (goal_id, task_id) values ($1, $2)", [japanese!.id, lesson.id]);
    await server.sql("update tasks set status = 'done', completed_at = '2026-02-11T03:00:00Z' where id = $1", [lessons[0]!.id]);
    const [guitar] = await server.sql<{ id: string }>(
      "insert into goals (owner_id, title, progress, created_at) values ($1, 'Guitar', 60, '2026-02-01T00:00:00Z') returning id",
      [tokyo.user.id],
    );
    await server.sql(
      "insert into goal_progress_reports (goal_id, user_id, reported_on, value) values ($1, $2, '2026-02-05', 45), ($1, $2, '2026-02-12', 60)",
      [guitar!.id, tokyo.user.id],
    );

    // Monday 07:59 in Tokyo: nothing yet.
    setClock("2026-02-15T22:59:00Z");
    await runWeeklyReports();
    expect((await reportsOf(tokyo)).weeks).toEqual([]);

    // Monday 08:00 in Tokyo (Sunday 15:00 in Los Angeles): two processes run the job at once.
    setClock("2026-02-15T23:00:00Z");
    const [first, second] = await Promise.all([runWeeklyReports(), runWeeklyReports()]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    expect(await reportsOf(tokyo)).toEqual({ weeks: ["2026-02-09"], fires: 1, notifications: 1 });
    expect((await reportsOf(angeleno)).weeks).toEqual([]);

    // A restart half an hour later: a new process with nothing but the database runs the job again.
    setClock("2026-02-15T23:30:00Z");
    await runWeeklyReports();
    expect(await reportsOf(tokyo)).toEqual({ weeks: ["2026-02-09"], fires: 1, notifications: 1 });

    // Monday 08:00 in Los Angeles (already Tuesday 01:00 in Tokyo), run twice. Nothing happened in their week: the
    // report is kept, but a quiet week is not sent (no notification) unless they ask for quiet weeks too.
    setClock("2026-02-16T16:00:00Z");
    await runWeeklyReports();
    await runWeeklyReports();
    expect(await reportsOf(angeleno)).toEqual({ weeks: ["2026-02-09"], fires: 1, notifications: 0 });
    expect(await reportsOf(tokyo)).toEqual({ weeks: ["2026-02-09"], fires: 1, notifications: 1 });

    const report = expectShape(weeklyReportOutput, (await api("/reports/weekly/2026-02-09", { token: tokyo.token })).body);
    expect(report).toMatchObject({
      weekStart: "2026-02-09",
      weekEnd: "2026-02-15",
      timeZone: TOKYO,
      completed: 1,
      open: 1,
      timeTrackedSeconds: 5400,
      timeTrackingAvailable: true,
    });
    expect(report.goals).toEqual([
      { id: japanese!.id, title: "Japanese", status: "active", progress: 50, progressAtStart: 0 },
      { id: guitar!.id, title: "Guitar", status: "active", progress: 60, progressAtStart: 45 },
    ]);
    expect(report.narrative).toEqual({
      text:
        "From Monday, February 9 to Sunday, February 15 you completed 1 task and created none. 1 task is still open. " +
        "Goal “Japanese”: from 0% to 50%. Goal “Guitar”: from 45% to 60%.",
      answeredBy: { provider: "built-in" },
      fallbackReason: null,
    });
    const theirs = expectShape(weeklyReportOutput, (await api("/reports/weekly/2026-02-09", { token: angeleno.token })).body);
    expect(theirs).toMatchObject({
      timeZone: LOS_ANGELES,
      goals: [],
      completed: 0,
      timeTrackedSeconds: 0,
      timeTrackingAvailable: true,
    });
    expect(theirs.narrative?.text).not.toContain("Japanese");
  });

  test("while the time-tracking module is off the report says time tracking is unavailable, with 0 seconds", async () => {
    setClock("2026-03-01T00:00:00Z");
    const tokyo = await registerUser(server, { timeZone: TOKYO });
    const task = await createTask(server, tokyo.token, { title: "Tracked" });
    await server.sql(
      "insert into time_entries (user_id, task_id, started_at, ended_at) values ($1, $2, '2026-03-03T01:00:00Z', '2026-03-03T02:00:00Z')",
      [tokyo.user.id, task.id],
    );
    moduleOverrides().set("time-tracking", false);
    try {
      // Monday 9 March, 08:00 in Tokyo.
      setClock("2026-03-08T23:00:00Z");
      await runWeeklyReports();
    } finally {
      moduleOverrides().delete("time-tracking");
    }
    const report = expectShape(weeklyReportOutput, (await api("/reports/weekly/2026-03-02", { token: tokyo.token })).body);
    expect(report).toMatchObject({ weekStart: "2026-03-02", timeTrackedSeconds: 0, timeTrackingAvailable: false });
  });
});
