import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, nowDate, resetClock } from "../../lib/clock";
import { runReminders } from "../../lib/notifications/reminders";
import {
  notificationListOutput,
  reminderLogOutput,
  weeklyReportListOutput,
  weeklyReportOutput,
} from "../../lib/notifications/schema";
import { QUIET_WEEK, runDailySummaries, runWeeklyReports } from "../../lib/notifications/summaries";
import { createDueOccurrences } from "../../lib/tasks/recurring";
import {
  createTask,
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
afterEach(() => resetClock());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PRAGUE = "Europe/Prague";
type User = Awaited<ReturnType<typeof registerUser>>;

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

/** Moves the service's clock to an instant (tests never sleep for a schedule). */
function setClock(instant: Date | string) {
  resetClock();
  advanceClock(new Date(instant).getTime() - Date.now());
}

/** A due time `ms` from now, on a whole minute. */
const dueIn = (ms: number) => new Date(Math.ceil((nowDate().getTime() + ms) / MINUTE) * MINUTE);
const minus = (instant: Date, ms: number) => new Date(instant.getTime() - ms);

async function reminderLog(who: User, taskId: string) {
  const response = await api(`/tasks/${taskId}/reminders`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(reminderLogOutput, response.body);
}

async function notificationsOf(who: User, kind: string) {
  const response = await api("/notifications", { token: who.token });
  expect(response.status).toBe(200);
  return expectShape(notificationListOutput, response.body).items.filter((item) => item.kind === kind);
}

/** What the user sees in a reminder's text: the due time in their language and time zone. */
const localTime = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(instant);

/** A channel's logged outcome, whatever that channel's module answered: sent, or failed/skipped with a reason. */
function expectLoggedResult(delivery: { status: string; reason: string | null } | undefined) {
  expect(["sent", "failed", "skipped"]).toContain(delivery?.status);
  if (delivery?.status !== "sent") expect(delivery?.reason).toBeTruthy();
}

const byChannel = (deliveries: { channel: string; status: string; reason: string | null }[]) =>
  Object.fromEntries(deliveries.map((delivery) => [delivery.channel, delivery]));

const setPrefs = (who: User, taskId: string, json: unknown) =>
  server.request(`/notification-prefs/${taskId}`, { method: "PUT", token: who.token, json });

describe("the reminder scheduler", () => {
  test("fires once at due − 30 min (not before, not twice), logs every channel, and again at the due time", async () => {
    const me = await registerUser(server, { timeZone: PRAGUE });
    const due = dueIn(2 * HOUR);
    const task = await createTask(server, me.token, { title: "Water the plants", dueAt: due.toISOString() });

    const planned = await reminderLog(me, task.id);
    expect(planned).toMatchObject({ responsible: true, timeZone: PRAGUE, fires: [], notes: [] });
    expect(planned.scheduled).toEqual([
      { kind: "before", at: minus(due, 30 * MINUTE).toISOString(), dueAt: due.toISOString(), channels: ["in_app", "push"] },
      { kind: "due", at: due.toISOString(), dueAt: due.toISOString(), channels: ["in_app", "push"] },
    ]);

    setClock(minus(due, 31 * MINUTE));
    await runReminders();
    expect((await reminderLog(me, task.id)).fires).toEqual([]);
    expect(await notificationsOf(me, "reminder")).toEqual([]);

    setClock(minus(due, 30 * MINUTE));
    await runReminders();
    await runReminders(); // the next minute's run sends nothing again
    setClock(minus(due, 29 * MINUTE));
    await runReminders();

    const log = await reminderLog(me, task.id);
    expect(log.fires).toHaveLength(1);
    expect(log.fires[0]).toMatchObject({ kind: "before", dueAt: due.toISOString() });
    const deliveries = byChannel(log.fires[0]!.deliveries);
    expect(log.fires[0]!.deliveries.map((delivery) => delivery.channel)).toEqual(["in_app", "push", "email"]);
    expect(deliveries.in_app).toMatchObject({ status: "sent", reason: null });
    expectLoggedResult(deliveries.push);
    expect(deliveries.email).toMatchObject({ status: "skipped", reason: "not chosen in preferences" });
    const [reminder] = await notificationsOf(me, "reminder");
    expect(reminder).toMatchObject({
      title: "Reminder: Water the plants",
      body: `Due ${localTime(due, PRAGUE)}`,
      taskId: task.id,
    });
    expect(log.scheduled.map((entry) => entry.kind)).toEqual(["due"]);

    setClock(due);
    await runReminders();
    const after = await reminderLog(me, task.id);
    expect(after.fires.map((fire) => fire.kind)).toEqual(["due", "before"]);
    expect(after.scheduled).toEqual([]);
    expect(after.notes).toEqual(["The reminders for the current due time have gone out"]);
    expect(await notificationsOf(me, "due")).toHaveLength(1);
    expect(await notificationsOf(me, "reminder")).toHaveLength(1);
  });

  test("a changed due date fires again for the new time, and not for the old one", async () => {
    const me = await registerUser(server);
    const due = dueIn(2 * HOUR);
    const task = await createTask(server, me.token, { title: "Call the plumber", dueAt: due.toISOString() });
    setClock(minus(due, 30 * MINUTE));
    await runReminders();

    const later = new Date(due.getTime() + 24 * HOUR);
    const patched = await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token: me.token,
      json: { dueAt: later.toISOString() },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    setClock(due); // the old due time: nothing, the task is no longer due then
    await runReminders();
    expect((await reminderLog(me, task.id)).fires.map((fire) => [fire.kind, fire.dueAt])).toEqual([
      ["before", due.toISOString()],
    ]);

    setClock(minus(later, 30 * MINUTE));
    await runReminders();
    const log = await reminderLog(me, task.id);
    expect(log.fires.map((fire) => [fire.kind, fire.dueAt])).toEqual([
      ["before", later.toISOString()],
      ["before", due.toISOString()],
    ]);
    expect(await notificationsOf(me, "reminder")).toHaveLength(2);
  });

  test("a done task is not reminded of, and the log says why", async () => {
    const me = await registerUser(server);
    const due = dueIn(2 * HOUR);
    const task = await createTask(server, me.token, { title: "Done already", dueAt: due.toISOString() });
    await server.request(`/tasks/${task.id}`, { method: "PATCH", token: me.token, json: { status: "done" } });
    for (const at of [minus(due, 30 * MINUTE), due]) {
      setClock(at);
      await runReminders();
    }
    const log = await reminderLog(me, task.id);
    expect(log.fires).toEqual([]);
    expect(log.scheduled).toEqual([]);
    expect(log.notes).toEqual(["The task is done: only open tasks are reminded of"]);
    expect(await notificationsOf(me, "reminder")).toEqual([]);
  });

  test("follows the task's preferences: remind_before 10 by email only logs in-app and push as not chosen", async () => {
    const me = await registerUser(server);
    const due = dueIn(2 * HOUR);
    const task = await createTask(server, me.token, { title: "Email me", dueAt: due.toISOString() });
    expect((await setPrefs(me, task.id, { remind_before: 10, on_due: false, channels: ["email"] })).status).toBe(200);
    expect((await reminderLog(me, task.id)).scheduled).toEqual([
      { kind: "before", at: minus(due, 10 * MINUTE).toISOString(), dueAt: due.toISOString(), channels: ["email"] },
    ]);

    setClock(minus(due, 30 * MINUTE));
    await runReminders();
    expect((await reminderLog(me, task.id)).fires).toEqual([]);
    setClock(minus(due, 10 * MINUTE));
    await runReminders();
    setClock(due);
    await runReminders();

    const log = await reminderLog(me, task.id);
    expect(log.fires).toHaveLength(1);
    const deliveries = byChannel(log.fires[0]!.deliveries);
    expect(deliveries.in_app).toMatchObject({ status: "skipped", reason: "not chosen in preferences" });
    expect(deliveries.push).toMatchObject({ status: "skipped", reason: "not chosen in preferences" });
    expectLoggedResult(deliveries.email);
    expect(await notificationsOf(me, "reminder")).toEqual([]);
  });

  test("the assignees are reminded, not the owner; the owner's log says so", async () => {
    const owner = await registerUser(server);
    const assignee = await registerUser(server, { timeZone: "America/New_York", locale: "ru" });
    const due = dueIn(2 * HOUR);
    const task = await createTask(server, owner.token, { title: "Fix the roof", dueAt: due.toISOString() });
    const request = await api(`/tasks/${task.id}/collaboration-requests`, {
      token: owner.token,
      json: { kind: "assign", userId: assignee.user.id },
    });
    expect(
      (await api(`/collaboration-requests/${request.body.id}/accept`, { method: "POST", token: assignee.token })).status,
    ).toBe(200);

    setClock(minus(due, 30 * MINUTE));
    await runReminders();
    expect((await reminderLog(assignee, task.id)).fires).toHaveLength(1);
    const [reminder] = await notificationsOf(assignee, "reminder");
    expect(reminder?.title).toBe("Напоминание: Fix the roof");
    const ownerLog = await reminderLog(owner, task.id);
    expect(ownerLog).toMatchObject({ responsible: false, fires: [], scheduled: [] });
    expect(ownerLog.notes).toEqual(["You are not assigned to this task: its assignees are reminded"]);
  });

  test("after an outage, reminders less than 6 hours late still go out; older ones are logged as skipped", async () => {
    const me = await registerUser(server);
    const soon = await createTask(server, me.token, { title: "Late but sent", dueAt: dueIn(HOUR).toISOString() });
    const due = new Date(soon.dueAt!);
    // Down from before the first reminder until two hours after the due time.
    setClock(new Date(due.getTime() + 2 * HOUR));
    await runReminders();
    const sent = await reminderLog(me, soon.id);
    expect(sent.fires.map((fire) => fire.kind).sort()).toEqual(["before", "due"]);
    for (const fire of sent.fires) expect(byChannel(fire.deliveries).in_app).toMatchObject({ status: "sent" });

    const old = await createTask(server, me.token, { title: "Too late", dueAt: dueIn(HOUR).toISOString() });
    setClock(new Date(new Date(old.dueAt!).getTime() + 7 * HOUR));
    await runReminders();
    const missed = await reminderLog(me, old.id);
    expect(missed.fires).toHaveLength(2);
    for (const fire of missed.fires) {
      const deliveries = byChannel(fire.deliveries);
      expect(deliveries.in_app).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^missed: .*6 hours/) });
      expect(deliveries.push).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^missed/) });
      expect(deliveries.email).toMatchObject({ status: "skipped", reason: "not chosen in preferences" });
    }
    expect((await notificationsOf(me, "reminder")).map((item) => item.taskId)).toEqual([soon.id]);
  });

  test("two runners at once (two processes): exactly one fire and one delivery per channel", async () => {
    const me = await registerUser(server);
    const due = dueIn(2 * HOUR);
    const task = await createTask(server, me.token, { title: "Only once", dueAt: due.toISOString() });
    setClock(minus(due, 30 * MINUTE));
    await Promise.all([runReminders(), runReminders(), runReminders()]);
    const fires = await server.sql<{ id: string }>("select id from reminder_fires where subject = $1", [task.id]);
    expect(fires).toHaveLength(1);
    const deliveries = await server.sql<{ channel: string }>(
      "select channel from reminder_deliveries where fire_id = $1 order by channel",
      [fires[0]!.id],
    );
    expect(deliveries.map((row) => row.channel)).toEqual(["email", "in_app", "push"]);
    expect(await notificationsOf(me, "reminder")).toHaveLength(1);
    // One `reminder.due` domain event (for webhooks and the socket), to that user only.
    const events = await server.sql<{ audience: string[]; data: { reminder: string } }>(
      "select audience, data from domain_events where type = 'reminder.due' and task_id = $1",
      [task.id],
    );
    expect(events).toEqual([{ audience: [me.user.id], data: expect.objectContaining({ reminder: "before", taskId: task.id }) }]);
  });

  test("the next occurrence of a recurring task keeps the preferences set on the one before", async () => {
    const me = await registerUser(server);
    const task = await createTask(server, me.token, {
      title: "Weekly chore",
      dueAt: dueIn(HOUR).toISOString(),
      recurrence: { frequency: "weekly" },
    });
    await setPrefs(me, task.id, { remind_before: 120, on_due: false, channels: ["email"] });
    await server.request(`/tasks/${task.id}`, { method: "PATCH", token: me.token, json: { status: "done" } });
    await createDueOccurrences();
    const [next] = await server.sql<{ id: string }>("select id from tasks where series_id = $1 and occurrence = 2", [
      task.seriesId,
    ]);
    expect(next).toBeDefined();
    await expect
      .poll(async () => (await server.request(`/notification-prefs/${next!.id}`, { token: me.token })).body)
      .toMatchObject({ taskId: next!.id, remind_before: 120, on_due: false, channels: ["email"], stored: true });
  });

  test("GET /tasks/{id}/reminders – 404 for a task the caller cannot see", async () => {
    const [owner, stranger] = [await registerUser(server), await registerUser(server)];
    const task = await createTask(server, owner.token, { dueAt: dueIn(HOUR).toISOString() });
    expectProblem(await api(`/tasks/${task.id}/reminders`, { token: stranger.token }), 404, "not_found");
    expectProblem(await server.request(`/tasks/${task.id}/reminders`, { token: stranger.token }), 404, "not_found");
  });
});

