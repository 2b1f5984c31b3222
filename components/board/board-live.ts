import type { LiveEvent } from "@/components/realtime/use-live-events";
import type { TaskOutput } from "@/lib/tasks/schema";
import type { BoardFilter } from "./board-filter";
import { placeTask, removeTask, type Board } from "./board-state";

/** Whether a live event's task has assignees the board has no name for (someone was just assigned). */
export function namesUnknown(event: LiveEvent, people: ReadonlyMap<string, string>): boolean {
  // Only task events carry the whole task (a request's event carries a summary without assignees).
  const task = event.type.startsWith("task.") ? (event.data as { task?: Partial<TaskOutput> }).task : undefined;
  return task?.assigneeIds?.some((id) => !people.has(id)) ?? false;
}

/** What a live event does to the board: a change to apply, a reason to load it again, or nothing. */
export type LiveChange = ((board: Board) => Board) | "reload" | null;

/** Events that change which tasks the user sees without naming them: joining or leaving a project or a family. */
const MEMBERSHIP_EVENTS = new Set([
  "project.member_added",
  "project.member_removed",
  "family.member_added",
  "family.member_removed",
]);

/**
 * Task events carry the task as it is now (lib/tasks/service.ts, announceTaskChange): the card goes to its
 * column and place at once, with no request. Deleted and unshared tasks only carry their id.
 */
export function liveChange(event: LiveEvent, filter: BoardFilter, ownColumns = false): LiveChange {
  const task = (event.data as { task?: TaskOutput }).task;
  // A project's or team's own columns changed; or, on such a board, a card moved, maybe into another column of the
  // same status (which only GET /board knows): load the board again.
  if (event.type === "board.columns_changed") return "reload";
  if (ownColumns && event.type === "task.moved") return "reload";
  if (event.type.startsWith("task.") && task) return (board) => placeTask(board, task, filter);
  if ((event.type === "task.deleted" || event.type === "task.unshared") && event.taskId) {
    const taskId = event.taskId;
    return (board) => removeTask(board, taskId);
  }
  return MEMBERSHIP_EVENTS.has(event.type) ? "reload" : null;
}
