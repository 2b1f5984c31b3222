import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { sendEmailToUser } from "../email/service";
import { db } from "../db/client";
import { publish } from "../events/publish";
import { localeOrDefault } from "../i18n/locales";
import { log } from "../log";
import { sendPushToUser } from "../push/service";
import { getVisibleTask } from "../tasks/service";
import { CHANNELS, type ChannelResult, type NotificationChannel } from "./channel";
import { defineQueue, done, enqueue, work, type JobOutcome, type QueueJob } from "../queue/service";
import {
  claimFire,
  dueReminderCandidates,
  findPrefs,
  firedOccurrences,
  fireExists,
  insertDelivery,
  listTaskFires,
  loggedChannels,
  type ReminderCandidate,
  type ReminderKind,
} from "./repo";
import type { ReminderLogOutput } from "./schema";
import { effectivePrefs, formatInstant, message, notifyUser } from "./service";

/*
 * The reminder scheduler (the `reminders` job, every minute).
 *
 * Who: the people responsible for a task, each with their own preferences and time zone: its assignees, or its
 * owner while nobody is assigned. Only open tasks (todo, in progress) with a due time are reminded of.
 * When: `remind_before` minutes before the due time (kind `before`) and, with `on_due`, at the due time (kind
 * `due`): the first run at or after that instant sends it.
 * Once: a reminder is claimed by inserting its row in reminder_fires under the unique key (user, task, kind,
 * occurrence = the due time as ISO text), and in the same transaction its sending is queued on the work queue
 * (lib/queue, kind `reminder.send`, keyed by the fire); any other runner (a second process, a second run) gets no
 * row and queues nothing. A changed due time is a new occurrence, which fires again for the new time; a task done or
 * cancelled drops out. The run then works the queue. A process that dies while sending leaves the item to be taken
 * again once its lease has run out: the channels already logged for the fire are not sent again (at most the one
 * being sent at the crash may go twice), nor is the `reminder.due` event published again.
 * Catch-up: reminders whose time passed while the service was down still go out if that time is at most
 * CATCH_UP_MS (6 hours) old; older ones (up to MISSED_LOG_MS, 7 days, back) are claimed and logged as skipped,
 * so that the log says why they never came; older still are forgotten.
 * Channels: each of in_app, push and email gets one reminder_deliveries row per fired reminder: `sent`, `failed`
 * with the reason, or `skipped` with the reason (not chosen in the preferences, missed, nothing to say, or
 * whatever the channel answered, such as no push subscription).
 */

export const CATCH_UP_MS = 6 * 3600_000;
export const MISSED_LOG_MS = 7 * 86_400_000;
const BATCH = 200;
const MAX_ROUNDS = 50;
const LOG_LIMIT = 100;

export const NOT_CHOSEN_IN_PREFS = "not chosen in preferences";

/** One sender per channel, each answering what came of it. */
export type ChannelSenders = Record<NotificationChannel, () => Promise<ChannelResult>>;

/**
 * Sends a fired reminder or summary on each chosen channel and logs every channel: the result of those chosen
 * (a sender that throws is `failed` with its message), `skipped` with `notChosen` for the others. Channels in
 * `logged` were handled by an earlier attempt: left alone.
 */
export async function deliver(
  fireId: number,
  chosen: readonly NotificationChannel[],
  notChosen: string,
  senders: ChannelSenders,
  logged: ReadonlySet<string> = new Set(),
): Promise<Partial<Record<NotificationChannel, ChannelResult>>> {
  const results: Partial<Record<NotificationChannel, ChannelResult>> = {};
  for (const channel of CHANNELS) {
    if (logged.has(channel)) continue;
    let result: ChannelResult;
    if (!chosen.includes(channel)) {
      result = { status: "skipped", reason: notChosen };
    } else {
      try {
        result = await senders[channel]();
      } catch (error) {
        result = { status: "failed", reason: error instanceof Error ? error.message : String(error) };
      }
    }
    results[channel] = result;
    await insertDelivery({
      fireId,
      channel,
      status: result.status,
      reason: result.status === "sent" ? null : result.reason,
      at: nowDate(),
    });
  }
  return results;
}

/** Logs every channel of a fired reminder as skipped: `reason` for those chosen, `notChosen` for the others. */
export async function skipAll(
  fireId: number,
  chosen: readonly NotificationChannel[],
  reason: string,
  notChosen: string,
): Promise<void> {
  for (const channel of CHANNELS) {
    await insertDelivery({
      fireId,
      channel,
      status: "skipped",
      reason: chosen.includes(channel) ? reason : notChosen,
      at: nowDate(),
    });
  }
}

