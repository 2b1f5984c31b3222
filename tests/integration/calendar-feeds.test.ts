import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { calendarFeedListOutput, createdCalendarFeedOutput } from "../../lib/calendar-feeds/schema";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function makeFeed(token: string, name = "Phone") {
  const response = await server.request("/api/v1/calendar-feeds", { token, json: { name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdCalendarFeedOutput, response.body);
}

/** Fetches a feed as a calendar app does (no Authorization), answers the status and the parsed calendar. */
async function fetchFeed(url: string) {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, text, events: [] as ICAL.Event[], calendar: null };
  expect(response.headers.get("content-type")).toMatch(/^text\/calendar/);
  const calendar = new ICAL.Component(ICAL.parse(text));
  // As a calendar app does: the times of an event are read in the zone its TZID names, from the feed's VTIMEZONE.
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));
  return { status: response.status, text, events, calendar };
}

/** The first `n` starts of an event (its series when it repeats), as UTC ISO strings. */
function starts(event: ICAL.Event, n: number): string[] {
  const iterator = event.iterator();
  const found: string[] = [];
  for (let next = iterator.next(); next && found.length < n; next = iterator.next()) {
    found.push(next.toJSDate().toISOString());
  }
  return found;
}

describe("POST|GET|DELETE /calendar-feeds", () => {
  test("POST /calendar-feeds – answers a secret URL once; GET lists the feed without it", async () => {
    const { token } = await registerUser(server);
    const feed = await makeFeed(token, "Work calendar");
    expect(feed.url).toMatch(new RegExp(`^${server.url}/calendar/[\\w-]{43}\\.ics$`));
    const list = expectShape(calendarFeedListOutput, (await server.request("/api/v1/calendar-feeds", { token })).body);
    expect(list.items).toEqual([{ id: feed.id, name: "Work calendar", createdAt: feed.createdAt, lastUsedAt: null }]);
    expect(JSON.stringify(list)).not.toContain(feed.url.split("/").at(-1)!.replace(".ics", ""));
    // Only a hash of the secret is stored.
    const [row] = await server.sql<{ secret_hash: string }>("select secret_hash from calendar_feeds where id = $1", [feed.id]);
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(feed.url).not.toContain(row!.secret_hash);
  });

  test("POST /calendar-feeds – 400 naming the field for an empty name; 401 without a token", async () => {
    const { token } = await registerUser(server);
    const problem = expectProblem(
      await server.request("/api/v1/calendar-feeds", { token, json: { name: " " } }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.[0]?.pointer).toBe("/name");
    expectProblem(await server.request("/api/v1/calendar-feeds", { json: {} }), 401, "unauthenticated");
  });

  test("DELETE /calendar-feeds/{id} – the URL answers 404 afterwards; another user's feed is a 404", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    await createTask(server, owner.token, { title: "Due soon", dueAt: "2026-12-01T08:00:00Z" });
    const feed = await makeFeed(owner.token);
    expect((await fetchFeed(feed.url)).status).toBe(200);
    expectProblem(
      await server.request(`/api/v1/calendar-feeds/${feed.id}`, { method: "DELETE", token: other.token }),
      404,
      "not_found",
    );
    expect((await fetchFeed(feed.url)).status).toBe(200);
    expect((await server.request(`/api/v1/calendar-feeds/${feed.id}`, { method: "DELETE", token: owner.token })).status).toBe(
      204,
    );
    const revoked = await fetchFeed(feed.url);
    expect(revoked.status).toBe(404);
    expect(revoked.text).not.toContain("Due soon");
    expect((await server.request("/api/v1/calendar-feeds", { token: owner.token })).body.items).toEqual([]);
  });

  test("GET /calendar/{file} – an unknown secret is a 404, a malformed one a 400", async () => {
    expect((await fetch(`${server.url}/calendar/${"A".repeat(43)}.ics`)).status).toBe(404);
    expect((await fetch(`${server.url}/calendar/short.ics`)).status).toBe(400);
  });
});

