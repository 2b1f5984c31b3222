import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { SubtaskRow } from "../db/schema/tasks";
import {
  deleteSubtaskRow,
  findSubtask,
  insertSubtask,
  listSubtasks,
  lockTask,
  updateSubtaskRow,
  taskAudience,
  updateTaskRow,
  type TaskRecord,
} from "./repo";
import type { SubtaskOutput } from "./schema";
import { announceTaskChange, getTaskFor, getVisibleTask } from "./service";

const MAX_SUBTASKS = 200;

function toSubtaskOutput(subtask: SubtaskRow): SubtaskOutput {
  return {
    id: subtask.id,
    taskId: subtask.taskId,
    title: subtask.title,
    done: subtask.done,
    position: subtask.position,
    completedAt: subtask.completedAt?.toISOString() ?? null,
    createdAt: subtask.createdAt.toISOString(),
    updatedAt: subtask.updatedAt.toISOString(),
  };
}

/**
 * Runs a change to a task's subtasks with the task locked (one change at a time), then keeps the parent in
 * step: when no open subtask is left the parent is completed automatically; when a subtask of an
 * automatically completed parent is reopened (or an open one added), the parent is reopened (in_progress).
 * A parent completed or cancelled by hand is left as it is.
 */
async function changeSubtasks<T>(
  actor: Actor,
  taskId: string,
  change: (task: TaskRecord, tx: Executor) => Promise<T>,
): Promise<T> {
  return db().transaction(async (tx) => {
    await lockTask(taskId, tx);
    const task = await getTaskFor(actor, taskId, "edit", tx);
    const result = await change(task, tx);
    const all = await listSubtasks(taskId, tx);
    const open = all.filter((subtask) => !subtask.done).length;
    const now = nowDate();
    const completed = all.length > 0 && open === 0 && task.status !== "done" && task.status !== "cancelled";
    if (completed) {
      await updateTaskRow(taskId, { status: "done", completedAt: now, autoCompleted: true, updatedAt: now }, tx);
    } else if (open > 0 && task.status === "done" && task.autoCompleted) {
      await updateTaskRow(taskId, { status: "in_progress", completedAt: null, autoCompleted: false, updatedAt: now }, tx);
    }
    const before = await taskAudience([taskId], tx);
    await announceTaskChange(tx, { type: "task.updated", actorId: actor.userId, taskId, before, completed });
    return result;
  });
}

export async function getSubtasks(actor: Actor, taskId: string): Promise<SubtaskOutput[]> {
  await getVisibleTask(actor, taskId);
  return (await listSubtasks(taskId)).map(toSubtaskOutput);
}

async function subtaskOf(taskId: string, subtaskId: string, database?: Executor): Promise<SubtaskRow> {
  const subtask = await findSubtask(taskId, subtaskId, database);
  if (!subtask) throw new AppError("not_found", "No such subtask");
  return subtask;
}

export async function getSubtask(actor: Actor, taskId: string, subtaskId: string): Promise<SubtaskOutput> {
  await getVisibleTask(actor, taskId);
  return toSubtaskOutput(await subtaskOf(taskId, subtaskId));
}

export async function addSubtask(actor: Actor, taskId: string, input: { title: string; done?: boolean }) {
  return changeSubtasks(actor, taskId, async (_task, tx) => {
    const existing = await listSubtasks(taskId, tx);
    if (existing.length >= MAX_SUBTASKS) throw new AppError("conflict", `A task has at most ${MAX_SUBTASKS} subtasks`);
    const now = nowDate();
    const done = input.done ?? false;
    const position = Math.max(0, ...existing.map((subtask) => subtask.position + 1));
    return toSubtaskOutput(
      await insertSubtask(
        { taskId, title: input.title, done, position, completedAt: done ? now : null, createdAt: now, updatedAt: now },
        tx,
      ),
    );
  });
}

export async function updateSubtask(
  actor: Actor,
  taskId: string,
  subtaskId: string,
  input: { title?: string; done?: boolean },
): Promise<SubtaskOutput> {
  return changeSubtasks(actor, taskId, async (_task, tx) => {
    const subtask = await subtaskOf(taskId, subtaskId, tx);
    const now = nowDate();
    const patch: Partial<SubtaskRow> = { updatedAt: now };
    if (input.title !== undefined) patch.title = input.title;
    if (input.done !== undefined && input.done !== subtask.done) {
      patch.done = input.done;
      patch.completedAt = input.done ? now : null;
    }
    return toSubtaskOutput(await updateSubtaskRow(subtaskId, patch, tx));
  });
}

export async function removeSubtask(actor: Actor, taskId: string, subtaskId: string): Promise<void> {
  await changeSubtasks(actor, taskId, async (_task, tx) => {
    await subtaskOf(taskId, subtaskId, tx);
    await deleteSubtaskRow(subtaskId, tx);
  });
}

/** Puts the subtasks in the given order: every subtask id exactly once. */
export async function reorderSubtasks(actor: Actor, taskId: string, ids: readonly string[]): Promise<SubtaskOutput[]> {
  return changeSubtasks(actor, taskId, async (_task, tx) => {
    const existing = await listSubtasks(taskId, tx);
    const known = new Set(existing.map((subtask) => subtask.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
      throw invalidField("body", "/ids", "must list every subtask of the task exactly once");
    }
    const now = nowDate();
    const reordered = [];
    for (const [position, id] of ids.entries()) reordered.push(await updateSubtaskRow(id, { position, updatedAt: now }, tx));
    return reordered.map(toSubtaskOutput);
  });
}
