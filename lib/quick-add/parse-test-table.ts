/**
 * Shared by the per-language tables (parse-*.test.ts): runs phrases through parseQuickAdd at one fixed local
 * "now" (Thursday 26 March 2026, 10:00) in several time zones, and compares what a user would see: the title,
 * the local due and start times, priority, tags, repeat rule, group or project, and notes. The local expectations
 * are the same in every zone, so each zone checks that dates are placed in it (not in the server's or UTC) —
 * including across the DST changes of 27 March (Israel) and 29 March (EU) and 5 April (Sydney).
 */
import { expect, test } from "vitest";
import { DEFAULT_GROUPS } from "../groups/defaults";
import type { Locale } from "../i18n/locales";
import { fromZonedWallTime } from "../tasks/recurrence";
import { parseQuickAdd, type QuickAddLists, type QuickAddResult } from "./parse";

export interface Expected {
  /** Local due "YYYY-MM-DD HH:MM", or "" for none. */
  due?: string;
  start?: string;
  priority?: QuickAddResult["priority"];
  tags?: string[];
  /** "weekly/2", "monthly/12/completion" */
  repeat?: string;
  group?: string;
  project?: string;
  notes?: string[];
}

export type Row = [text: string, title: string, due: string, more?: Omit<Expected, "due">];

/** Every user's default groups (ids are their keys), and one project. */
export const LISTS: QuickAddLists = {
  groups: DEFAULT_GROUPS.map((group) => ({ id: group.key, names: Object.values(group.names) })),
  projects: [{ id: "website", name: "Website redesign" }],
};

/** Thursday 26 March 2026, 10:00 on the user's wall clock. */
export const NOW_WALL = { year: 2026, month: 3, day: 26, hour: 10, minute: 0, second: 0, millisecond: 0 };

export function localTime(iso: string | undefined, timeZone: string): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
}

function repeatOf(result: QuickAddResult): string | undefined {
  const rule = result.recurrence;
  if (!rule) return undefined;
  return `${rule.frequency}/${rule.interval}${rule.anchor === "completion" ? "/completion" : ""}`;
}

/** One test per phrase and zone. */
export function phraseTable(locale: Locale, timeZones: readonly string[], rows: readonly Row[]): void {
  for (const timeZone of timeZones) {
    const now = fromZonedWallTime(NOW_WALL, timeZone);
    test.each(rows)(`${timeZone}: %s`, (text, title, due, more = {}) => {
      const result = parseQuickAdd(text, { locale, now, timeZone, lists: LISTS });
      const seen = {
        title: result.title,
        due: localTime(result.dueAt, timeZone),
        start: localTime(result.startAt, timeZone) || undefined,
        priority: result.priority,
        tags: result.tags.length ? result.tags : undefined,
        repeat: repeatOf(result),
        group: result.groupId,
        project: result.projectId,
        notes: result.notes.length ? result.notes.map((note) => note.code) : undefined,
      };
      expect(seen).toEqual({ title, due, ...more, start: more.start, tags: more.tags, notes: more.notes });
      // Every span is the text it claims to be, and spans never overlap.
      let end = 0;
      for (const span of result.spans) {
        expect(text.slice(span.start, span.end)).toBe(span.text);
        expect(span.start).toBeGreaterThanOrEqual(end);
        end = span.end;
      }
    });
  }
}