describe("the daily summary", () => {
  const dailyFires = (user: User) =>
    server.sql<{ id: string; occurrence: string }>(
      "select id, occurrence from reminder_fires where user_id = $1 and subject = 'daily' order by id",
      [user.user.id],
    );

  test("goes out at 07:00 Prague time on both sides of the DST change, once per local day, listing today's and overdue tasks", async () => {
    const me = await registerUser(server, { timeZone: PRAGUE });
    // Saturday 2027-03-27 is the last day of winter time (UTC+1); Sunday 2027-03-28 is summer time (UTC+2).
    const saturday = await createTask(server, me.token, { title: "Saturday task", dueAt: "2027-03-27T09:00:00Z" });
    const sunday = await createTask(server, me.token, { title: "Sunday task", dueAt: "2027-03-28T08:00:00Z" });
    const optedOut = await createTask(server, me.token, { title: "Not in the summary", dueAt: "2027-03-27T10:00:00Z" });
    await setPrefs(me, optedOut.id, { daily: false });
    const done = await createTask(server, me.token, { title: "Finished", dueAt: "2027-03-27T10:00:00Z" });
    await server.request(`/tasks/${done.id}`, { method: "PATCH", token: me.token, json: { status: "done" } });

    setClock("2027-03-27T05:59:00Z"); // 06:59 local
    await runDailySummaries();
    expect(await dailyFires(me)).toEqual([]);
    setClock("2027-03-27T06:00:00Z"); // 07:00 local
    await runDailySummaries();
    setClock("2027-03-27T06:30:00Z");
    await runDailySummaries();
    expect((await dailyFires(me)).map((fire) => fire.occurrence)).toEqual(["2027-03-27"]);
    let summaries = await notificationsOf(me, "daily_summary");
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({
      title: "Your tasks for Mar 27, 2027",
      data: { date: "2027-03-27", dueToday: [saturday.id], overdue: [] },
    });
    expect(summaries[0]!.body).toBe("Due today (1)\n• Saturday task (10:00 AM)");
    const [fire] = await dailyFires(me);
    const deliveries = await server.sql<{ channel: string; status: string; reason: string | null }>(
      "select channel, status, reason from reminder_deliveries where fire_id = $1",
      [fire!.id],
    );
    const channels = byChannel(deliveries);
    expect(channels.in_app).toMatchObject({ status: "sent" });
    expect(channels.push).toMatchObject({ status: "skipped", reason: "not chosen in notification settings" });
    expectLoggedResult(channels.email);

    // Summer time: 07:00 local is now 05:00 UTC, an hour earlier in UTC than the day before.
    setClock("2027-03-28T04:59:00Z");
    await runDailySummaries();
    expect(await dailyFires(me)).toHaveLength(1);
    setClock("2027-03-28T05:00:00Z");
    await runDailySummaries();
    expect((await dailyFires(me)).map((row) => row.occurrence)).toEqual(["2027-03-27", "2027-03-28"]);
    summaries = await notificationsOf(me, "daily_summary");
    expect(summaries[0]).toMatchObject({ data: { date: "2027-03-28", dueToday: [sunday.id], overdue: [saturday.id] } });
    expect(summaries[0]!.body).toBe("Due today (1)\n• Sunday task (10:00 AM)\n\nOverdue (1)\n• Saturday task (10:00 AM)");
  });

  test("with nothing to say nothing is sent, and the log says why; a null time means no summary", async () => {
    const idle = await registerUser(server, { timeZone: PRAGUE });
    const off = await registerUser(server, { timeZone: PRAGUE });
    await api("/notification-settings", { method: "PUT", token: off.token, json: { dailySummaryTime: null } });
    await createTask(server, off.token, { dueAt: "2027-03-27T09:00:00Z" });
    setClock("2027-03-27T06:00:00Z");
    await runDailySummaries();

    const [fire] = await dailyFires(idle);
    const deliveries = byChannel(
      await server.sql<{ channel: string; status: string; reason: string | null }>(
        "select channel, status, reason from reminder_deliveries where fire_id = $1",
        [fire!.id],
      ),
    );
    expect(deliveries).toMatchObject({
      in_app: { status: "skipped", reason: "nothing due today or overdue" },
      email: { status: "skipped", reason: "nothing due today or overdue" },
      push: { status: "skipped", reason: "not chosen in notification settings" },
    });
    expect(await notificationsOf(idle, "daily_summary")).toEqual([]);
    expect(await dailyFires(off)).toEqual([]);
  });

  test("at the user's own time: 18:30 in New York", async () => {
    const me = await registerUser(server, { timeZone: "America/New_York" });
    await api("/notification-settings", { method: "PUT", token: me.token, json: { dailySummaryTime: "18:30" } });
    await createTask(server, me.token, { dueAt: "2027-03-28T20:00:00Z" });
    setClock("2027-03-28T22:29:00Z"); // 18:29 EDT
    await runDailySummaries();
    expect(await dailyFires(me)).toEqual([]);
    setClock("2027-03-28T22:30:00Z");
    await runDailySummaries();
    expect((await dailyFires(me)).map((fire) => fire.occurrence)).toEqual(["2027-03-28"]);
    expect(await notificationsOf(me, "daily_summary")).toHaveLength(1);
  });
});

