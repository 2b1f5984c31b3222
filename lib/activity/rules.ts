import type { FieldError } from "../api/app-error";
import type { ReportedRecord } from "./schema";
import { CLOCK_SKEW_SECONDS, RECORD_RANGE_MAX_HOURS } from "./vocabulary";

/*
 * What makes a batch of reported records nonsense, beyond the shape schema.ts checks (pure). Each rule names the
 * record by its JSON Pointer (`/records/3/endedAt`), and every broken rule is listed, so that a client can fix a
 * whole batch at once.
 *
 * Overlap: two records of the same app (names compared exactly, after trimming) overlap when their ranges share
 * some time: a.startedAt < b.endedAt and b.startedAt < a.endedAt. Ranges that only touch (one ends when the other
 * starts) do not. A phone is in one app at a time, so such a pair counts the same minutes twice.
 */

export interface TimeRange {
  app: string;
  startedAt: Date;
  endedAt: Date;
}

/** A record in the batch with its place in it, for pointers. */
export interface Indexed<T> {
  index: number;
  record: T;
}

/** A record already stored, as far as the overlap rule needs it. */
export interface StoredRange extends TimeRange {
  clientId: string;
}

const RANGE_MAX_MS = RECORD_RANGE_MAX_HOURS * 3_600_000;

const bodyError = (pointer: string, detail: string): FieldError => ({ in: "body", pointer, detail });
const at = (index: number, field: string) => `/records/${index}/${field}`;

export function overlaps(a: TimeRange, b: TimeRange): boolean {
  return a.app === b.app && a.startedAt < b.endedAt && b.startedAt < a.endedAt;
}

/** The range of a reported record, as instants. */
export function rangeOf(record: ReportedRecord): TimeRange {
  return { app: record.app, startedAt: new Date(record.startedAt), endedAt: new Date(record.endedAt) };
}

/** The rules one record breaks on its own: order, length, the future, seconds that do not fit its range. */
function recordErrors(record: ReportedRecord, index: number, now: Date): FieldError[] {
  const { startedAt, endedAt } = rangeOf(record);
  const latest = now.getTime() + CLOCK_SKEW_SECONDS * 1000;
  const length = endedAt.getTime() - startedAt.getTime();
  if (startedAt.getTime() > latest) return [bodyError(at(index, "startedAt"), "is in the future")];
  if (length < 0) return [bodyError(at(index, "endedAt"), "must not be before startedAt")];
  const errors: FieldError[] = [];
  if (endedAt.getTime() > latest) errors.push(bodyError(at(index, "endedAt"), "is in the future"));
  if (length > RANGE_MAX_MS)
    errors.push(bodyError(at(index, "endedAt"), `must be at most ${RECORD_RANGE_MAX_HOURS} hours after startedAt`));
  const rangeSeconds = Math.ceil(length / 1000);
  if (record.seconds > rangeSeconds) {
    errors.push(bodyError(at(index, "seconds"), `must not be more than the ${rangeSeconds} seconds from startedAt to endedAt`));
  }
  return errors;
}

/**
 * Everything wrong with a batch on its own: each record's rules, ids repeated within the batch, and new records of
 * the same app that overlap each other. `storedIds` are the batch's ids that are stored already: those records are
 * duplicates, skipped rather than compared.
 */
export function batchErrors(records: readonly ReportedRecord[], now: Date, storedIds: ReadonlySet<string>): FieldError[] {
  const errors = records.flatMap((record, index) => recordErrors(record, index, now));
  const firstIndex = new Map<string, number>();
  records.forEach((record, index) => {
    const first = firstIndex.get(record.id);
    if (first === undefined) firstIndex.set(record.id, index);
    else errors.push(bodyError(at(index, "id"), `repeats the id of /records/${first}`));
  });
  const fresh = newRecords(records, storedIds).map(({ index, record }) => ({ index, range: rangeOf(record) }));
  for (const [position, later] of fresh.entries()) {
    const earlier = fresh.slice(0, position).find((candidate) => overlaps(candidate.range, later.range));
    if (earlier)
      errors.push(bodyError(at(later.index, "startedAt"), `overlaps /records/${earlier.index}, a record of the same app`));
  }
  return errors;
}

/** The records of a batch that are not stored yet (the first of each id), with their places in the batch. */
export function newRecords<T extends { id: string }>(records: readonly T[], storedIds: ReadonlySet<string>): Indexed<T>[] {
  const seen = new Set(storedIds);
  return records.flatMap((record, index) => {
    if (seen.has(record.id)) return [];
    seen.add(record.id);
    return [{ index, record }];
  });
}

/** New records that overlap a stored record of the same app. */
export function storedOverlapErrors(fresh: readonly Indexed<ReportedRecord>[], stored: readonly StoredRange[]): FieldError[] {
  return fresh.flatMap(({ index, record }) => {
    const clash = stored.find((range) => overlaps(range, rangeOf(record)));
    if (!clash) return [];
    const when = `${clash.startedAt.toISOString()} to ${clash.endedAt.toISOString()}`;
    return [
      bodyError(at(index, "startedAt"), `overlaps the stored record ${JSON.stringify(clash.clientId)} of the same app (${when})`),
    ];
  });
}
