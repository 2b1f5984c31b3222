import { invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { getVisibleTask } from "../tasks/service";
import { findNames, findSnapshotBefore, listTaskEvents, SNAPSHOT_TYPES, type HistoryEvent } from "./repo";
import { HISTORY_FIELDS, type HistoryEntry, type HistoryField, type HistoryOutput, type HistoryQuery } from "./schema";

/*
 * A task's history, read from the event log (lib/events): every `task.*` event carries the task as it was after the
 * change, so what a change did is the difference from the event before it. Anyone who can see the task reads it
 * (404 otherwise), newest first. Events addressed to one person (notifications, reminders) are not part of it.
 */

type Snapshot = Record<string, unknown>;

/** Where each history field is in a task snapshot. */
const SOURCE: Record<HistoryField, string> = {
  title: "title",
  description: "description",
  status: "status",
  priority: "priority",
  dueAt: "dueAt",
  startDate: "startDate",
  tags: "tags",
  assignees: "assigneeIds",
  collaborators: "collaboratorIds",
  groupId: "groupId",
  projectId: "projectId",
  userGroupId: "userGroupId",
  recurrence: "recurrence",
};
const PEOPLE_FIELDS: readonly HistoryField[] = ["assignees", "collaborators"];

const badCursor = () => invalidField("query", "/cursor", "is not a cursor of this history; start again without it");

function decodeCursor(cursor: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(cursor)) throw badCursor();
  return Number(cursor);
}

const snapshotOf = (event: HistoryEvent) =>
  (SNAPSHOT_TYPES as readonly string[]).includes(event.type) ? ((event.data.task as Snapshot | undefined) ?? null) : null;

function diff(before: Snapshot | null, after: Snapshot): { field: HistoryField; from: unknown; to: unknown }[] {
  if (!before) return [];
  return HISTORY_FIELDS.flatMap((field) => {
    const from = before[SOURCE[field]] ?? null;
    const to = after[SOURCE[field]] ?? null;
    return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ field, from, to }];
  });
}

const ids = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];

export async function getTaskHistory(actor: Actor, taskId: string, query: HistoryQuery): Promise<HistoryOutput> {
  await getVisibleTask(actor, taskId);
  const rows = await listTaskEvents(taskId, query.limit + 1, query.cursor ? decodeCursor(query.cursor) : null);
  const page = rows.slice(0, query.limit);
  // The snapshot before each task event: the next older one in the page, else the one before the page's oldest.
  const snapshots = page.map(snapshotOf);
  const oldest = page.findLast((event) => snapshotOf(event) !== null);
  const beforePage = oldest ? await findSnapshotBefore(taskId, oldest.id) : null;
  const previous = (index: number): Snapshot | null =>
    snapshots.slice(index + 1).find((snapshot) => snapshot !== null) ?? beforePage;

  const entries: (Omit<HistoryEntry, "actor"> & { actorId: string | null })[] = [];
  page.forEach((event, index) => {
    const base = {
      id: String(event.id),
      at: event.createdAt.toISOString(),
      actorId: event.actorId,
      changes: [],
      commentId: null,
    };
    const comment = event.data.comment as { id?: unknown } | undefined;
    const commentId =
      typeof comment?.id === "string" ? comment.id : typeof event.data.commentId === "string" ? event.data.commentId : null;
    switch (event.type) {
      case "task.created":
        entries.push({ ...base, kind: "created" });
        return;
      case "task.updated":
      case "task.moved": {
        const after = snapshots[index]!;
        const changes = diff(previous(index), after);
        if (event.type === "task.updated" && changes.length === 0) return; // nothing a reader would see
        const completed = changes.some((change) => change.field === "status" && change.to === "done");
        entries.push({ ...base, kind: completed ? "completed" : event.type === "task.moved" ? "moved" : "updated", changes });
        return;
      }
      case "comment.created":
        entries.push({ ...base, kind: "commented", commentId });
        return;
      case "comment.updated":
        entries.push({ ...base, kind: "commentEdited", commentId });
        return;
      case "comment.deleted":
        entries.push({ ...base, kind: "commentDeleted", commentId });
        return;
    }
  });

  const names = await findNames([
    ...entries.flatMap((entry) => (entry.actorId ? [entry.actorId] : [])),
    ...entries.flatMap((entry) =>
      entry.changes
        .filter((change) => PEOPLE_FIELDS.includes(change.field))
        .flatMap((change) => [...ids(change.from), ...ids(change.to)]),
    ),
  ]);
  const person = (id: string) => ({ id, name: names.get(id) ?? "" });
  const items = entries.map(({ actorId, ...entry }) => ({
    ...entry,
    actor: actorId && names.has(actorId) ? person(actorId) : null,
    changes: entry.changes.map((change) =>
      PEOPLE_FIELDS.includes(change.field)
        ? { ...change, from: ids(change.from).map(person), to: ids(change.to).map(person) }
        : change,
    ),
  }));
  return { items, nextCursor: rows.length > query.limit ? String(page.at(-1)!.id) : null };
}
