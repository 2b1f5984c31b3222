import { AppError } from "../api/app-error";

/*
 * Who may do what with a task: the one table every route, the socket and the exports consult
 * (docs/permissions.md explains it). Reading is decided in SQL by `visibleTaskCondition` (lib/permissions/repo.ts),
 * which must say the same as the `read` row; everything else is decided here, on a task the user can already see.
 * Sharing adds relations (collaborator, project member, family member) to both places.
 */

/** How a user is related to a task. */
export type TaskRelation =
  /** Created it, or received it by a transfer. */
  | "owner"
  /** Assigned to it. */
  | "assignee"
  /** Member of the user group (team) the task is assigned to as a whole. */
  | "teamMember";

export type TaskAction =
  /** See the task, its subtasks and its place on the board. */
  | "read"
  /** Change its title, description, status, priority, dates and tags; its subtasks; move it on the board. */
  | "edit"
  /** Change its task group, project, user group, assignees and recurrence. */
  | "manage"
  | "delete"
  /** Invite someone to it (invitations). */
  | "share"
  /** Hand ownership to someone else (a transfer request). */
  | "transfer"
  /** Take it when nobody is assigned yet (a claim). */
  | "claim";

export const TASK_PERMISSIONS: Readonly<Record<TaskAction, readonly TaskRelation[]>> = {
  read: ["owner", "assignee", "teamMember"],
  edit: ["owner", "assignee"],
  manage: ["owner"],
  delete: ["owner"],
  share: ["owner", "assignee"],
  transfer: ["owner"],
  claim: ["teamMember"],
};

/** What the permission checks need of a task. */
export interface TaskParties {
  ownerId: string;
  assigneeIds: readonly string[];
  userGroupId: string | null;
}

/**
 * The user's relations to a task they can see. Whoever sees a task without owning it or being assigned to it
 * sees it through its user group (the only other way to see a task today).
 */
export function taskRelations(userId: string, task: TaskParties): TaskRelation[] {
  const relations: TaskRelation[] = [];
  if (task.ownerId === userId) relations.push("owner");
  if (task.assigneeIds.includes(userId)) relations.push("assignee");
  if (relations.length === 0 && task.userGroupId !== null) relations.push("teamMember");
  return relations;
}

export function mayOnTask(userId: string, task: TaskParties, action: TaskAction): boolean {
  const allowed = TASK_PERMISSIONS[action];
  return taskRelations(userId, task).some((relation) => allowed.includes(relation));
}

const REFUSALS: Record<TaskAction, string> = {
  read: "You cannot see this task",
  edit: "Only the task's owner and assignees can change it",
  manage: "Only the task's owner can change its group, project, user group, assignees or recurrence",
  delete: "Only the task's owner can delete it",
  share: "Only the task's owner and assignees can invite people to it",
  transfer: "Only the task's owner can hand it over",
  claim: "Only members of the task's user group can claim it",
};

/** Throws 403 unless the user may do `action` to a task they can see (they know it exists: no 404 here). */
export function requireOnTask(userId: string, task: TaskParties, action: TaskAction): void {
  if (!mayOnTask(userId, task, action)) throw new AppError("forbidden", REFUSALS[action]);
}
