import { and, asc, count, eq } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { taskTemplates, type TaskTemplateRow, type TemplateTask } from "../db/schema/templates";

export type { TaskTemplateRow, TemplateTask };

const own = (ownerId: string, templateId: string) => and(eq(taskTemplates.ownerId, ownerId), eq(taskTemplates.id, templateId));

/** The user's own templates, oldest first. */
export async function listOwnTemplates(ownerId: string): Promise<TaskTemplateRow[]> {
  return db()
    .select()
    .from(taskTemplates)
    .where(eq(taskTemplates.ownerId, ownerId))
    .orderBy(asc(taskTemplates.createdAt), asc(taskTemplates.id));
}

export async function findOwnTemplate(
  ownerId: string,
  templateId: string,
  database: Executor = db(),
): Promise<TaskTemplateRow | null> {
  const [row] = await database.select().from(taskTemplates).where(own(ownerId, templateId)).limit(1);
  return row ?? null;
}

export async function countOwnTemplates(ownerId: string, database: Executor = db()): Promise<number> {
  const [row] = await database.select({ total: count() }).from(taskTemplates).where(eq(taskTemplates.ownerId, ownerId));
  return row?.total ?? 0;
}

export async function insertTemplate(
  row: Pick<TaskTemplateRow, "ownerId" | "name" | "description" | "tasks">,
  database: Executor = db(),
): Promise<TaskTemplateRow> {
  const [inserted] = await database.insert(taskTemplates).values(row).returning();
  return inserted!;
}

export async function updateOwnTemplate(
  ownerId: string,
  templateId: string,
  patch: Partial<Pick<TaskTemplateRow, "name" | "description" | "tasks" | "updatedAt">>,
): Promise<TaskTemplateRow | null> {
  const [row] = await db().update(taskTemplates).set(patch).where(own(ownerId, templateId)).returning();
  return row ?? null;
}

export async function deleteOwnTemplate(ownerId: string, templateId: string): Promise<boolean> {
  const deleted = await db().delete(taskTemplates).where(own(ownerId, templateId)).returning({ id: taskTemplates.id });
  return deleted.length > 0;
}
