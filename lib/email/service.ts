import { randomUUID } from "node:crypto";
import { AppError, invalidField } from "../api/app-error";
import { decodeTimeCursor, encodeTimeCursor } from "../api/time-cursor";
import type { Actor } from "../auth/actor";
import { now, nowDate } from "../clock";
import { config } from "../config";
import { db } from "../db/client";
import { publish } from "../events/publish";
import { log } from "../log";
import type { ChannelResult } from "../notifications/channel";
import { lockTask } from "../tasks/repo";
import { getVisibleTask } from "../tasks/service";
import { findRecipient, insertEmailLog, lastReminderAt, listEmailLog, type EmailLogRow, type RecipientRecord } from "./repo";
import {
  REMINDER_INTERVAL_MINUTES,
  type EmailLogEntryOutput,
  type EmailLogPageOutput,
  type EmailLogQuery,
  type ReminderInput,
  type ReminderOutput,
  type SendEmailInput,
} from "./schema";
import { renderEmail, type UserEmail } from "./templates";
import { EmailTransportError, emailTransport } from "./transports";

export type { EmailTask, UserEmail } from "./templates";

/*
 * Rules. Every email the service sends, or tries to, is one email_log entry (to, subject, kind, transport, sent or
 * failed with the reason, the provider's message id). A transport failure is an outcome, never an exception: the
 * caller gets `failed` with the reason. Sends happen outside any transaction (the log is written on its own).
 *
 * POST /email/reminder: the caller must see the task (404 otherwise); it goes to every assignee but the caller
 * (409 when there is nobody else); one per task per caller in REMINDER_INTERVAL_MINUTES minutes (429 with
 * Retry-After), counted when the reminder is accepted, whatever comes of its delivery (its `task.reminded` event
 * records it).
 */

const REMINDER_INTERVAL_MS = REMINDER_INTERVAL_MINUTES * 60_000;

function toLogEntryOutput(row: EmailLogRow): EmailLogEntryOutput {
  return {
    id: row.id,
    userId: row.userId,
    to: row.to,
    subject: row.subject,
    kind: row.kind,
    transport: row.transport as EmailLogEntryOutput["transport"],
    status: row.status,
    error: row.error,
    providerMessageId: row.providerMessageId,
    createdAt: row.createdAt.toISOString(),
  };
}

interface Message {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
  userId: string | null;
}

/** Sends one email with the configured transport and records the outcome; never throws for the transport. */
async function sendAndLog(message: Message): Promise<EmailLogRow> {
  const id = randomUUID();
  const transport = emailTransport();
  let outcome: { status: "sent" | "failed"; error: string | null; providerMessageId: string | null };
  try {
    const { providerMessageId } = await transport.send({ id, ...message });
    outcome = { status: "sent", error: null, providerMessageId };
  } catch (error) {
    const reason =
      error instanceof EmailTransportError ? error.message : `The ${transport.name} transport failed: ${String(error)}`;
    log.warn("Email not delivered", { emailId: id, transport: transport.name, kind: message.kind, reason });
    outcome = { status: "failed", error: reason, providerMessageId: null };
  }
  const { to, subject, kind, userId } = message;
  return insertEmailLog({ id, userId, to, subject, kind, transport: transport.name, ...outcome, createdAt: nowDate() });
}

type Delivery = { result: ChannelResult; entry: EmailLogRow | null };

async function deliver(recipient: RecipientRecord, email: UserEmail): Promise<Delivery> {
  if (!recipient.email.trim()) return { result: { status: "skipped", reason: "no email address" }, entry: null };
  const rendered = renderEmail(email, recipient, { appUrl: config().APP_URL });
  const entry = await sendAndLog({ ...rendered, to: recipient.email, kind: email.template, userId: recipient.id });
  const result: ChannelResult =
    entry.status === "sent" ? { status: "sent" } : { status: "failed", reason: entry.error ?? "unknown" };
  return { result, entry };
}

/**
 * Sends one of the templates to a user, in their language and time zone. `skipped` when there is no address to
 * send to; `failed` (with the transport's reason) when it was refused. Call it outside any transaction.
 */
