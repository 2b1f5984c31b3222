import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { analysisOutput, dailyOutput, deleteRecordsOutput, reportRecordsOutput, summaryOutput } from "../../lib/activity/schema";
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
 * The activity monitor over HTTP: reporting batches (every validation rule, all or nothing, idempotent re-sends),
 * the summary and the daily view counted on the user's calendar (across midnight and both DST changes of
 * Europe/Prague in 2026), the analysis by the built-in assistant on seeded data and by a chat-completions endpoint
 * (its prompt, a timeout, an error answer, an empty answer, the budget), deleting, and a stranger's data never
 * counting. Dates are in the past of the real clock (records may not lie in the future).
 */

const PRAGUE = "Europe/Prague";
type User = Awaited<ReturnType<typeof registerUser>>;
type Category =
  | "social"
  | "communication"
  | "games"
  | "video"
  | "music"
  | "reading"
  | "news"
  | "education"
  | "productivity"
  | "shopping"
  | "health"
  | "other";

interface Row {
  id: string;
  app: string;
  category: Category;
  seconds: number;
  startedAt: string;
  endedAt: string;
}

/** A record with a fresh id: `seconds` of `app` between two instants. */
function record(app: string, startedAt: string, endedAt: string, seconds: number, fields: Partial<Row> = {}): Row {
  return { id: randomUUID(), app, category: "social", seconds, startedAt, endedAt, ...fields };
}

const iso = (ms: number) => new Date(ms).toISOString();
const localToday = (timeZone: string, offsetDays = 0) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    Date.now() + offsetDays * 86_400_000,
  );

