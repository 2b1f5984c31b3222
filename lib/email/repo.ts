import { and, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { emailLog, type EmailLogRow } from "../db/schema/email";
import { domainEvents } from "../db/schema/events";
import { users } from "../db/schema/users";

export type { EmailLogRow };
export type NewEmailLog = typeof emailLog.$inferInsert & { id: string; createdAt: Date };

/** What an email to a user needs of them. */
export interface RecipientRecord {
  id: string;
  email: string;
  name: string;
  locale: string;
  timeZone: string;
}

export async function findRecipient(userId: string, executor: Executor = db()): Promise<RecipientRecord | null> {
  const [row] = await executor
    .select({ id: users.id, email: users.email, name: users.name, locale: users.locale, timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

export async function insertEmailLog(entry: NewEmailLog, executor: Executor = db()): Promise<EmailLogRow> {
  const [row] = await executor.insert(emailLog).values(entry).returning();
  return row!;
}

/** Log entries, newest first, after the keyset `before` (the last entry of the previous page). */
export async function listEmailLog(
  filter: { limit: number; status?: "sent" | "failed"; before?: { createdAt: Date; id: string } },
  executor: Executor = db(),
): Promise<EmailLogRow[]> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.status) conditions.push(eq(emailLog.status, filter.status));
  if (filter.before) {
    const { createdAt, id } = filter.before;
    conditions.push(or(lt(emailLog.createdAt, createdAt), and(eq(emailLog.createdAt, createdAt), lt(emailLog.id, id))));
  }
  return executor
    .select()
    .from(emailLog)
    .where(and(...conditions))
    .orderBy(desc(emailLog.createdAt), desc(emailLog.id))
    .limit(filter.limit);
}

/** When the user last sent a reminder for the task (its `task.reminded` event) after `since`, or null. */
export async function lastReminderAt(actorId: string, taskId: string, since: Date, executor: Executor): Promise<Date | null> {
  const [row] = await executor
    .select({ createdAt: domainEvents.createdAt })
    .from(domainEvents)
    .where(
      and(
        eq(domainEvents.type, "task.reminded"),
        eq(domainEvents.actorId, actorId),
        eq(domainEvents.taskId, taskId),
        gt(domainEvents.createdAt, since),
      ),
    )
    .orderBy(desc(domainEvents.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}
