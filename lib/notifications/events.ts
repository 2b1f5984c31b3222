import { nowDate } from "../clock";
import { findRequestView } from "../collaboration/repo";
import { onEvent } from "../events/publish";
import type { StoredDomainEvent } from "../events/types";
import { findProjectName } from "../invitations/repo";
import { copyPrefsFromPreviousOccurrence, findTaskTitle, findUserContact } from "./repo";
import { message, notifyUser, type MessageKey } from "./service";

/*
 * Domain events that become in-app notifications (and so reach the socket and, later, push):
 * - `collaboration.requested`: to the request's recipient;
 * - `collaboration.accepted` / `collaboration.rejected`: to its requester;
 * - `invitation.accepted`: to the inviter.
 * Nobody is notified of their own action. Texts are in the notified user's language. Each is the consumer
 * `notifications` of the event log (lib/events/consumers.ts): an event handled twice notifies once (eventId).
 * Also, the consumer `reminder-settings`: a new occurrence of a recurring task (`task.created` of a task in a
 * series) takes over the reminder preferences its users set on the occurrence before it (once: a user's
 * preferences for the new occurrence are never overwritten).
 */

const KIND_KEYS: Record<string, MessageKey> = {
  assign: "assign",
  transfer: "transfer",
  collaborate: "collaborate",
  claim: "collaborate",
};

async function aboutRequest(event: StoredDomainEvent, notify: "recipient" | "requester", titleKey: MessageKey): Promise<void> {
  const requestId = event.data.requestId;
  if (typeof requestId !== "string") return;
  const request = await findRequestView(requestId);
  if (!request) return;
  const userId = notify === "recipient" ? request.recipientId : request.requesterId;
  if (userId === event.actorId) return;
  const user = await findUserContact(userId);
  if (!user) return;
  const otherName = notify === "recipient" ? request.requesterName : request.recipientName;
  await notifyUser(userId, {
    kind: event.type,
    title: message(user.locale, titleKey, { name: otherName }),
    body: message(user.locale, KIND_KEYS[request.kind] ?? "collaborate", { task: request.taskTitle }),
    taskId: request.taskId,
    data: { requestId, requestKind: request.kind, state: request.state },
    eventId: event.id,
  });
}

async function aboutInvitation(event: StoredDomainEvent): Promise<void> {
  const { inviterId, userId, taskId, projectId, invitationId } = event.data as Record<string, string | undefined>;
  if (!inviterId || inviterId === event.actorId) return;
  const inviter = await findUserContact(inviterId);
  const joined = userId ? await findUserContact(userId) : null;
  if (!inviter) return;
  const target = taskId ? await findTaskTitle(taskId) : projectId ? await findProjectName(projectId) : null;
  await notifyUser(inviterId, {
    kind: event.type,
    title: message(inviter.locale, "invitationAccepted", { name: joined?.name ?? "?" }),
    body: target ?? "",
    taskId: taskId ?? null,
    data: { invitationId, userId, ...(taskId ? { taskId } : {}), ...(projectId ? { projectId } : {}) },
    eventId: event.id,
  });
}

/** Whether a `task.created` event may be an occurrence of a recurring series (when its data does not say, maybe). */
function inSeries(event: StoredDomainEvent): boolean {
  const task = event.data.task as { seriesId?: unknown; occurrence?: unknown } | undefined;
  if (!task || !("seriesId" in task)) return true;
  return typeof task.seriesId === "string" && typeof task.occurrence === "number" && task.occurrence > 1;
}

async function handle(event: StoredDomainEvent): Promise<void> {
  switch (event.type) {
    case "collaboration.requested":
      return aboutRequest(event, "recipient", "requested");
    case "collaboration.accepted":
      return aboutRequest(event, "requester", "accepted");
    case "collaboration.rejected":
      return aboutRequest(event, "requester", "rejected");
    case "invitation.accepted":
      return aboutInvitation(event);
    default:
      return;
  }
}

async function copyReminderSettings(event: StoredDomainEvent): Promise<void> {
  if (event.type === "task.created" && event.taskId && inSeries(event)) {
    await copyPrefsFromPreviousOccurrence(event.taskId, nowDate());
  }
}

/**
 * Turns domain events into in-app notifications (a request to decide, an invitation accepted...), and gives new
 * occurrences the reminder settings of the one before.
 */
export function registerNotificationHandlers(): () => void {
  const stops = [onEvent("notifications", handle), onEvent("reminder-settings", copyReminderSettings)];
  return () => stops.forEach((stop) => stop());
}