/** A server for a describe block (started with `env()` in its beforeAll) and the calls the tests make to it. */
function suite(env: () => Record<string, string> = () => ({})) {
  const context = { server: undefined as unknown as TestServer };
  beforeAll(async () => {
    context.server = await startTestServer(env());
  });
  afterAll(() => context.server?.close());
  const api = (path: string, options?: RequestOptions) => context.server.request(`/api/v1${path}`, options);
  const user = (timeZone = PRAGUE, locale = "en") => registerUser(context.server, { timeZone, locale });
  async function report(who: User, records: unknown[]) {
    const response = await api("/activity/records", { token: who.token, json: { records } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(reportRecordsOutput, response.body);
  }
  async function summary(who: User, query = "") {
    const response = await api(`/activity/summary${query}`, { token: who.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(summaryOutput, response.body);
  }
  async function daily(who: User, query = "") {
    const response = await api(`/activity/daily${query}`, { token: who.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(dailyOutput, response.body);
  }
  async function analysis(who: User, json?: unknown) {
    const response = await api("/activity/analysis", {
      token: who.token,
      method: "POST",
      ...(json === undefined ? {} : { json }),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(analysisOutput, response.body);
  }
  async function storedCount(who: User): Promise<number> {
    const [row] = await context.server.sql<{ count: number }>(
      "select count(*)::int as count from activity_records where user_id = $1",
      [who.user.id],
    );
    return row!.count;
  }
  return { context, api, user, report, summary, daily, analysis, storedCount };
}

describe("with the built-in assistant", () => {
  const { context, api, user, report, summary, daily, analysis, storedCount } = suite();

  describe("POST /activity/records", () => {
    test("stores a batch and says so per record; the same batch again adds nothing and names each as a duplicate", async () => {
      const me = await user();
      const batch = [
        record("Tube", "2026-11-02T10:00:00Z", "2026-11-02T11:00:00Z", 1800, { category: "video" }),
        record("Chat", "2026-11-02T10:30:00Z", "2026-11-02T10:45:00Z", 600, { category: "communication" }),
        record("Tube", "2026-11-02T11:00:00Z", "2026-11-02T11:30:00Z", 900, { category: "video" }),
      ];
      expect(await report(me, batch)).toEqual({
        accepted: 3,
        duplicates: 0,
        items: batch.map(({ id }) => ({ id, status: "accepted" })),
      });
      expect(await report(me, batch)).toEqual({
        accepted: 0,
        duplicates: 3,
        items: batch.map(({ id }) => ({ id, status: "duplicate" })),
      });
      expect(await storedCount(me)).toBe(3);
      expect((await summary(me, "?from=2026-11-02&to=2026-11-02")).totalSeconds).toBe(3300);

      // Half old, half new: only the new one is stored; an old id with other contents stays as first stored.
      const changed = { ...batch[0]!, seconds: 5 };
      const fresh = record("Chat", "2026-11-02T12:00:00Z", "2026-11-02T12:10:00Z", 300, { category: "communication" });
      expect(await report(me, [changed, fresh])).toEqual({
        accepted: 1,
        duplicates: 1,
        items: [
          { id: changed.id, status: "duplicate" },
          { id: fresh.id, status: "accepted" },
        ],
      });
      const day = await summary(me, "?from=2026-11-02&to=2026-11-02");
      expect(day.totalSeconds).toBe(3600);
      expect(day.categories).toEqual([
        { category: "video", seconds: 2700 },
        { category: "communication", seconds: 900 },
      ]);
    });

    test("ids belong to their user: a stranger's record with the same id is stored for the stranger", async () => {
      const [me, stranger] = [await user(), await user()];
      const mine = record("Chat", "2026-11-03T10:00:00Z", "2026-11-03T10:10:00Z", 600);
      await report(me, [mine]);
      expect(await report(stranger, [{ ...mine, app: "Stranger app" }])).toMatchObject({ accepted: 1, duplicates: 0 });
      expect((await summary(me, "?from=2026-11-03&to=2026-11-03")).apps).toEqual([
        { app: "Chat", category: "social", seconds: 600 },
      ]);
    });

    // Each batch starts with a sound record: one bad record rejects all of it.
    const good = () => record("Reader", "2026-11-04T08:00:00Z", "2026-11-04T08:30:00Z", 1200, { category: "reading" });
    const soon = (minutes: number) => iso(Date.now() + minutes * 60_000);
    const cases: [string, () => unknown[], string][] = [
      [
        "negative seconds",
        () => [good(), record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", -5)],
        "/records/1/seconds",
      ],
      [
        "seconds that are not whole",
        () => [good(), record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 12.5)],
        "/records/1/seconds",
      ],
      [
        "seconds longer than the range",
        () => [good(), record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 601)],
        "/records/1/seconds",
      ],
      [
        "endedAt before startedAt",
        () => [good(), record("Chat", "2026-11-04T09:10:00Z", "2026-11-04T09:00:00Z", 0)],
        "/records/1/endedAt",
      ],
      ["a range ending in the future", () => [good(), record("Chat", soon(-5), soon(10), 60)], "/records/1/endedAt"],
      ["a range starting in the future", () => [good(), record("Chat", soon(20), soon(30), 60)], "/records/1/startedAt"],
      [
        "a range over 24 hours",
        () => [good(), record("Chat", "2026-11-03T09:00:00Z", "2026-11-04T09:00:01Z", 60)],
        "/records/1/endedAt",
      ],
      [
        "two records of one app overlapping",
        () => [good(), record("Reader", "2026-11-04T08:29:59Z", "2026-11-04T08:40:00Z", 60, { category: "reading" })],
        "/records/1/startedAt",
      ],
      [
        "an id twice in the batch",
        () => [
          good(),
          { ...record("Mail", "2026-11-04T07:00:00Z", "2026-11-04T07:01:00Z", 60), id: "same" },
          { ...record("Maps", "2026-11-04T07:00:00Z", "2026-11-04T07:01:00Z", 60), id: "same" },
        ],
        "/records/2/id",
      ],
      [
        "an unknown category",
        () => [good(), record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 60, { category: "fun" as Category })],
        "/records/1/category",
      ],
      [
        "an empty id",
        () => [good(), { ...record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 60), id: "" }],
        "/records/1/id",
      ],
      [
        "an id over 100 characters",
        () => [good(), { ...record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 60), id: "x".repeat(101) }],
        "/records/1/id",
      ],
      ["an empty app", () => [good(), record("   ", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 60)], "/records/1/app"],
      [
        "a date-time that is none",
        () => [good(), record("Chat", "yesterday", "2026-11-04T09:10:00Z", 60)],
        "/records/1/startedAt",
      ],
      [
        "a missing field",
        () => [good(), (({ endedAt: _, ...rest }) => rest)(record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 60))],
        "/records/1/endedAt",
      ],
      [
        "an unknown field",
        () => [good(), { ...record("Chat", "2026-11-04T09:00:00Z", "2026-11-04T09:10:00Z", 60), device: "phone" }],
        "/records/1/device",
      ],
      ["no records", () => [], "/records"],
      [
        "more than 500 records",
        () => Array.from({ length: 501 }, (_, i) => record(`App ${i}`, "2026-11-04T09:00:00Z", "2026-11-04T09:01:00Z", 60)),
        "/records",
      ],
    ];
    test.each(cases)("400 for %s, naming the record, and nothing is stored", async (_name, batch, pointer) => {
      const me = await user();
      const response = await api("/activity/records", { token: me.token, json: { records: batch() } });
      const problem = expectProblem(response, 400, "validation_failed");
      expect(problem.errors?.map((error) => error.pointer)).toEqual([pointer]);
      expect(problem.errors?.[0]?.in).toBe("body");
      expect(await storedCount(me)).toBe(0);
    });

    test("a record a few minutes ahead of the server's clock is fine (phones' clocks drift)", async () => {
      const me = await user();
      expect(await report(me, [record("Chat", soon(-2), soon(2), 200)])).toMatchObject({ accepted: 1 });
    });

    test("400 for a record overlapping a stored one of the same app, naming both; another app may overlap", async () => {
      const me = await user();
      const stored = record("Tube", "2026-11-05T18:00:00Z", "2026-11-05T19:00:00Z", 3000, {
        category: "video",
        id: "evening-tube",
      });
      await report(me, [stored]);
      const response = await api("/activity/records", {
        token: me.token,
        json: {
          records: [
            record("Music", "2026-11-05T18:10:00Z", "2026-11-05T18:20:00Z", 600, { category: "music" }),
            record("Tube", "2026-11-05T18:59:00Z", "2026-11-05T19:10:00Z", 300, { category: "video" }),
          ],
        },
      });
      const problem = expectProblem(response, 400, "validation_failed");
      expect(problem.errors).toEqual([
        { in: "body", pointer: "/records/1/startedAt", detail: expect.stringContaining('"evening-tube"') },
      ]);
      expect(problem.detail).toMatch(/^Nothing was stored: records\.1\.startedAt: overlaps/);
      expect(await storedCount(me)).toBe(1);
      // Touching the stored range is not overlapping.
      expect(
        await report(me, [record("Tube", "2026-11-05T19:00:00Z", "2026-11-05T19:10:00Z", 300, { category: "video" })]),
      ).toMatchObject({ accepted: 1 });
    });

    test("every broken rule of a batch is listed at once", async () => {
      const me = await user();
      const response = await api("/activity/records", {
        token: me.token,
        json: {
          records: [
            record("Chat", "2026-11-04T09:10:00Z", "2026-11-04T09:00:00Z", 0),
            good(),
            record("Mail", "2026-11-04T09:00:00Z", "2026-11-04T09:01:00Z", 61),
          ],
        },
      });
      expect(expectProblem(response, 400, "validation_failed").errors?.map((error) => error.pointer)).toEqual([
        "/records/0/endedAt",
        "/records/2/seconds",
      ]);
    });
  });

  describe("GET /activity/summary and /activity/daily", () => {
    test("a record across local midnight is split between the days of the user's zone, not of UTC", async () => {
      const [prague, newYork] = [await user(PRAGUE), await user("America/New_York")];
      // 23:30 to 00:30 in Prague (CET): 22:30 to 23:30 UTC, 17:30 to 18:30 in New York.
      const late = () => record("Tube", "2026-11-10T22:30:00Z", "2026-11-10T23:30:00Z", 3000, { category: "video" });
      await report(prague, [late()]);
      await report(newYork, [late()]);

      const inPrague = await summary(prague, "?from=2026-11-10&to=2026-11-11");
      expect(inPrague).toMatchObject({
        from: "2026-11-10",
        to: "2026-11-11",
        timeZone: PRAGUE,
        days: 2,
        totalSeconds: 3000,
        dailyAverageSeconds: 1500,
        perDay: [
          { date: "2026-11-10", seconds: 1500 },
          { date: "2026-11-11", seconds: 1500 },
        ],
        categories: [{ category: "video", seconds: 3000 }],
        topApps: [{ app: "Tube", category: "video", seconds: 3000 }],
      });
      const tenth = await daily(prague, "?date=2026-11-10");
      expect(tenth.hours).toHaveLength(24);
      expect(tenth.hours[23]).toEqual({
        startsAt: "2026-11-10T22:00:00.000Z",
        endsAt: "2026-11-10T23:00:00.000Z",
        hour: 23,
        seconds: 1500,
      });
      expect(tenth.totalSeconds).toBe(1500);
      expect((await daily(prague, "?date=2026-11-11")).hours[0]).toMatchObject({ hour: 0, seconds: 1500 });

      const inNewYork = await summary(newYork, "?from=2026-11-10&to=2026-11-11");
      expect(inNewYork.perDay).toEqual([
        { date: "2026-11-10", seconds: 3000 },
        { date: "2026-11-11", seconds: 0 },
      ]);
      const newYorkDay = await daily(newYork, "?date=2026-11-10");
      expect(newYorkDay.hours.filter((hour) => hour.seconds > 0).map(({ hour, seconds }) => [hour, seconds])).toEqual([
        [17, 1500],
        [18, 1500],
      ]);
    });

    test("the day the clocks go back has 25 hours, 02:00 twice, and midnight still splits records", async () => {
      const me = await user(PRAGUE);
      await report(me, [
        // 23:00 to 01:00 CEST across the midnight before the change.
        record("Chat", "2026-10-24T21:00:00Z", "2026-10-24T23:00:00Z", 7200),
        // 02:00 CEST to 02:00 CET: the repeated hour, twice.
        record("Game", "2026-10-25T00:00:00Z", "2026-10-25T02:00:00Z", 7200, { category: "games" }),
      ]);
      const day = await daily(me, "?date=2026-10-25");
      expect(day.hours).toHaveLength(25);
      expect(day.hours.slice(0, 5).map(({ hour, seconds }) => [hour, seconds])).toEqual([
        [0, 3600],
        [1, 0],
        [2, 3600],
        [2, 3600],
        [3, 0],
      ]);
      expect(day.hours.at(-1)).toMatchObject({ hour: 23, endsAt: "2026-10-25T23:00:00.000Z" });
      expect(day.totalSeconds).toBe(10800);
      expect(day.apps).toEqual([
        { app: "Game", category: "games", seconds: 7200 },
        { app: "Chat", category: "social", seconds: 3600 },
      ]);
      const days = await summary(me, "?from=2026-10-24&to=2026-10-26");
      expect(days.perDay).toEqual([
        { date: "2026-10-24", seconds: 3600 },
        { date: "2026-10-25", seconds: 10800 },
        { date: "2026-10-26", seconds: 0 },
      ]);
      expect(days).toMatchObject({ totalSeconds: 14400, dailyAverageSeconds: 4800 });
    });

    test("the day the clocks go forward has 23 hours and no 02:00", async () => {
      const me = await user(PRAGUE);
      // 01:30 CET to 03:30 CEST: one real hour.
      await report(me, [record("Chat", "2026-03-29T00:30:00Z", "2026-03-29T01:30:00Z", 3600)]);
      const day = await daily(me, "?date=2026-03-29");
      expect(day.hours).toHaveLength(23);
      expect(day.hours.map((hour) => hour.hour)).not.toContain(2);
      expect(day.hours.slice(0, 3).map(({ hour, seconds }) => [hour, seconds])).toEqual([
        [0, 0],
        [1, 1800],
        [3, 1800],
      ]);
    });

    test("by default the summary covers the last seven days and the daily view today, in the user's zone", async () => {
      const me = await user("Asia/Tokyo");
      await report(me, [
        record("Chat", iso(Date.now() - 3 * 60_000), iso(Date.now() - 60_000), 120),
        record("Chat", iso(Date.now() - 8 * 86_400_000), iso(Date.now() - 8 * 86_400_000 + 60_000), 60),
      ]);
      const week = await summary(me);
      expect(week).toMatchObject({
        from: localToday("Asia/Tokyo", -6),
        to: localToday("Asia/Tokyo"),
        days: 7,
        totalSeconds: 120,
      });
      const today = await daily(me);
      expect(today.date).toBe(localToday("Asia/Tokyo"));
      expect(today.totalSeconds).toBe(week.perDay.at(-1)!.seconds);
    });

    test("400 for windows that make no sense, naming the query field", async () => {
      const me = await user();
      const bad: [string, string, string][] = [
        ["/activity/summary?from=2026-11-10&to=2026-11-01", "/from", "must not be after to (2026-11-01)"],
        ["/activity/summary?from=2024-01-01&to=2026-11-01", "/from", "must be at most 366 days before to"],
        ["/activity/summary?from=10.11.2026", "/from", "must be a date such as 2026-12-01"],
        ["/activity/summary?days=3", "/days", "Unknown field"],
        ["/activity/daily?date=2026-13-01", "/date", "must be a date such as 2026-12-01"],
      ];
      for (const [path, pointer, detail] of bad) {
        const problem = expectProblem(await api(path, { token: me.token }), 400, "validation_failed");
        expect(problem.errors, path).toEqual([{ in: "query", pointer, detail }]);
      }
      expect((await summary(me, "?from=2025-11-01&to=2026-11-01")).days).toBe(366);
    });

    test("a stranger's records never count", async () => {
      const [me, stranger] = [await user(), await user()];
      await report(me, [record("Chat", "2026-11-12T10:00:00Z", "2026-11-12T10:10:00Z", 600)]);
      await report(stranger, [
        record("Stranger app", "2026-11-12T10:00:00Z", "2026-11-12T12:00:00Z", 7000, { category: "games" }),
      ]);
      const week = await summary(me, "?from=2026-11-12&to=2026-11-12");
      expect(week).toMatchObject({ totalSeconds: 600, apps: [{ app: "Chat", category: "social", seconds: 600 }] });
      expect(JSON.stringify(await daily(me, "?date=2026-11-12"))).not.toContain("Stranger app");
    });
  });

  describe("POST /activity/analysis", () => {
    test("the built-in assistant compares with the week before and ties focus time to the user's open tasks", async () => {
      const [me, stranger] = [await user(PRAGUE), await user(PRAGUE)];
      const day = 86_400_000;
      await createTask(context.server, me.token, { title: "Thesis draft", dueAt: iso(Date.now() - day) });
      await createTask(context.server, me.token, { title: "Slides", dueAt: iso(Date.now() + 2 * day) });
      await createTask(context.server, me.token, { title: "Someday", dueAt: iso(Date.now() + 30 * day) });
      const done = await createTask(context.server, me.token, { title: "Finished", dueAt: iso(Date.now() - 2 * day) });
      expect((await api(`/tasks/${done.id}`, { token: me.token, method: "PATCH", json: { status: "done" } })).status).toBe(200);
      await createTask(context.server, stranger.token, { title: "Stranger task", dueAt: iso(Date.now() - 3 * day) });
      await report(stranger, [
        record("Stranger app", "2026-11-10T10:00:00Z", "2026-11-10T20:00:00Z", 30000, { category: "games" }),
      ]);
      await report(me, [
        // The week of 9-15 November (CET, UTC+1).
        record("Tube", "2026-11-10T17:00:00Z", "2026-11-10T21:00:00Z", 12600, { category: "video" }),
        record("Chat", "2026-11-11T22:30:00Z", "2026-11-11T23:30:00Z", 3000),
        record("Reader", "2026-11-12T07:00:00Z", "2026-11-12T08:00:00Z", 1800, { category: "reading" }),
        // The week before.
        record("Tube", "2026-11-03T19:00:00Z", "2026-11-03T21:00:00Z", 6000, { category: "video" }),
      ]);

      const result = await analysis(me, { from: "2026-11-09", to: "2026-11-15" });
      expect(result).toMatchObject({
        from: "2026-11-09",
        to: "2026-11-15",
        previousFrom: "2026-11-02",
        previousTo: "2026-11-08",
        timeZone: PRAGUE,
        text: null,
        answeredBy: { provider: "built-in" },
      });
      expect(result.fallbackReason).toBeUndefined();
      const thesis = { id: expect.any(String), title: "Thesis draft", dueAt: expect.any(String) };
      expect(result.facts).toEqual({
        days: 7,
        totalSeconds: 17400,
        previousTotalSeconds: 6000,
        changePercent: 190,
        dailyAverageSeconds: 2486,
        categories: [
          { category: "video", seconds: 12600, previousSeconds: 6000 },
          { category: "social", seconds: 3000, previousSeconds: 0 },
          { category: "reading", seconds: 1800, previousSeconds: 0 },
        ],
        topApps: [
          { app: "Tube", category: "video", seconds: 12600 },
          { app: "Chat", category: "social", seconds: 3000 },
          { app: "Reader", category: "reading", seconds: 1800 },
        ],
        // 23:30 to 00:30 is one night.
        lateNightSeconds: 3000,
        lateNights: 1,
        // 18:00 to 22:00 local, 3150 s an hour: the earliest of those hours.
        peakHour: 18,
        busiestDay: { date: "2026-11-10", seconds: 12600 },
        tasks: {
          open: 3,
          overdue: 1,
          dueSoon: 1,
          next: [
            thesis,
            { id: expect.any(String), title: "Slides", dueAt: expect.any(String) },
            { id: expect.any(String), title: "Someday", dueAt: expect.any(String) },
          ],
        },
      });
      expect(result.insights).toEqual([
        { kind: "change", totalSeconds: 17400, previousTotalSeconds: 6000, changePercent: 190 },
        { kind: "heaviestCategory", category: "video", seconds: 12600, sharePercent: 72, dailyAverageSeconds: 1800 },
        { kind: "topApp", app: "Tube", category: "video", seconds: 12600, dailyAverageSeconds: 1800 },
        { kind: "lateNight", seconds: 3000, nights: 1 },
        {
          kind: "focus",
          minutesPerDay: 25,
          openTasks: 3,
          overdueTasks: 1,
          dueSoonTasks: 1,
          fromCategory: "video",
          peakHour: 18,
          nextTask: thesis,
        },
      ]);
      expect(JSON.stringify(result)).not.toMatch(/Stranger/);
    });

    test("without a body it covers the last seven days; an empty week says so", async () => {
      const me = await user("Asia/Tokyo");
      const result = await analysis(me);
      expect(result).toMatchObject({
        from: localToday("Asia/Tokyo", -6),
        to: localToday("Asia/Tokyo"),
        previousFrom: localToday("Asia/Tokyo", -13),
      });
      expect(result.insights).toEqual([{ kind: "noData" }, { kind: "noOpenTasks" }]);
    });

    test("400 for a window that makes no sense, naming the body field", async () => {
      const me = await user();
      const response = await api("/activity/analysis", { token: me.token, json: { from: "2026-11-20", to: "2026-11-10" } });
      expect(expectProblem(response, 400, "validation_failed").errors).toEqual([
        { in: "body", pointer: "/from", detail: "must not be after to (2026-11-10)" },
      ]);
    });
  });

  describe("DELETE /activity/records", () => {
    test("deletes the records before a local date, or all; a stranger's stay", async () => {
      const [me, stranger] = [await user(PRAGUE), await user(PRAGUE)];
      // 00:30 local on 5 November is still 4 November in UTC: `before` is read in the user's zone.
      await report(me, [
        record("Chat", "2026-11-04T23:30:00Z", "2026-11-04T23:40:00Z", 600),
        record("Chat", "2026-11-01T10:00:00Z", "2026-11-01T10:10:00Z", 600),
      ]);
      await report(stranger, [record("Chat", "2026-11-01T10:00:00Z", "2026-11-01T10:10:00Z", 600)]);

      for (const query of ["", "?before=2026-11-05&all=true", "?all=false"]) {
        const response = await api(`/activity/records${query}`, { token: me.token, method: "DELETE" });
        expectProblem(response, 400, "validation_failed");
      }
      const before = await api("/activity/records?before=2026-11-05", { token: me.token, method: "DELETE" });
      expect(expectShape(deleteRecordsOutput, before.body)).toEqual({ deleted: 1 });
      expect((await summary(me, "?from=2026-11-01&to=2026-11-07")).perDay.filter((d) => d.seconds > 0)).toEqual([
        { date: "2026-11-05", seconds: 600 },
      ]);
      const all = await api("/activity/records?all=true", { token: me.token, method: "DELETE" });
      expect(all.body).toEqual({ deleted: 1 });
      expect(await storedCount(me)).toBe(0);
      expect(await storedCount(stranger)).toBe(1);
    });
  });
});

describe("with an OpenAI-compatible endpoint", () => {
  let ai: ChatCompletionsServer;
  const REPLY = "Your week looked calmer than the one before.";
  beforeAll(async () => {
    ai = await startChatCompletionsServer();
  });
  const { context, api, user, report, analysis } = suite(() => ({
    AI_BASE_URL: ai.url,
    ALLOW_PRIVATE_NETWORK_TARGETS: "ai", // the endpoint listens on 127.0.0.1, as a local Ollama would
    AI_MODEL: "tiny-model",
    AI_TIMEOUT_MS: "400",
    AI_DAILY_REQUESTS: "2",
  }));
  afterAll(() => ai?.close());
  afterEach(() => {
    ai.delayMs = 0;
    ai.fail = null;
    ai.reply = () => REPLY;
    ai.requests.length = 0;
  });

  /** A user with a week of records and a task, and a stranger with distinctive ones of their own. */
  async function seeded(locale = "en") {
    const [me, stranger] = [await user(PRAGUE, locale), await user(PRAGUE)];
    await createTask(context.server, me.token, { title: "Thesis draft", dueAt: iso(Date.now() + 86_400_000) });
    await createTask(context.server, stranger.token, { title: "Zebra stranger task", dueAt: iso(Date.now() + 86_400_000) });
    await report(me, [record("Tube", "2026-11-10T17:00:00Z", "2026-11-10T21:00:00Z", 12600, { category: "video" })]);
    await report(stranger, [
      record("Zebra stranger app", "2026-11-10T10:00:00Z", "2026-11-10T12:00:00Z", 7000, { category: "games" }),
    ]);
    return me;
  }
  const WEEK = { from: "2026-11-09", to: "2026-11-15" };

  test("the endpoint writes the answer from this user's facts only, in their language; answeredBy names the model", async () => {
    ai.reply = () => REPLY;
    const me = await seeded("cs");
    const result = await analysis(me, WEEK);
    expect(result).toMatchObject({ text: REPLY, answeredBy: { provider: "openai-compatible", model: "tiny-model" } });
    expect(result.fallbackReason).toBeUndefined();
    // The built-in findings come along, from the same facts.
    expect(result.insights[0]).toMatchObject({ kind: "change", totalSeconds: 12600 });

    expect(ai.requests).toHaveLength(1);
    const [system, prompt] = ai.requests[0]!.messages;
    expect(system).toMatchObject({ role: "system", content: expect.stringContaining("in Čeština") });
    const facts = JSON.parse(prompt!.content);
    expect(facts).toMatchObject({
      period: WEEK,
      previousPeriod: { from: "2026-11-02", to: "2026-11-08" },
      totalSeconds: 12600,
      topApps: [{ app: "Tube", category: "video", seconds: 12600 }],
      tasks: { open: 1, next: [{ title: "Thesis draft" }] },
    });
    expect(JSON.stringify(ai.requests)).not.toMatch(/Zebra/);
  });

  test("an endpoint that does not answer in time is a 503 with Retry-After", async () => {
    const me = await seeded();
    ai.delayMs = 1500;
    const response = await api("/activity/analysis", { token: me.token, json: WEEK });
    expect(expectProblem(response, 503, "unavailable").detail).toMatch(/did not answer within/);
    expect(response.headers.get("retry-after")).toBe("30");
  });

  test("an error answer of the endpoint is a 503", async () => {
    const me = await seeded();
    ai.fail = { status: 500, message: "model overloaded" };
    expect(expectProblem(await api("/activity/analysis", { token: me.token, json: WEEK }), 503, "unavailable").detail).toMatch(
      /500.*model overloaded/,
    );
  });

  test("an empty answer falls back to the built-in assistant and says why", async () => {
    const me = await seeded();
    ai.reply = () => "  \n ";
    const result = await analysis(me, WEEK);
    expect(result).toMatchObject({
      text: null,
      answeredBy: { provider: "built-in" },
      fallbackReason: "The AI service gave an empty answer",
    });
    expect(result.insights.map((insight) => insight.kind)).toEqual(["change", "heaviestCategory", "topApp", "focus"]);
  });

  test("a used-up daily budget is a 429", async () => {
    const me = await user();
    await analysis(me, WEEK);
    await analysis(me, WEEK);
    const response = await api("/activity/analysis", { token: me.token, json: WEEK });
    expectProblem(response, 429, "rate_limited");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(ai.requests).toHaveLength(2);
  });
});
