import { generateKeyBetween } from "fractional-indexing";
import { nowDate } from "../clock";
import { db } from "../db/client";
import type { TaskRow } from "../db/schema/tasks";
import { log } from "../log";
import { nextOccurrence } from "./recurrence";
import { announceTaskChange } from "./service";
import {
  claimRecurringTask,
  copyAssigneesAndSubtasks,
  insertOccurrence,
  lockedLastPosition,
  recurrenceCandidates,
  updateTaskRow,
} from "./repo";

const BATCH = 100;
/** A series that fell this far behind (the service was down for long) is not replayed step by step forever. */
const MAX_SKIPPED = 10_000;

/**
 * Creates the next occurrence of every recurring task that needs one, and returns how many it created.
 *
 * With anchor `scheduled` the next occurrence is created when the current one comes due, or when it is done
 * if that is earlier; with anchor `completion`, when the current one is done. Occurrences whose time passed
 * while the service was down are skipped: the new one is the first still ahead. Each task is handled in its
 * own transaction, locked (other runners skip it), and the unique (series, occurrence) index makes a second
 * copy impossible even if two runners got past the lock; the task is then marked, so that it is handled once.
 */
export async function createDueOccurrences(now: Date = nowDate(), signal?: AbortSignal): Promise<number> {
  let created = 0;
  while (!signal?.aborted) {
    const candidates = await recurrenceCandidates(now, BATCH);
    let handled = 0;
    for (const candidate of candidates) {
      const result = await createNextOccurrence(candidate, now).catch((error: unknown) => {
        log.error("Could not create the next occurrence of a recurring task", { taskId: candidate.id, error: String(error) });
        return null;
      });
      if (result === null) continue;
      handled++;
      if (result) created++;
    }
    if (candidates.length < BATCH || handled === 0) return created;
  }
  return created;
}

/** true: created; false: nothing to create (series ended, or it existed); null: another runner has it. */
async function createNextOccurrence(
  { id: taskId, ownerId, timeZone }: { id: string; ownerId: string; timeZone: string },
  now: Date,
): Promise<boolean | null> {
  const outcome = await db().transaction(async (tx) => {
    const last = await lockedLastPosition(ownerId, tx);
    const task = await claimRecurringTask(taskId, tx);
    if (!task?.recurrence || task.seriesStartAt === null || task.occurrence === null) return null;
    const next = nextAhead(task, timeZone, now);
    let newId: string | null = null;
    if (next) {
      const shift = next.dueAt.getTime() - (task.dueAt?.getTime() ?? next.dueAt.getTime());
      newId = await insertOccurrence(
        {
          ownerId: task.ownerId,
          groupId: task.groupId,
          projectId: task.projectId,
          userGroupId: task.userGroupId,
          title: task.title,
          description: task.description,
          priority: task.priority,
          tags: task.tags,
          dueAt: next.dueAt,
          startDate: task.startDate ? shiftDate(task.startDate, shift) : null,
          position: generateKeyBetween(last, null),
          recurrence: task.recurrence,
          seriesId: task.seriesId,
          occurrence: next.occurrence,
          seriesStartAt: next.seriesStartAt,
          createdAt: now,
          updatedAt: now,
        },
        tx,
      );
      if (newId) await copyAssigneesAndSubtasks(task.id, newId, now, tx);
    }
    await updateTaskRow(task.id, { successorCreated: true }, tx);
    if (newId) await announceTaskChange(tx, { type: "task.created", actorId: null, taskId: newId, before: [] });
    return { created: newId !== null };
  });
  if (!outcome) return null;
  return outcome.created;
}

/** The next occurrence after `task`, skipping those already past when the current one was long overdue. */
function nextAhead(task: TaskRow, timeZone: string, now: Date) {
  let current = { occurrence: task.occurrence!, seriesStartAt: task.seriesStartAt!, completedAt: task.completedAt };
  let next = nextOccurrence(task.recurrence!, current, timeZone);
  for (
    let skipped = 0;
    next && next.dueAt <= now && task.recurrence!.anchor === "scheduled" && skipped < MAX_SKIPPED;
    skipped++
  ) {
    current = { ...current, occurrence: next.occurrence };
    next = nextOccurrence(task.recurrence!, current, timeZone);
  }
  return next;
}

/** A YYYY-MM-DD date moved by about `ms` (whole days, rounded). */
function shiftDate(date: string, ms: number): string {
  const shifted = new Date(Date.parse(`${date}T00:00:00Z`) + Math.round(ms / 86_400_000) * 86_400_000);
  return shifted.toISOString().slice(0, 10);
}
