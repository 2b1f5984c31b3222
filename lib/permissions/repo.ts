import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { taskAssignees, tasks } from "../db/schema/tasks";
import { userGroupMembers } from "../db/schema/teams";

/** The ids of the user groups a user belongs to, as a subquery. */
export function userGroupsOf(userId: string | Placeholder): SQL {
  return sql`(select ${userGroupMembers.groupId} from ${userGroupMembers} where ${userGroupMembers.userId} = ${userId})`;
}

/**
 * The `read` row of TASK_PERMISSIONS (lib/permissions/tasks.ts) as a condition on `tasks`: the owner, the
 * assignees, and every member of the user group the task is assigned to. Every query that returns tasks to a
 * user filters with it, or (the task list, for speed) with one branch per relation in the same order.
 */
export function visibleTaskCondition(userId: string | Placeholder): SQL {
  return sql`(${tasks.ownerId} = ${userId}
    or exists (select 1 from ${taskAssignees} where ${taskAssignees.taskId} = ${tasks.id} and ${taskAssignees.userId} = ${userId})
    or ${tasks.userGroupId} in ${userGroupsOf(userId)})`;
}