describe("GET /calendar/{secret}.ics", () => {
  let feedUrl: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    const { token } = await registerUser(server, { timeZone: "Europe/Prague" });
    const other = await registerUser(server, { timeZone: "Europe/Prague" });
    ids = {
      // 09:00 in Prague (winter time, UTC+1).
      once: (await createTask(server, token, { title: "Dentist", description: "Bring the card", dueAt: "2026-12-01T08:00:00Z" }))
        .id,
      weekly: (
        await createTask(server, token, {
          title: "Water the plants",
          dueAt: "2026-12-05T09:30:00Z",
          recurrence: { frequency: "weekly", interval: 2, count: 3 },
        })
      ).id,
      monthly: (
        await createTask(server, token, {
          title: "Pay the rent",
          dueAt: "2027-01-31T17:00:00Z",
          recurrence: { frequency: "monthly", until: "2027-05-31" },
        })
      ).id,
      afterCompletion: (
        await createTask(server, token, {
          title: "Haircut",
          dueAt: "2026-12-10T15:00:00Z",
          recurrence: { frequency: "monthly", anchor: "completion" },
        })
      ).id,
      done: (await createTask(server, token, { title: "Already done", status: "done", dueAt: "2026-12-02T08:00:00Z" })).id,
      undated: (await createTask(server, token, { title: "Someday" })).id,
    };
    await createTask(server, other.token, { title: "Someone else's secret task", dueAt: "2026-12-01T08:00:00Z" });
    await makeFeed(other.token);
    feedUrl = (await makeFeed(token)).url;
  });

  test("open tasks with a due date only: not done ones, not undated ones, never another user's", async () => {
    const { events, text } = await fetchFeed(feedUrl);
    expect(events.map((event) => event.summary).sort()).toEqual(["Dentist", "Haircut", "Pay the rent", "Water the plants"]);
    expect(text).not.toContain("Someone else's secret task");
    expect(text).not.toContain("Already done");
    expect(text).not.toContain("Someday");
    const dentist = events.find((event) => event.summary === "Dentist")!;
    expect(dentist.description).toBe("Bring the card");
    expect(dentist.uid).toBe(`task-${ids.once}@spolu`);
  });

  test("times are in the user's time zone, with its VTIMEZONE", async () => {
    const { events, calendar } = await fetchFeed(feedUrl);
    const zones = calendar!.getAllSubcomponents("vtimezone").map((zone) => zone.getFirstPropertyValue("tzid"));
    expect(zones).toEqual(["Europe/Prague"]);
    const dentist = events.find((event) => event.summary === "Dentist")!;
    expect(dentist.startDate.zone?.tzid).toBe("Europe/Prague");
    expect(dentist.startDate.toString()).toBe("2026-12-01T09:00:00");
    expect(dentist.startDate.toJSDate().toISOString()).toBe("2026-12-01T08:00:00.000Z");
  });

  test("a recurring task is a series (RRULE) from its current occurrence, with its count", async () => {
    const { events } = await fetchFeed(feedUrl);
    const plants = events.find((event) => event.summary === "Water the plants")!;
    expect(plants.isRecurring()).toBe(true);
    const rule = plants.component.getFirstPropertyValue("rrule") as ICAL.Recur;
    expect(rule.freq).toBe("WEEKLY");
    expect(rule.interval).toBe(2);
    expect(rule.count).toBe(3);
    expect(plants.uid).toMatch(/^series-[0-9a-f-]{36}@spolu$/);
    expect(starts(plants, 5)).toEqual(["2026-12-05T09:30:00.000Z", "2026-12-19T09:30:00.000Z", "2027-01-02T09:30:00.000Z"]);
  });

  test("a monthly series on the 31st falls on shorter months' last day, keeps its local time across DST, ends at until", async () => {
    const { events } = await fetchFeed(feedUrl);
    const rent = events.find((event) => event.summary === "Pay the rent")!;
    expect(rent.startDate.toString()).toBe("2027-01-31T18:00:00");
    const local = starts(rent, 10).map((iso) =>
      new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Prague", dateStyle: "short", timeStyle: "short" }).format(
        new Date(iso),
      ),
    );
    expect(local).toEqual(["2027-01-31 18:00", "2027-02-28 18:00", "2027-03-31 18:00", "2027-04-30 18:00", "2027-05-31 18:00"]);
  });

  test("a series repeated after completion shows only its current occurrence", async () => {
    const { events } = await fetchFeed(feedUrl);
    const haircut = events.find((event) => event.summary === "Haircut")!;
    expect(haircut.isRecurring()).toBe(false);
    expect(haircut.uid).toBe(`task-${ids.afterCompletion}@spolu`);
  });

  test("a task completed since leaves the feed; fetching records the feed's last use", async () => {
    const { token } = await registerUser(server, { timeZone: "UTC" });
    const task = await createTask(server, token, { title: "Soon done", dueAt: "2026-12-03T10:00:00Z" });
    const feed = await makeFeed(token);
    const before = await fetchFeed(feed.url);
    expect(before.events.map((event) => event.summary)).toEqual(["Soon done"]);
    // In UTC: no VTIMEZONE, times in UTC.
    expect(before.calendar!.getAllSubcomponents("vtimezone")).toEqual([]);
    expect(before.text).toContain("DTSTART:20261203T100000Z");
    await server.request(`/api/v1/tasks/${task.id}`, { method: "PATCH", token, json: { status: "done" } });
    expect((await fetchFeed(feed.url)).events).toEqual([]);
    const [listed] = (await server.request("/api/v1/calendar-feeds", { token })).body.items;
    expect(listed.lastUsedAt).not.toBeNull();
  });
});