describe("the weekly report", () => {
  test("is made on Monday 08:00 local time, once, stored and delivered; GET /reports/weekly lists it", async () => {
    const me = await registerUser(server, { timeZone: PRAGUE });
    const stranger = await registerUser(server, { timeZone: "America/New_York" });
    await api("/notification-settings", { method: "PUT", token: me.token, json: { summaryChannels: ["in_app"] } });
    // The week of Monday 2027-03-22 to Sunday 2027-03-28 (Prague): one task completed, two created, one overdue.
    const [finished, late, older] = [
      await createTask(server, me.token, { title: "Finished" }),
      await createTask(server, me.token, { title: "Late", dueAt: "2027-03-26T09:00:00Z" }),
      await createTask(server, me.token, { title: "Older", dueAt: "2027-04-10T09:00:00Z" }),
    ];
    await server.sql(
      "update tasks set created_at = '2027-03-23T10:00:00Z', status = 'done', completed_at = '2027-03-24T10:00:00Z' where id = $1",
      [finished.id],
    );
    await server.sql("update tasks set created_at = '2027-03-25T10:00:00Z' where id = $1", [late.id]);
    await server.sql("update tasks set created_at = '2027-03-10T10:00:00Z' where id = $1", [older.id]);

    setClock("2027-03-29T05:59:00Z"); // Monday 07:59 CEST
    await runWeeklyReports();
    expect((await api("/reports/weekly", { token: me.token })).body.items).toEqual([]);
    setClock("2027-03-29T06:00:00Z"); // Monday 08:00 CEST
    await runWeeklyReports();
    setClock("2027-03-29T09:00:00Z");
    await runWeeklyReports();

    const list = expectShape(weeklyReportListOutput, (await api("/reports/weekly", { token: me.token })).body);
    const expected = {
      weekStart: "2027-03-22",
      weekEnd: "2027-03-28",
      timeZone: PRAGUE,
      completed: 1,
      created: 2,
      overdue: 1,
      open: 2,
    };
    const assistantParts = {
      goals: [],
      timeTrackedSeconds: 0,
      timeTrackingAvailable: true,
      narrative: expect.objectContaining({ answeredBy: { provider: "built-in" } }),
    };
    expect(list).toEqual({ items: [{ ...expected, ...assistantParts, createdAt: expect.any(String) }], nextCursor: null });
    // Made by the 08:00 run, not the 09:00 one (the clock is moved, then runs on: the run takes real milliseconds).
    const madeAfterEight = Date.parse(list.items[0]!.createdAt) - Date.parse("2027-03-29T06:00:00Z");
    expect(madeAfterEight).toBeGreaterThanOrEqual(0);
    expect(madeAfterEight).toBeLessThan(MINUTE);
    const one = await api("/reports/weekly/2027-03-22", { token: me.token });
    expect(expectShape(weeklyReportOutput, one.body)).toMatchObject(expected);
    expectProblem(await api("/reports/weekly/2027-03-15", { token: me.token }), 404, "not_found");
    expectProblem(await api("/reports/weekly/2027-03-22", { token: stranger.token }), 404, "not_found");
    expectProblem(await api("/reports/weekly/not-a-date", { token: me.token }), 400, "validation_failed");

    const reports = await notificationsOf(me, "weekly_report");
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ body: "Completed: 1 · Created: 2 · Overdue: 1 · Still open: 2" });
    const fires = await server.sql<{ id: string }>("select id from reminder_fires where user_id = $1 and subject = 'weekly'", [
      me.user.id,
    ]);
    expect(fires).toHaveLength(1);
    const deliveries = byChannel(
      await server.sql<{ channel: string; status: string; reason: string | null }>(
        "select channel, status, reason from reminder_deliveries where fire_id = $1",
        [fires[0]!.id],
      ),
    );
    expect(deliveries).toMatchObject({
      in_app: { status: "sent" },
      push: { status: "skipped", reason: "not chosen in notification settings" },
      email: { status: "skipped", reason: "not chosen in notification settings" },
    });

    // Tuesday: nothing new; the next Monday, the next week.
    setClock("2027-03-30T06:00:00Z");
    await runWeeklyReports();
    setClock("2027-04-05T06:00:00Z");
    await runWeeklyReports();
    const weeks = (await api("/reports/weekly", { token: me.token })).body.items.map(
      (item: { weekStart: string }) => item.weekStart,
    );
    expect(weeks).toEqual(["2027-03-29", "2027-03-22"]);
    const paged = await api("/reports/weekly?limit=1", { token: me.token });
    expect(paged.body.nextCursor).toBe("2027-03-29");
    expect(
      (await api(`/reports/weekly?limit=1&cursor=${paged.body.nextCursor}`, { token: me.token })).body.items[0].weekStart,
    ).toBe("2027-03-22");
  });

  test("a quiet week is kept but not sent, unless the settings ask for quiet weeks too", async () => {
    const quiet = await registerUser(server, { timeZone: PRAGUE });
    const asks = await registerUser(server, { timeZone: PRAGUE });
    for (const who of [quiet, asks]) {
      await api("/notification-settings", { method: "PUT", token: who.token, json: { summaryChannels: ["in_app", "email"] } });
    }
    const settings = await api("/notification-settings", {
      method: "PUT",
      token: asks.token,
      json: { weeklyReportWhenQuiet: true },
    });
    expect(settings.body).toMatchObject({ weeklyReport: true, weeklyReportWhenQuiet: true });

    setClock("2027-03-29T06:00:00Z"); // Monday 08:00 CEST
    await runWeeklyReports();

    for (const who of [quiet, asks]) {
      const kept = expectShape(weeklyReportListOutput, (await api("/reports/weekly", { token: who.token })).body);
      expect(kept.items.map((item) => [item.weekStart, item.completed, item.created, item.overdue])).toEqual([
        ["2027-03-22", 0, 0, 0],
      ]);
    }
    expect(await notificationsOf(quiet, "weekly_report")).toEqual([]);
    expect(await notificationsOf(asks, "weekly_report")).toHaveLength(1);
    const deliveries = await server.sql<{ channel: string; status: string; reason: string | null }>(
      `select d.channel, d.status, d.reason from reminder_deliveries d join reminder_fires f on f.id = d.fire_id
        where f.user_id = $1 and f.subject = 'weekly'`,
      [quiet.user.id],
    );
    expect(deliveries.map((row) => [row.channel, row.status, row.reason]).sort()).toEqual(
      ["email", "in_app", "push"].map((channel) => [channel, "skipped", QUIET_WEEK]),
    );
  });

  test("is not made for someone who turned it off", async () => {
    const me = await registerUser(server, { timeZone: PRAGUE });
    await api("/notification-settings", { method: "PUT", token: me.token, json: { weeklyReport: false } });
    setClock("2027-03-29T06:00:00Z");
    await runWeeklyReports();
    expect((await api("/reports/weekly", { token: me.token })).body.items).toEqual([]);
    expect(await notificationsOf(me, "weekly_report")).toEqual([]);
  });
});