/**
 * The instants a task's reminders are due at, by the preferences in force, in the order they come. `remind_before`
 * 0 is the due time itself: with `on_due` as well, one reminder (kind `due`) goes out, not two.
 */
export function reminderTimes(
  dueAt: Date,
  prefs: { remind_before: number | null; on_due: boolean },
): { kind: ReminderKind; at: Date }[] {
  const times: { kind: ReminderKind; at: Date }[] = [];
  if (prefs.remind_before !== null && !(prefs.remind_before === 0 && prefs.on_due))
    times.push({ kind: "before", at: new Date(dueAt.getTime() - prefs.remind_before * 60_000) });
  if (prefs.on_due) times.push({ kind: "due", at: dueAt });
  return times;
}

/** Whether a reminder due at `at` still goes out at `now` (its time has come, and is within the catch-up window). */
export function withinCatchUp(at: Date, now: Date): boolean {
  return at.getTime() <= now.getTime() && now.getTime() - at.getTime() <= CATCH_UP_MS;
}

/** The texts of a reminder, in the user's language, with the due time in their time zone. */
export function reminderText(candidate: Pick<ReminderCandidate, "kind" | "title" | "dueAt" | "locale" | "timeZone">) {
  const time = formatInstant(new Date(candidate.dueAt), candidate.timeZone, candidate.locale);
  return {
    title: message(candidate.locale, candidate.kind === "before" ? "reminderTitle" : "dueTitle", { task: candidate.title }),
    body: message(candidate.locale, "dueBody", { time }),
  };
}

type Outcome = "queued" | "missed" | "taken";

/** What sending a fired reminder needs: the candidate as it was when it fired. */
type ReminderToSend = ReminderCandidate & { fireId: number };

/** Claims a due reminder and queues its sending (one transaction); one past the catch-up window is logged as missed. */
async function fireReminder(candidate: ReminderCandidate, now: Date): Promise<Outcome> {
  const { userId, taskId, kind, dueAt, channels } = candidate;
  const late = !withinCatchUp(new Date(candidate.fireAt), now);
  const fireId = await db().transaction(async (tx) => {
    const claimed = await claimFire({ userId, subject: taskId, kind, occurrence: dueAt, taskId, firedAt: now }, tx);
    if (claimed !== null && !late) {
      await enqueue(reminderQueue, String(claimed), { ...candidate, fireId: claimed } satisfies ReminderToSend, {
        executor: tx,
      });
    }
    return claimed;
  });
  if (fireId === null) return "taken";
  if (late) {
    const reason = `missed: its time (${candidate.fireAt}) was more than ${CATCH_UP_MS / 3600_000} hours past when the scheduler ran (catch-up window)`;
    await skipAll(fireId, channels, reason, NOT_CHOSEN_IN_PREFS);
    return "missed";
  }
  return "queued";
}

/** Sends a fired reminder on the channels not logged yet; the domain event goes out with the first attempt. */
async function sendReminder(job: QueueJob<ReminderToSend>): Promise<JobOutcome> {
  const candidate = job.payload;
  const { fireId, userId, taskId, kind, dueAt, channels } = candidate;
  if (!(await fireExists(fireId))) return done(); // its user or task was deleted meanwhile
  const logged = await loggedChannels(fireId);
  if (logged.size >= CHANNELS.length) return done();
  const text = reminderText(candidate);
  const minutesBefore = kind === "before" ? candidate.remindBefore : null;
  const data = { reminder: kind, dueAt, minutesBefore };
  // The domain event (for webhooks and the socket), once per fire: the claim decided who sends.
  if (logged.size === 0) {
    await publish(db(), {
      type: "reminder.due",
      actorId: null,
      taskId,
      audience: [userId],
      data: { taskId, title: candidate.title, ...data },
    });
  }
  await deliver(
    fireId,
    channels,
    NOT_CHOSEN_IN_PREFS,
    {
      in_app: async () => {
        await notifyUser(userId, { kind: kind === "before" ? "reminder" : "due", ...text, taskId, data });
        return { status: "sent" };
      },
      push: () =>
        sendPushToUser(userId, {
          ...text,
          url: `/${localeOrDefault(candidate.locale)}/tasks/${taskId}`,
          tag: `reminder:${taskId}`,
          data: { taskId, ...data },
        }),
      email: () =>
        sendEmailToUser(userId, {
          template: "reminder",
          params: { taskId, taskTitle: candidate.title, dueAt, minutesBefore },
        }),
    },
    logged,
  );
  return done();
}

