import { and, eq } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { familyMembers } from "../db/schema/family";
import { taskGroups, type TaskGroupRow } from "../db/schema/tasks";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A task group shared with the user's family workspace (whoever owns it), or null. */
export async function findFamilyGroup(userId: string, groupId: string, database: Executor = db()): Promise<TaskGroupRow | null> {
  if (!UUID.test(groupId)) return null;
  const [row] = await database
    .select({ group: taskGroups })
    .from(taskGroups)
    .innerJoin(familyMembers, eq(familyMembers.familyId, taskGroups.familyId))
    .where(and(eq(taskGroups.id, groupId), eq(familyMembers.userId, userId)))
    .limit(1);
  return row?.group ?? null;
}
