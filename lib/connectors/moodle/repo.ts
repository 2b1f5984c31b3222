import { and, asc, eq } from "drizzle-orm";
import { nowDate } from "../../clock";
import { db } from "../../db/client";
import { connectorLinks } from "../../db/schema/connectors";
import { learningGrades, type LearningGradeRow } from "../../db/schema/learning";

export type { LearningGradeRow };
export type NewGrade = Omit<typeof learningGrades.$inferInsert, "connectionId" | "courseId" | "syncedAt">;

/** Replaces the grades stored for one course of a connection with what Moodle answered now. */
export async function replaceCourseGrades(connectionId: string, courseId: string, grades: readonly NewGrade[]): Promise<void> {
  const syncedAt = nowDate();
  await db().transaction(async (tx) => {
    await tx
      .delete(learningGrades)
      .where(and(eq(learningGrades.connectionId, connectionId), eq(learningGrades.courseId, courseId)));
    if (grades.length)
      await tx.insert(learningGrades).values(grades.map((grade) => ({ ...grade, connectionId, courseId, syncedAt })));
  });
}

export async function listGrades(connectionId: string, courseId?: string): Promise<LearningGradeRow[]> {
  return db()
    .select()
    .from(learningGrades)
    .where(
      and(
        eq(learningGrades.connectionId, connectionId),
        courseId === undefined ? undefined : eq(learningGrades.courseId, courseId),
      ),
    )
    .orderBy(asc(learningGrades.courseId), asc(learningGrades.itemId));
}

/** The local ids an entity's external ids were imported to, for one connection. */
export async function linkedIds(connectionId: string, entity: string): Promise<Map<string, string>> {
  const rows = await db()
    .select({ externalId: connectorLinks.externalId, localId: connectorLinks.localId })
    .from(connectorLinks)
    .where(and(eq(connectorLinks.connectionId, connectionId), eq(connectorLinks.entity, entity)));
  return new Map(rows.filter((row) => row.localId !== null).map((row) => [row.externalId, row.localId!]));
}
