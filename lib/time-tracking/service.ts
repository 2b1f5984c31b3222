import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db } from "../db/client";
import { addDays, localDateOf, startOfLocalDay } from "../local-dates";
import { getVisibleTask } from "../tasks/service";
import { toCsv } from "./csv";
import {
  deleteOwnEntry,
  findOwnEntry,
  findRunning,
  insertEntry,
  listOwnEntries,
  listTaskEntries,
  listVisibleEntries,
  lockUser,
  trackedSeconds,
  updateEntryRow,
  type EntryRecord,
} from "./repo";
import {
  MAX_ENTRY_SECONDS,
  MAX_RANGE_DAYS,
  type CreateEntryInput,
  type EntryListOutput,
  type ExportQuery,
  type ListEntriesQuery,
  type ReportOutput,
  type ReportQuery,
  type StartedTimerOutput,
  type StartTimerInput,
  type TaskTimeOutput,
  type TimeEntryOutput,
  type TimerOutput,
  type UpdateEntryInput,
} from "./schema";

/*
 * Time tracking: timers and entries made by hand, on tasks the user can see (another task is a 404). One running
 * timer per user: starting one stops the running one, in one transaction with the user's row locked. Reports and
 * the CSV export cover everyone's time on the tasks the user can see, over local dates in the user's time zone.
 */

/** At most this many entries are read for a list, a report or an export. */
const MAX_ROWS = 10_000;

const noEntry = () => new AppError("not_found", "No such time entry");

function secondsBetween(start: Date, end: Date): number {
  return Math.max(0, Math.floor((end.getTime() - start.getTime()) / 1000));
}

