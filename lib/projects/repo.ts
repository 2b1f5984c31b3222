import { and, eq } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { projectMembers, type ProjectRole } from "../db/schema/projects";

/** The user's role in a project, or null when they are not a member (also for a project that does not exist). */
export async function findProjectRole(projectId: string, userId: string, database: Executor = db()): Promise<ProjectRole | null> {
  const [row] = await database
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
    .limit(1);
  return row?.role ?? null;
}
