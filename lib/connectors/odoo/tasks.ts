import { createHash } from "node:crypto";
import { escapeHtml } from "../../email/templates";
import { localDateOf, startOfLocalDay } from "../../local-dates";
import type { CreateTaskInput, TaskOutput, UpdateTaskInput } from "../../tasks/schema";

/*
 * How an Odoo `project.task` and a Spolu task correspond (both directions):
 *
 * | Odoo project.task                  | Spolu task                                                          |
 * |------------------------------------|---------------------------------------------------------------------|
 * | name                               | title (cut at 500 characters)                                       |
 * | description (HTML)                 | description as plain text (paragraphs and <br> become line breaks)  |
 * | date_deadline (17+: UTC datetime   | dueAt (an Odoo date is the start of that day in the owner's zone)   |
 * |   "YYYY-MM-DD HH:MM:SS"; before: date)                                                                   |
 * | priority '0' / '1' (starred)       | normal / high (low and normal → '0'; high and urgent → '1')         |
 * | state '1_done' (17+), else a folded| done                                                                |
 * |   stage (before 17)                |                                                                     |
 * | state '1_canceled' (17+)           | cancelled                                                           |
 * | any other state or stage           | todo (in progress stays in progress)                                |
 *
 * The fingerprint stored with each link keeps a short hash per field of what was last synced, so an import changes
 * only the fields that changed in Odoo and an export writes only the fields that changed here; a field changed on
 * both sides takes the value of whichever side ran last.
 */

export const SYNCED_FIELDS = ["title", "description", "due", "priority", "state"] as const;
type SyncedField = (typeof SYNCED_FIELDS)[number];
export type TaskState = "open" | "done" | "cancelled";

/** The synced content of a task, the same for both sides. */
export interface SyncedTask {
  title: string;
  description: string;
  /** 17+: the UTC instant (ISO, whole seconds); before 17: the date. Null: none. */
  due: string | null;
  priority: "0" | "1";
  state: TaskState;
}

export interface OdooTaskRecord {
  id: number;
  name: string;
  description?: string | false;
  date_deadline?: string | false;
  priority?: string;
  state?: string;
  stage_id?: [number, string] | false;
  write_date?: string;
}

