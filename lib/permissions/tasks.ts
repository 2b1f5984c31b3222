import { AppError } from "../api/app-error";

/*
 * Who may do what with a task: the one table every route, the socket and the exports consult
 * (docs/permissions.md explains it). Reading is decided in SQL by `visibleTaskCondition` (lib/permissions/repo.ts),
 * which must say the same as the `read` row; everything else is decided here, on a task the user can already see.
 */

/** How a user is related to a task. */
export type TaskRelation =
  /** Created it, or received it by a transfer. */
  | "owner"
  /** Assigned to it. */
  | "assignee"
  /** Works on it with the owner (an accepted `collaborate` request; a previous owner after a transfer). */
  | "collaborator"
  /** Member of the user group (team) the task is assigned to as a whole. */
  | "teamMember"
  /** Owner, admin or member of the task's project. */
  | "projectMember"
  /** Viewer of the task's project: reads only. */
  | "projectViewer"
  /** Parent or child in the family workspace the task's group is shared with. */
  | "familyMember";

export type TaskAction =
  /** See the task, its subtasks and its place on the board. */
  | "read"
  /** Change its title, description, status, priority, dates and tags; its subtasks; move it on the board. */
  | "edit"
  /** Change its task group, project, user group, assignees and recurrence. */
  | "manage"
  | "delete"
  /** Invite someone to it (invitations) and ask people to join it (assign and collaborate requests). */
  | "share"
  /** Hand ownership to someone else (a transfer request). */
  | "transfer"
  /** Take it when nobody is assigned yet (a claim). */
  | "claim";

export const TASK_PERMISSIONS: Readonly<Record<TaskAction, readonly TaskRelation[]>> = {
  read: ["owner", "assignee", "collaborator", "teamMember", "projectMember", "projectViewer", "familyMember"],
  edit: ["owner", "assignee", "collaborator", "projectMember", "familyMember"],
  manage: ["owner"],
  delete: ["owner"],
  share: ["owner", "assignee", "collaborator"],
  transfer: ["owner"],
  claim: ["collaborator", "teamMember", "projectMember", "familyMember"],
};

/** What the permission checks need of a task: its parties, and how the user in question reaches it. */
export interface TaskParties {
  ownerId: string;
  assigneeIds: readonly string[];
  collaboratorIds: readonly string[];
  /** The user's links to the task besides the three above, as `findVisibleTask` reads them for that user. */
  viewer: ViewerLinks;
}

/** How one user reaches a task through a group they belong to. */
export interface ViewerLinks {
  /** Belongs to the user group the task is assigned to. */
  teamMember: boolean;
  /** Their role in the task's project, if any. */
  projectRole: "owner" | "admin" | "member" | "viewer" | null;
  /** Their role in the family workspace the task's group is shared with, if any. */
  familyRole: "parent" | "child" | null;
}

export const NO_LINKS: ViewerLinks = { teamMember: false, projectRole: null, familyRole: null };

/** Every relation the user has to a task (several at once: an owner may also be assigned). */
export function taskRelations(userId: string, task: TaskParties): TaskRelation[] {
  const relations: TaskRelation[] = [];
  if (task.ownerId === userId) relations.push("owner");
  if (task.assigneeIds.includes(userId)) relations.push("assignee");
  if (task.collaboratorIds.includes(userId)) relations.push("collaborator");
  const { teamMember, projectRole, familyRole } = task.viewer;
  if (teamMember) relations.push("teamMember");
  if (projectRole) relations.push(projectRole === "viewer" ? "projectViewer" : "projectMember");
  if (familyRole) relations.push("familyMember");
  return relations;
}

export function mayOnTask(userId: string, task: TaskParties, action: TaskAction): boolean {
  const allowed = TASK_PERMISSIONS[action];
  return taskRelations(userId, task).some((relation) => allowed.includes(relation));
}

const REFUSALS: Record<TaskAction, string> = {
  read: "You cannot see this task",
  edit: "Only the task's owner, assignees, collaborators, project members and family can change it",
  manage: "Only the task's owner can change its group, project, user group, assignees or recurrence",
  delete: "Only the task's owner can delete it",
  share: "Only the task's owner, assignees and collaborators can invite people to it",
  transfer: "Only the task's owner can hand it over",
  claim: "Only someone who sees the task through a user group, project, family or as a collaborator can claim it",
};

/** Throws 403 unless the user may do `action` to a task they can see (they know it exists: no 404 here). */
export function requireOnTask(userId: string, task: TaskParties, action: TaskAction): void {
  if (!mayOnTask(userId, task, action)) throw new AppError("forbidden", REFUSALS[action]);
}
