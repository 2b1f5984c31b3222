/**
 * The domain events: what happened, named `<thing>.<past tense>`. Later modules add their own names here.
 * Each event carries who may hear of it (`audience`), decided by lib/permissions when it happens.
 */
export type DomainEventType =
  | "task.created"
  | "task.updated"
  | "task.completed"
  | "task.deleted"
  | "task.moved"
  /** To those who saw a task before a change and no longer do: drop it (carries only the task id). */
  | "task.unshared"
  /** Someone sent a task's assignees a reminder by email (POST /email/reminder; data: recipientIds). */
  | "task.reminded"
  /** A reminder of a task came due for one user (lib/notifications; data: reminder kind, dueAt, minutesBefore). */
  | "reminder.due"
  | "collaboration.requested"
  | "collaboration.accepted"
  | "collaboration.rejected"
  | "collaboration.withdrawn"
  | "collaboration.expired"
  | "collaboration.claimed"
  | "invitation.created"
  | "invitation.accepted"
  | "invitation.revoked"
  /** The person an invitation was addressed to said no in the app (to the inviter and them). */
  | "invitation.declined"
  | "project.member_added"
  | "project.member_removed"
  | "family.member_added"
  | "family.member_removed"
  /** An in-app notification for its one user (lib/notifications), carrying it as the API shows it. */
  | "notification.created"
  /** A comment on a task (lib/comments; data: the comment as the API shows it), to everyone who sees the task. */
  | "comment.created"
  | "comment.updated"
  /** data: commentId, taskId. */
  | "comment.deleted"
  /** Its one user read one notification or all of theirs (data: notificationId, null for all; unread: the count left). */
  | "notification.read"
  /** A project's or team's board columns changed (lib/board-columns; data: projectId or userGroupId), to its members. */
  | "board.columns_changed"
  /** A webhook endpoint kept failing and was disabled (to its owner; lib/webhooks). */
  | "webhook.disabled";

export interface DomainEvent {
  type: DomainEventType;
  /** Who caused it; null for a job. */
  actorId: string | null;
  taskId?: string | null;
  /** The users allowed to receive it. */
  audience: readonly string[];
  data: Record<string, unknown>;
}

export interface StoredDomainEvent extends DomainEvent {
  /** Increasing: a client that saw event N asks for what came after N. */
  id: number;
  createdAt: Date;
}