export const TITLE_MAX = 500;
const DESCRIPTION_MAX = 20_000;
const ODOO_DATETIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;
const ODOO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The fields read from project.task in a version: `user_ids` since 16 (`user_id` before), `state` since 17. */
export function taskFields(major: number): string[] {
  return [
    "name",
    "project_id",
    "stage_id",
    major >= 16 ? "user_ids" : "user_id",
    "date_deadline",
    "description",
    "priority",
    ...(major >= 17 ? ["state"] : []),
    "write_date",
  ];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

/** Odoo's HTML as plain text: block ends and <br> become line breaks, tags go, entities are decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)>/gi, "\n")
    .replace(/<li[^>]*>/gi, "• ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+|#39);/gi, (entity, name: string) => {
      if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Plain text as Odoo HTML: one paragraph per line. */
export function textToHtml(text: string): string {
  return text
    ? text
        .split(/\r?\n/)
        .map((line) => `<p>${escapeHtml(line) || "<br>"}</p>`)
        .join("")
    : "";
}

/** The record's synced content; throws (an item failure) for a deadline that is not a valid date. */
export function fromOdoo(record: OdooTaskRecord, major: number, foldedStages: ReadonlySet<number>): SyncedTask {
  const title = (record.name ?? "").trim().slice(0, TITLE_MAX);
  if (!title) throw new Error("the task has no name");
  let due: string | null = null;
  if (record.date_deadline) {
    const value = record.date_deadline;
    const datetime = value.match(ODOO_DATETIME);
    const instant = datetime ? new Date(`${datetime[1]}T${datetime[2]}Z`) : null;
    if (datetime && instant && !Number.isNaN(instant.getTime()) && instant.toISOString().startsWith(datetime[1]!)) {
      due = major >= 17 ? instant.toISOString().replace(".000Z", "Z") : datetime[1]!;
    } else if (
      ODOO_DATE.test(value) &&
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
    ) {
      due = major >= 17 ? `${value}T00:00:00Z` : value;
    } else {
      throw new Error(`date_deadline "${value}" is not a date`);
    }
  }
  let state: TaskState = "open";
  if (major >= 17) state = record.state === "1_done" ? "done" : record.state === "1_canceled" ? "cancelled" : "open";
  else if (record.stage_id && foldedStages.has(record.stage_id[0])) state = "done";
  return {
    title,
    description: htmlToText(record.description || "").slice(0, DESCRIPTION_MAX),
    due,
    priority: record.priority === "1" ? "1" : "0",
    state,
  };
}

/** A local task's synced content, in the version's terms. */
export function fromLocal(task: TaskOutput, major: number, timeZone: string): SyncedTask {
  let due: string | null = null;
  if (task.dueAt)
    due =
      major >= 17 ? new Date(task.dueAt).toISOString().replace(/\.\d{3}Z$/, "Z") : localDateOf(new Date(task.dueAt), timeZone);
  return {
    title: task.title,
    description: task.description,
    due,
    priority: task.priority === "high" || task.priority === "urgent" ? "1" : "0",
    state: task.status === "done" ? "done" : task.status === "cancelled" ? "cancelled" : "open",
  };
}

const dueAtOf = (due: string | null, timeZone: string) =>
  due === null ? null : ODOO_DATE.test(due) ? startOfLocalDay(due, timeZone).toISOString() : due;

export function toCreateInput(synced: SyncedTask, timeZone: string): CreateTaskInput {
  return {
    title: synced.title,
    description: synced.description,
    dueAt: dueAtOf(synced.due, timeZone),
    priority: synced.priority === "1" ? "high" : "normal",
    status: synced.state === "open" ? "todo" : synced.state,
  };
}

/** The local change for the fields that changed in Odoo; an open state leaves `in_progress` alone. */
export function toUpdateInput(
  synced: SyncedTask,
  fields: readonly SyncedField[],
  current: TaskOutput | null,
  timeZone: string,
): UpdateTaskInput {
  const input: UpdateTaskInput = {};
  if (fields.includes("title")) input.title = synced.title;
  if (fields.includes("description")) input.description = synced.description;
  if (fields.includes("due")) input.dueAt = dueAtOf(synced.due, timeZone);
  if (fields.includes("priority")) input.priority = synced.priority === "1" ? "high" : "normal";
  if (fields.includes("state")) {
    const open = current?.status === "in_progress" ? "in_progress" : "todo";
    input.status = synced.state === "open" ? open : synced.state;
  }
  return input;
}

/** The Odoo values for the given fields (`state` only from 17 on, when it exists). */
export function toOdooValues(synced: SyncedTask, fields: readonly SyncedField[], major: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (fields.includes("title")) values.name = synced.title;
  if (fields.includes("description")) values.description = textToHtml(synced.description);
  if (fields.includes("due"))
    values.date_deadline = synced.due === null ? false : major >= 17 ? synced.due.replace("T", " ").replace("Z", "") : synced.due;
  if (fields.includes("priority")) values.priority = synced.priority;
  if (fields.includes("state") && major >= 17)
    values.state = synced.state === "done" ? "1_done" : synced.state === "cancelled" ? "1_canceled" : "01_in_progress";
  return values;
}

// Fingerprints: `title=<hash>;description=<hash>;...`

const hashOf = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);

export type Fingerprint = Partial<Record<SyncedField, string>>;

export function fingerprintOf(synced: SyncedTask): Fingerprint {
  return Object.fromEntries(SYNCED_FIELDS.map((field) => [field, hashOf(synced[field])]));
}

export function encodeFingerprint(fingerprint: Fingerprint): string {
  return SYNCED_FIELDS.map((field) => `${field}=${fingerprint[field] ?? ""}`).join(";");
}

export function decodeFingerprint(text: string | null): Fingerprint {
  const fingerprint: Fingerprint = {};
  for (const part of (text ?? "").split(";")) {
    const [field, hash] = part.split("=");
    if ((SYNCED_FIELDS as readonly string[]).includes(field!) && hash) fingerprint[field as SyncedField] = hash;
  }
  return fingerprint;
}

/** The fields whose content differs from what the fingerprint recorded. */
export function changedFields(
  synced: SyncedTask,
  recorded: Fingerprint,
  only: readonly SyncedField[] = SYNCED_FIELDS,
): SyncedField[] {
  const now = fingerprintOf(synced);
  return only.filter((field) => now[field] !== recorded[field]);
}