/** Sending fired reminders, on the work queue: a few attempts, for a process that stops while sending. */
const reminderQueue = defineQueue<ReminderToSend>({
  kind: "reminder.send",
  maxAttempts: 3,
  leaseMs: () => 5 * 60_000,
  run: sendReminder,
});

/**
 * One run of the scheduler: fires every reminder due at `now` that has not fired, in batches (queuing its sending),
 * logs those missed beyond the catch-up window, then sends what is queued. Safe to run in several processes at
 * once (see the claim above).
 */
export async function runReminders(now: Date = nowDate(), signal?: AbortSignal): Promise<{ sent: number; missed: number }> {
  let missed = 0;
  const since = new Date(now.getTime() - MISSED_LOG_MS);
  for (let round = 0; round < MAX_ROUNDS && !signal?.aborted; round++) {
    const candidates = await dueReminderCandidates(now, since, BATCH);
    let claimed = 0;
    for (const candidate of candidates) {
      const outcome = await fireReminder(candidate, now).catch((error: unknown) => {
        log.error("A reminder could not be fired", {
          taskId: candidate.taskId,
          userId: candidate.userId,
          kind: candidate.kind,
          error: String(error),
        });
        return "taken" as const;
      });
      if (outcome === "taken") continue;
      claimed++;
      if (outcome === "missed") missed++;
    }
    if (candidates.length < BATCH || claimed === 0) break;
  }
  const sent = await work(reminderQueue, { batch: BATCH, concurrency: 4, rounds: MAX_ROUNDS, signal });
  return { sent, missed };
}

// A task's reminder log: "why didn't I get it?"

/**
 * The actor's reminders of a task they can see (404 otherwise): what fired, with every channel's outcome, newest
 * first; what is still to come for the current due time, by the preferences in force; and, when nothing (more) is
 * coming, notes that say why.
 */
export async function getTaskReminderLog(actor: Actor, taskId: string): Promise<ReminderLogOutput> {
  const task = await getVisibleTask(actor, taskId);
  const prefs = effectivePrefs(taskId, await findPrefs(actor.userId, taskId));
  const responsible = task.assigneeIds.length > 0 ? task.assigneeIds.includes(actor.userId) : task.ownerId === actor.userId;
  const now = nowDate();
  const notes: string[] = [];
  const scheduled: ReminderLogOutput["scheduled"] = [];

  if (!responsible) {
    notes.push(
      task.assigneeIds.length > 0
        ? "You are not assigned to this task: its assignees are reminded"
        : "Nobody is assigned to this task: its owner is reminded",
    );
  }
  if (task.status === "done" || task.status === "cancelled")
    notes.push(`The task is ${task.status}: only open tasks are reminded of`);
  if (!task.dueAt) notes.push("The task has no due time");
  if (prefs.remind_before === null && !prefs.on_due)
    notes.push("Your preferences ask for no reminder (remind_before is null and on_due false)");
  if (prefs.channels.length === 0) notes.push("Your preferences choose no channel: reminders are logged as skipped");

  if (responsible && task.dueAt && (task.status === "todo" || task.status === "in_progress")) {
    const dueAt = task.dueAt.toISOString();
    const fired = await firedOccurrences(actor.userId, taskId, dueAt);
    for (const { kind, at } of reminderTimes(task.dueAt, prefs)) {
      if (fired.includes(kind)) continue;
      if (at.getTime() < now.getTime() && !withinCatchUp(at, now)) {
        notes.push(
          `The ${kind} reminder was due at ${at.toISOString()}, more than ${CATCH_UP_MS / 3600_000} hours ago: it is not sent`,
        );
        continue;
      }
      scheduled.push({ kind, at: at.toISOString(), dueAt, channels: prefs.channels });
    }
    if (scheduled.length === 0 && fired.length > 0) notes.push("The reminders for the current due time have gone out");
  }

  const fires = await listTaskFires(actor.userId, taskId, LOG_LIMIT);
  return {
    taskId,
    responsible,
    timeZone: actor.timeZone,
    prefs,
    scheduled,
    notes,
    fires: fires.map((fire) => ({
      id: fire.id,
      kind: fire.kind as ReminderKind,
      dueAt: fire.occurrence,
      firedAt: fire.firedAt.toISOString(),
      deliveries: fire.deliveries.map((delivery) => ({
        channel: delivery.channel,
        status: delivery.status,
        reason: delivery.reason,
        at: delivery.at.toISOString(),
      })),
    })),
  };
}
