import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import { db } from "../db/client";
import { errorLogs, type ErrorLogRow } from "../db/schema/error-logs";

export type NewErrorLog = typeof errorLogs.$inferInsert;

export async function insertErrorLog(entry: NewErrorLog): Promise<void> {
  await db().insert(errorLogs).values(entry);
}

export async function listErrorLogs(limit: number, source?: "server" | "client"): Promise<ErrorLogRow[]> {
  return db()
    .select()
    .from(errorLogs)
    .where(source ? eq(errorLogs.source, source) : undefined)
    .orderBy(desc(errorLogs.createdAt))
    .limit(limit);
}

export async function countErrorLogs(since: Date) {
  const recent = gte(errorLogs.createdAt, since);
  const day = sql<string>`to_char(${errorLogs.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [[total], byRoute, byStatus, byDay] = await Promise.all([
    db().select({ count: count() }).from(errorLogs).where(recent),
    db()
      .select({ route: errorLogs.route, count: count() })
      .from(errorLogs)
      .where(recent)
      .groupBy(errorLogs.route)
      .orderBy(desc(count()))
      .limit(50),
    db()
      .select({ status: errorLogs.status, count: count() })
      .from(errorLogs)
      .where(recent)
      .groupBy(errorLogs.status)
      .orderBy(desc(count())),
    db().select({ day, count: count() }).from(errorLogs).where(recent).groupBy(day).orderBy(day),
  ]);
  return { total: total?.count ?? 0, byRoute, byStatus, byDay };
}

export async function deleteErrorLogsBefore(cutoff: Date): Promise<number> {
  const deleted = await db()
    .delete(errorLogs)
    .where(and(lt(errorLogs.createdAt, cutoff)))
    .returning({ id: errorLogs.id });
  return deleted.length;
}
