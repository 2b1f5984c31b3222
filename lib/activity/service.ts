import { AppError, invalidField, type FieldError } from "../api/app-error";
import { aiEndpointConfigured, BUILT_IN, complete } from "../ai/provider";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db } from "../db/client";
import { isLocale, LOCALE_NAMES } from "../i18n/locales";
import { addDays, localDateOf, startOfLocalDay } from "../local-dates";
import { analysisPrompt, builtInInsights, changePercent, isLateNight, type AnalysisWindow } from "./analysis";
import {
  deleteRecordRows,
  insertRecords,
  lockUserRecords,
  openTaskFacts,
  recordsBetween,
  storedClientIds,
  storedRanges,
} from "./repo";
import { batchErrors, newRecords, rangeOf, storedOverlapErrors } from "./rules";
import type {
  ActivityFacts,
  AnalysisOutput,
  DailyOutput,
  DeleteRecordsQuery,
  ReportRecordsInput,
  ReportRecordsOutput,
  SummaryOutput,
  WindowInput,
} from "./schema";
import {
  datesBetween,
  hourSlots,
  secondsPerDate,
  tally,
  topApps,
  windowOf,
  type HourSlot,
  type Tally,
  type UsageRecord,
} from "./tally";
import { DEFAULT_WINDOW_DAYS, LATE_NIGHT_UNTIL_HOUR, WINDOW_DAYS_MAX } from "./vocabulary";

/*
 * The activity monitor: phone usage that clients report in batches, counted on the user's calendar (their time
 * zone), and an analysis of a week by the built-in assistant or the AI endpoint.
 */

const DUE_SOON_DAYS = 7;
const DAY_MS = 86_400_000;
/** Errors quoted in a rejected batch's `detail` (all of them are in `errors`). */
const ERRORS_QUOTED = 3;

// Reporting

function batchRejected(errors: readonly FieldError[]): AppError {
  const quoted = errors
    .slice(0, ERRORS_QUOTED)
    .map(({ pointer, detail }) => `${pointer.slice(1).replace(/\//g, ".")}: ${detail}`);
  const more = errors.length > ERRORS_QUOTED ? `; and ${errors.length - ERRORS_QUOTED} more` : "";
  return new AppError("validation_failed", `Nothing was stored: ${quoted.join("; ")}${more}`, { errors: [...errors] });
}

/**
 * Stores a batch, all or nothing: every record is checked first (on its own, against the batch and against what is
 * stored) and one bad record rejects the whole batch. Records whose id is stored already are skipped as duplicates.
 */
export async function reportRecords(actor: Actor, input: ReportRecordsInput): Promise<ReportRecordsOutput> {
  const now = nowDate();
  const { records } = input;
  return db().transaction(async (tx) => {
    await lockUserRecords(actor.userId, tx);
    const stored = await storedClientIds(
      actor.userId,
      records.map((record) => record.id),
      tx,
    );
    const errors = batchErrors(records, now, stored);
    const fresh = newRecords(records, stored);
    if (fresh.length > 0) {
      const ranges = fresh.map(({ record }) => rangeOf(record));
      const start = new Date(Math.min(...ranges.map((range) => range.startedAt.getTime())));
      const end = new Date(Math.max(...ranges.map((range) => range.endedAt.getTime())));
      const apps = [...new Set(ranges.map((range) => range.app))];
      errors.push(...storedOverlapErrors(fresh, await storedRanges(actor.userId, apps, start, end, tx)));
    }
    if (errors.length > 0) throw batchRejected(errors);
    await insertRecords(
      fresh.map(({ record }) => ({
        userId: actor.userId,
        clientId: record.id,
        category: record.category,
        seconds: record.seconds,
        ...rangeOf(record),
      })),
      tx,
    );
    const accepted = new Set(fresh.map(({ index }) => index));
    return {
      accepted: accepted.size,
      duplicates: records.length - accepted.size,
      items: records.map((record, index) => ({
        id: record.id,
        status: accepted.has(index) ? ("accepted" as const) : ("duplicate" as const),
      })),
    };
  });
}

/** Deletes the user's records that started before a local date, or all of them. */
export async function deleteRecords(actor: Actor, query: DeleteRecordsQuery): Promise<{ deleted: number }> {
  if ((query.before === undefined) === (query.all === undefined)) {
    throw invalidField("query", "/before", "give either before (a date) or all=true");
  }
  const before = query.before ? startOfLocalDay(query.before, actor.timeZone) : null;
  return { deleted: await deleteRecordRows(actor.userId, before) };
}

// Windows of local dates

interface DateWindow {
  from: string;
  to: string;
}

function today(actor: Actor): string {
  return localDateOf(nowDate(), actor.timeZone);
}

/** The dates a summary or analysis covers: the last seven days (today included) unless `from` and `to` say else. */
function resolveWindow(actor: Actor, input: WindowInput, location: "query" | "body"): DateWindow {
  const to = input.to ?? today(actor);
  const from = input.from ?? addDays(to, -(DEFAULT_WINDOW_DAYS - 1));
  if (from > to) throw invalidField(location, "/from", `must not be after to (${to})`);
  if (addDays(from, WINDOW_DAYS_MAX) <= to)
    throw invalidField(location, "/from", `must be at most ${WINDOW_DAYS_MAX} days before to`);
  return { from, to };
}

/** The user's records counted over the hours of some local dates. */
async function tallyDates(actor: Actor, { from, to }: DateWindow, records?: readonly UsageRecord[]) {
  const slots = hourSlots(from, to, actor.timeZone);
  const { start, end } = windowOf(from, to, actor.timeZone);
  return { slots, tally: tally(records ?? (await recordsBetween(actor.userId, start, end)), slots) };
}

