import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { taskCollaborators } from "../db/schema/collaboration";
import { familyMembers } from "../db/schema/family";
import { projectMembers } from "../db/schema/projects";
import { taskAssignees, taskGroups, tasks } from "../db/schema/tasks";
import { userGroupMembers } from "../db/schema/teams";

type UserId = string | Placeholder;

/** The ids of the user groups a user belongs to, as a subquery. */
export function userGroupsOf(userId: UserId): SQL {
  return sql`(select ${userGroupMembers.groupId} from ${userGroupMembers} where ${userGroupMembers.userId} = ${userId})`;
}

/** The ids of the projects a user is a member of (any role), as a subquery. */
export function projectsOf(userId: UserId): SQL {
  return sql`(select ${projectMembers.projectId} from ${projectMembers} where ${projectMembers.userId} = ${userId})`;
}

/** The ids of the task groups shared with the user's family workspace, as a subquery. */
export function familyGroupsOf(userId: UserId): SQL {
  return sql`(select g.id from ${taskGroups} g join ${familyMembers} f on f.family_id = g.family_id where f.user_id = ${userId})`;
}

/**
 * Each relation of the `read` row of TASK_PERMISSIONS (lib/permissions/tasks.ts) as a condition on `tasks`, in
 * the order the task list reads them (one ordered branch per relation).
 */
export function readRelations(
  userId: UserId,
): Record<"owner" | "assignee" | "collaborator" | "team" | "project" | "family", SQL> {
  return {
    owner: sql`${tasks.ownerId} = ${userId}`,
    assignee: sql`exists (select 1 from ${taskAssignees} where ${taskAssignees.taskId} = ${tasks.id} and ${taskAssignees.userId} = ${userId})`,
    collaborator: sql`exists (select 1 from ${taskCollaborators} where ${taskCollaborators.taskId} = ${tasks.id} and ${taskCollaborators.userId} = ${userId})`,
    // `= any(array(...))`: the subquery runs once, and the index on the column finds the tasks. As `in (...)`,
    // PostgreSQL planned a semi-join that read every task of the table for a user without a family.
    team: sql`${tasks.userGroupId} = any(array${userGroupsOf(userId)})`,
    project: sql`${tasks.projectId} = any(array${projectsOf(userId)})`,
    family: sql`${tasks.groupId} = any(array${familyGroupsOf(userId)})`,
  };
}

/**
 * The `read` row of TASK_PERMISSIONS as one condition on `tasks`: the owner, assignees, collaborators, members
 * of its user group and of its project, and the family its task group is shared with. Every query that returns
 * tasks to a user filters with it, or (the task list, for speed) with `readRelations` one branch at a time.
 */
export function visibleTaskCondition(userId: UserId): SQL {
  return sql`(${sql.join(Object.values(readRelations(userId)), sql` or `)})`;
}

/**
 * The user's links to a task through groups (`ViewerLinks` of lib/permissions/tasks.ts), as columns to select
 * with the task: `teamMember`, `projectRole`, `familyRole`. The task's columns are written qualified: in selected
 * expressions Drizzle renders a column without its table, and inside these subqueries `project_id` would then
 * mean the member row's own column (every project of the user: "more than one row returned").
 */
export function viewerLinkColumns(userId: UserId) {
  return {
    teamMember: sql<boolean>`coalesce(${tasks.userGroupId} in ${userGroupsOf(userId)}, false)`.as("viewer_team_member"),
    projectRole: sql<
      "owner" | "admin" | "member" | "viewer" | null
    >`(select pm.role from ${projectMembers} pm where pm.project_id = "tasks"."project_id" and pm.user_id = ${userId})`.as(
      "viewer_project_role",
    ),
    familyRole: sql<
      "parent" | "child" | null
    >`(select f.role from ${taskGroups} g join ${familyMembers} f on f.family_id = g.family_id where g.id = "tasks"."group_id" and f.user_id = ${userId})`.as(
      "viewer_family_role",
    ),
  };
}