export async function sendEmailToUser(userId: string, email: UserEmail): Promise<ChannelResult> {
  try {
    const recipient = await findRecipient(userId);
    if (!recipient) return { status: "skipped", reason: "no email address" };
    return (await deliver(recipient, email)).result;
  } catch (error) {
    log.error("Could not send an email", {
      userId,
      template: email.template,
      error: error instanceof Error ? error.message : String(error),
    });
    return { status: "failed", reason: "the email could not be sent or recorded" };
  }
}

/** POST /email/send (admins): sends the email as given, to an address or to a user's address. */
export async function sendAdminEmail(input: SendEmailInput): Promise<EmailLogEntryOutput> {
  let to = input.to;
  let userId: string | null = null;
  if (input.userId !== undefined) {
    const user = await findRecipient(input.userId);
    if (!user) throw invalidField("body", "/userId", "has no account");
    to = user.email;
    userId = user.id;
  }
  const entry = await sendAndLog({ to: to!, subject: input.subject, text: input.text, html: input.html, kind: "admin", userId });
  return toLogEntryOutput(entry);
}

/** POST /email/reminder: the task's reminder, by email, to each of its assignees but the caller. */
export async function sendTaskReminder(actor: Actor, input: ReminderInput): Promise<ReminderOutput> {
  const { task, recipientIds } = await db().transaction(async (tx) => {
    // Locked, so that of two reminders at once one is sent and the other sees it.
    await lockTask(input.taskId, tx);
    const task = await getVisibleTask(actor, input.taskId, tx);
    if (task.assigneeIds.length === 0) {
      throw new AppError("conflict", "Nobody is assigned to this task, so there is nobody to remind: assign someone first");
    }
    const recipientIds = task.assigneeIds.filter((id) => id !== actor.userId);
    if (recipientIds.length === 0) {
      throw new AppError(
        "conflict",
        "You are the only assignee of this task, and reminders never go to their sender: nobody to remind",
      );
    }
    const last = await lastReminderAt(actor.userId, task.id, new Date(now() - REMINDER_INTERVAL_MS), tx);
    if (last) {
      const retryAfterSeconds = Math.max(1, Math.ceil((last.getTime() + REMINDER_INTERVAL_MS - now()) / 1000));
      throw new AppError(
        "rate_limited",
        `You reminded this task's assignees less than ${REMINDER_INTERVAL_MINUTES} minutes ago; you can again in ` +
          `${Math.ceil(retryAfterSeconds / 60)} min`,
        { retryAfterSeconds },
      );
    }
    await publish(tx, {
      type: "task.reminded",
      actorId: actor.userId,
      taskId: task.id,
      audience: [actor.userId, ...recipientIds],
      data: { recipientIds },
    });
    return { task, recipientIds };
  });

  const sender = await findRecipient(actor.userId);
  const email: UserEmail = {
    template: "personal_reminder",
    params: {
      taskId: task.id,
      taskTitle: task.title,
      dueAt: task.dueAt?.toISOString() ?? null,
      senderName: sender?.name ?? actor.email,
      message: input.message || null,
    },
  };
  const results: ReminderOutput["results"] = [];
  for (const userId of recipientIds) {
    const recipient = await findRecipient(userId);
    if (!recipient) continue; // deleted since: the assignment went with the account
    const { result, entry } = await deliver(recipient, email);
    results.push({
      userId,
      name: recipient.name,
      status: result.status,
      reason: result.status === "sent" ? null : result.reason,
      emailLogId: entry?.id ?? null,
    });
  }
  return { taskId: task.id, results };
}

/** GET /email/log (admins): the newest entries first, a page at a time. */
export async function listEmailLogPage(query: EmailLogQuery): Promise<EmailLogPageOutput> {
  const cursor = query.cursor ? decodeTimeCursor(query.cursor) : undefined;
  const before = cursor ? { createdAt: cursor.at, id: cursor.id } : undefined;
  const rows = await listEmailLog({ limit: query.limit + 1, status: query.status, before });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toLogEntryOutput),
    nextCursor: rows.length > query.limit && last ? encodeTimeCursor(last.createdAt, last.id) : null,
  };
}