// Summaries

export async function getSummary(actor: Actor, query: WindowInput): Promise<SummaryOutput> {
  const window = resolveWindow(actor, query, "query");
  const { slots, tally: counted } = await tallyDates(actor, window);
  const perDay = secondsPerDate(slots, counted.slotSeconds);
  return {
    ...window,
    timeZone: actor.timeZone,
    days: perDay.length,
    totalSeconds: counted.totalSeconds,
    dailyAverageSeconds: Math.round(counted.totalSeconds / perDay.length),
    perDay,
    categories: counted.categories,
    apps: counted.apps,
    topApps: topApps(counted.apps),
  };
}

export async function getDaily(actor: Actor, query: { date?: string }): Promise<DailyOutput> {
  const date = query.date ?? today(actor);
  const { slots, tally: counted } = await tallyDates(actor, { from: date, to: date });
  return {
    date,
    timeZone: actor.timeZone,
    totalSeconds: counted.totalSeconds,
    hours: slots.map((slot, index) => ({
      startsAt: slot.startsAt.toISOString(),
      endsAt: slot.endsAt.toISOString(),
      hour: slot.hour,
      seconds: counted.slotSeconds[index]!,
    })),
    categories: counted.categories,
    apps: counted.apps,
  };
}

// Analysis

/** The wall-clock hour with the most time (the earliest of equals); null without any time. */
function peakHour(slots: readonly HourSlot[], counted: Tally): number | null {
  const perHour = new Array<number>(24).fill(0);
  slots.forEach((slot, index) => (perHour[slot.hour]! += counted.slotSeconds[index]!));
  const most = Math.max(...perHour);
  return most > 0 ? perHour.indexOf(most) : null;
}

/** Everything the analysis says is computed from these: the user's own records and tasks, nobody else's. */
async function gatherFacts(actor: Actor, window: AnalysisWindow): Promise<ActivityFacts> {
  const { start } = windowOf(window.previousFrom, window.previousTo, actor.timeZone);
  const { end } = windowOf(window.from, window.to, actor.timeZone);
  const records = await recordsBetween(actor.userId, start, end);
  const current = await tallyDates(actor, window, records);
  const previous = await tallyDates(actor, { from: window.previousFrom, to: window.previousTo }, records);
  const { totalSeconds } = current.tally;
  const previousTotalSeconds = previous.tally.totalSeconds;
  const days = datesBetween(window.from, window.to).length;

  // A night is named by its evening's date: 23:30 to 00:30 is one night.
  const lateNights = new Set<string>();
  let lateNightSeconds = 0;
  current.slots.forEach((slot, index) => {
    const seconds = current.tally.slotSeconds[index]!;
    if (seconds === 0 || !isLateNight(slot.hour)) return;
    lateNightSeconds += seconds;
    lateNights.add(slot.hour < LATE_NIGHT_UNTIL_HOUR ? addDays(slot.date, -1) : slot.date);
  });
  const previousByCategory = new Map(previous.tally.categories.map(({ category, seconds }) => [category, seconds]));
  const categories = current.tally.categories.map(({ category, seconds }) => ({
    category,
    seconds,
    previousSeconds: previousByCategory.get(category) ?? 0,
  }));
  for (const { category, seconds } of previous.tally.categories) {
    if (!categories.some((item) => item.category === category))
      categories.push({ category, seconds: 0, previousSeconds: seconds });
  }
  const perDay = secondsPerDate(current.slots, current.tally.slotSeconds);
  const busiest = perDay.reduce((best, day) => (day.seconds > best.seconds ? day : best), perDay[0]!);
  const now = nowDate();

  return {
    days,
    totalSeconds,
    previousTotalSeconds,
    changePercent: changePercent(totalSeconds, previousTotalSeconds),
    dailyAverageSeconds: Math.round(totalSeconds / days),
    categories,
    topApps: topApps(current.tally.apps),
    lateNightSeconds,
    lateNights: lateNights.size,
    peakHour: peakHour(current.slots, current.tally),
    busiestDay: totalSeconds > 0 ? busiest : null,
    tasks: await openTaskFacts(actor.userId, now, new Date(now.getTime() + DUE_SOON_DAYS * DAY_MS)),
  };
}

/**
 * Analyses a window (the last seven days by default) against the same number of days before it. Without an AI
 * endpoint the built-in assistant answers (its `insights`); with one, the endpoint writes `text` from the same facts.
 * An endpoint that fails or times out is a 503 and a used-up daily budget a 429: the user asked for the analysis
 * now. An empty answer falls back to the built-in assistant, saying so in `fallbackReason`.
 */
export async function analyseActivity(actor: Actor, input: WindowInput): Promise<AnalysisOutput> {
  const { from, to } = resolveWindow(actor, input, "body");
  const days = datesBetween(from, to).length;
  const window: AnalysisWindow = {
    from,
    to,
    previousFrom: addDays(from, -days),
    previousTo: addDays(from, -1),
    timeZone: actor.timeZone,
  };
  const facts = await gatherFacts(actor, window);
  const analysis = { ...window, facts, insights: builtInInsights(facts) };
  if (!aiEndpointConfigured()) return { ...analysis, text: null, answeredBy: BUILT_IN };

  const language = LOCALE_NAMES[isLocale(actor.locale) ? actor.locale : "en"];
  const answer = await complete({
    userId: actor.userId,
    purpose: "activity_analysis",
    messages: analysisPrompt(facts, window, language),
    maxTokens: 500,
  });
  const text = answer.text.trim();
  if (!text) return { ...analysis, text: null, answeredBy: BUILT_IN, fallbackReason: "The AI service gave an empty answer" };
  return { ...analysis, text, answeredBy: answer.answeredBy };
}