export function toEntryOutput(entry: EntryRecord, now: Date): TimeEntryOutput {
  return {
    id: entry.id,
    taskId: entry.taskId,
    taskTitle: entry.taskTitle,
    userId: entry.userId,
    startedAt: entry.startedAt.toISOString(),
    endedAt: entry.endedAt?.toISOString() ?? null,
    running: entry.endedAt === null,
    durationSeconds: secondsBetween(entry.startedAt, entry.endedAt ?? now),
    note: entry.note,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}

// The timer

export async function getTimer(actor: Actor): Promise<TimerOutput> {
  const running = await findRunning(actor.userId);
  return { running: running && toEntryOutput(running, nowDate()) };
}

/**
 * Starts a timer on a task the actor can see. A timer running on another task stops now (answered as `stopped`);
 * one running on this task already goes on unchanged. The actor's row is locked meanwhile, so two starts at once
 * run one after the other and leave one timer running.
 */
export async function startTimer(actor: Actor, taskId: string, input: StartTimerInput): Promise<StartedTimerOutput> {
  return db().transaction(async (tx) => {
    await lockUser(actor.userId, tx);
    await getVisibleTask(actor, taskId, tx);
    const now = nowDate();
    const current = await findRunning(actor.userId, tx);
    if (current?.taskId === taskId) return { running: toEntryOutput(current, now), stopped: null };
    let stopped: TimeEntryOutput | null = null;
    if (current) {
      await updateEntryRow(current.id, { endedAt: now, updatedAt: now }, tx);
      stopped = toEntryOutput((await findOwnEntry(actor.userId, current.id, tx))!, now);
    }
    const id = await insertEntry(
      { userId: actor.userId, taskId, startedAt: now, endedAt: null, note: input.note ?? "", createdAt: now, updatedAt: now },
      tx,
    );
    return { running: toEntryOutput((await findOwnEntry(actor.userId, id, tx))!, now), stopped };
  });
}

/** Stops the actor's running timer (409 when none runs) and answers the finished entry. */
export async function stopTimer(actor: Actor): Promise<TimeEntryOutput> {
  return db().transaction(async (tx) => {
    await lockUser(actor.userId, tx);
    const current = await findRunning(actor.userId, tx);
    if (!current) throw new AppError("conflict", "No timer is running");
    const now = nowDate();
    await updateEntryRow(current.id, { endedAt: now, updatedAt: now }, tx);
    return toEntryOutput((await findOwnEntry(actor.userId, current.id, tx))!, now);
  });
}

// Entries by hand

/** Checks an entry's times: not in the future, the end after the start, at most MAX_ENTRY_SECONDS long. */
function checkTimes(startedAt: Date, endedAt: Date | null, now: Date): void {
  if (startedAt > now) throw invalidField("body", "/startedAt", "must not be in the future");
  if (endedAt === null) return;
  if (endedAt <= startedAt) throw invalidField("body", "/endedAt", "must be after startedAt");
  if (endedAt > now) throw invalidField("body", "/endedAt", "must not be in the future");
  if (endedAt.getTime() - startedAt.getTime() > MAX_ENTRY_SECONDS * 1000) {
    throw invalidField("body", "/endedAt", `an entry lasts at most ${MAX_ENTRY_SECONDS} seconds (7 days)`);
  }
}

export async function createEntry(actor: Actor, input: CreateEntryInput): Promise<TimeEntryOutput> {
  const now = nowDate();
  const startedAt = new Date(input.startedAt);
  const endedAt = input.endedAt ? new Date(input.endedAt) : new Date(startedAt.getTime() + input.durationSeconds! * 1000);
  checkTimes(startedAt, endedAt, now);
  return db().transaction(async (tx) => {
    await getVisibleTask(actor, input.taskId, tx);
    const id = await insertEntry(
      { userId: actor.userId, taskId: input.taskId, startedAt, endedAt, note: input.note ?? "", createdAt: now, updatedAt: now },
      tx,
    );
    return toEntryOutput((await findOwnEntry(actor.userId, id, tx))!, now);
  });
}

/** Changes one of the actor's entries; `endedAt` on the running timer stops it. */
export async function updateEntry(actor: Actor, entryId: string, input: UpdateEntryInput): Promise<TimeEntryOutput> {
  return db().transaction(async (tx) => {
    await lockUser(actor.userId, tx);
    const entry = await findOwnEntry(actor.userId, entryId, tx);
    if (!entry) throw noEntry();
    const now = nowDate();
    const startedAt = input.startedAt ? new Date(input.startedAt) : entry.startedAt;
    const endedAt = input.endedAt ? new Date(input.endedAt) : entry.endedAt;
    checkTimes(startedAt, endedAt, now);
    await updateEntryRow(entryId, { startedAt, endedAt, note: input.note ?? entry.note, updatedAt: now }, tx);
    return toEntryOutput((await findOwnEntry(actor.userId, entryId, tx))!, now);
  });
}

export async function deleteEntry(actor: Actor, entryId: string): Promise<void> {
  if (!(await deleteOwnEntry(actor.userId, entryId))) throw noEntry();
}

// Lists, totals and reports

interface Range {
  fromDate: string;
  toDate: string;
  from: Date;
  to: Date;
  days: string[];
}

/**
 * A range of local dates (both included; by default the last 7 days up to today) as instants in the actor's time
 * zone; 400 naming `to` when out of order or too long.
 */
function rangeOf(actor: Actor, query: { from?: string; to?: string }): Range {
  const toDate = query.to ?? localDateOf(nowDate(), actor.timeZone);
  const fromDate = query.from ?? addDays(toDate, -6);
  if (toDate < fromDate) throw invalidField("query", "/to", "must not be before from");
  if (toDate > addDays(fromDate, MAX_RANGE_DAYS - 1))
    throw invalidField("query", "/to", `the range is at most ${MAX_RANGE_DAYS} days`);
  const days: string[] = [];
  for (let day = fromDate; day <= toDate; day = addDays(day, 1)) days.push(day);
  return {
    fromDate,
    toDate,
    from: startOfLocalDay(fromDate, actor.timeZone),
    to: startOfLocalDay(addDays(toDate, 1), actor.timeZone),
    days,
  };
}

export async function listEntries(actor: Actor, query: ListEntriesQuery): Promise<EntryListOutput> {
  const range = rangeOf(actor, query);
  if (query.taskId) await getVisibleTask(actor, query.taskId);
  const now = nowDate();
  const rows = await listOwnEntries(actor.userId, { from: range.from, to: range.to, now, taskId: query.taskId }, MAX_ROWS);
  return { items: rows.map((row) => toEntryOutput(row, now)) };
}

/** Everyone's time on a task the actor can see, and the actor's part and running timer there. */
export async function getTaskTime(actor: Actor, taskId: string): Promise<TaskTimeOutput> {
  await getVisibleTask(actor, taskId);
  const now = nowDate();
  const entries = await listTaskEntries(taskId, MAX_ROWS);
  const sum = (list: EntryRecord[]) => secondsOf(list.reduce((ms, entry) => ms + clippedMs(entry, null, now), 0));
  const running = entries.find((entry) => entry.userId === actor.userId && entry.endedAt === null);
  return {
    taskId,
    totalSeconds: sum(entries),
    mineSeconds: sum(entries.filter((entry) => entry.userId === actor.userId)),
    running: running ? toEntryOutput(running, now) : null,
  };
}

/** Milliseconds of an entry within [from, to) (the whole entry without bounds); a running one counts up to `now`. */
function clippedMs(entry: EntryRecord, bounds: { from: Date; to: Date } | null, now: Date): number {
  const start = bounds ? Math.max(entry.startedAt.getTime(), bounds.from.getTime()) : entry.startedAt.getTime();
  const end = Math.min((entry.endedAt ?? now).getTime(), bounds ? bounds.to.getTime() : Infinity);
  return Math.max(0, end - start);
}

const secondsOf = (ms: number) => Math.floor(ms / 1000);

/**
 * Time per task, per person or per local day over the range: each entry counts for the part of it inside the range,
 * and `by: day` splits an entry at each local midnight (23:30-00:30 is half an hour on each day). Rows of tasks and
 * people come longest first; days in calendar order, every day of the range (0 where nothing was tracked).
 */
export async function getReport(actor: Actor, query: ReportQuery): Promise<ReportOutput> {
  const range = rangeOf(actor, query);
  const now = nowDate();
  const entries = await listVisibleEntries(actor.userId, { from: range.from, to: range.to, now }, MAX_ROWS);
  const rows = new Map<string, { label: string; ms: number; entries: number }>();
  const add = (key: string, label: string, ms: number) => {
    if (ms <= 0) return;
    const row = rows.get(key) ?? { label, ms: 0, entries: 0 };
    rows.set(key, { label, ms: row.ms + ms, entries: row.entries + 1 });
  };
  let totalMs = 0;
  for (const entry of entries) {
    const ms = clippedMs(entry, range, now);
    totalMs += ms;
    if (query.by === "task") add(entry.taskId, entry.taskTitle, ms);
    else if (query.by === "user") add(entry.userId, entry.userName, ms);
    else {
      const first = localDateOf(new Date(Math.max(entry.startedAt.getTime(), range.from.getTime())), actor.timeZone);
      const last = localDateOf(new Date(Math.min((entry.endedAt ?? now).getTime(), range.to.getTime()) - 1), actor.timeZone);
      for (let day = first; day <= last; day = addDays(day, 1)) {
        const bounds = { from: startOfLocalDay(day, actor.timeZone), to: startOfLocalDay(addDays(day, 1), actor.timeZone) };
        add(day, day, clippedMs(entry, bounds, now));
      }
    }
  }
  const output = [...rows.entries()].map(([key, row]) => ({
    key,
    label: row.label,
    seconds: secondsOf(row.ms),
    entries: row.entries,
  }));
  const ordered =
    query.by === "day"
      ? range.days.map((day) => output.find((row) => row.key === day) ?? { key: day, label: day, seconds: 0, entries: 0 })
      : output.sort((a, b) => b.seconds - a.seconds || a.label.localeCompare(b.label));
  return {
    from: range.fromDate,
    to: range.toDate,
    timeZone: actor.timeZone,
    by: query.by,
    rows: ordered,
    totalSeconds: secondsOf(totalMs),
  };
}

export const CSV_HEADER = ["date", "started_at", "ended_at", "duration_seconds", "person", "task", "note"] as const;

/**
 * The entries of the report's scope as CSV (RFC 4180, formula cells neutralised): one record per entry overlapping
 * the range, oldest first, its local start date in the actor's time zone, its times in UTC, its whole duration
 * (the running timer's so far, with `ended_at` empty).
 */
export async function exportCsv(actor: Actor, query: ExportQuery): Promise<{ filename: string; body: string }> {
  const range = rangeOf(actor, query);
  const now = nowDate();
  const entries = await listVisibleEntries(actor.userId, { from: range.from, to: range.to, now }, MAX_ROWS);
  const rows = entries.map((entry) => [
    localDateOf(entry.startedAt, actor.timeZone),
    entry.startedAt.toISOString(),
    entry.endedAt?.toISOString() ?? "",
    secondsBetween(entry.startedAt, entry.endedAt ?? now),
    entry.userName,
    entry.taskTitle,
    entry.note,
  ]);
  return { filename: `time-${range.fromDate}-${range.toDate}.csv`, body: toCsv(CSV_HEADER, rows) };
}

/** Seconds the user tracked within [from, to), for the weekly report. */
export function trackedSecondsBetween(userId: string, from: Date, to: Date, now: Date): Promise<number> {
  return trackedSeconds(userId, from, to, now);
}
