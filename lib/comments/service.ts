import { AppError, invalidField } from "../api/app-error";
import { decodeTimeCursor, encodeTimeCursor } from "../api/time-cursor";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { CommentRow } from "../db/schema/comments";
import { publish } from "../events/publish";
import type { NotificationChannel } from "../notifications/channel";
import { localeOrDefault } from "../i18n/locales";
import { notifyUser, taskChannels } from "../notifications/service";
import { mayOnTask } from "../permissions/tasks";
import { sendEmailToUser } from "../email/service";
import { sendPushToUser } from "../push/service";
import { taskViewerIds } from "../tasks/people";
import { getVisibleTask } from "../tasks/service";
import { excerpt, noticeTitle, type CommentNotice } from "./notify";
import { deleteCommentRow, findCommentRow, findUsers, insertComment, listCommentRows, updateCommentRow } from "./repo";
import type {
  CommentListOutput,
  CommentOutput,
  CreateCommentInput,
  ListCommentsQuery,
  MentioneeListOutput,
  UpdateCommentInput,
} from "./schema";

/*
 * The rules (the routes' descriptions say the same).
 * - Whoever can see a task reads and writes its comments; anyone else gets 404, for the task and for its comments.
 * - Only a comment's author edits it. Its author deletes it, and so may the task's owner (who may delete the whole
 *   task: the `delete` permission of lib/permissions), to keep their task's page clean. Anyone else who sees it: 403.
 * - Mentions name people who can see the task (a 400 naming `/mentions/<index>` otherwise).
 * - Notifications, in the notified person's language, on the channels their preferences for the task choose (in the
 *   app, by push and by email; lib/notifications): each person newly mentioned ("mentioned you"), and on a new comment the
 *   task's owner and assignees ("commented"). Nobody is notified of their own comment, nor twice for one.
 * - `comment.created`, `comment.updated` (each with the comment as the API shows it) and `comment.deleted` (its id
 *   and the task's) go to everyone who sees the task, in the transaction of the change (so to /ws and webhooks).
 */

const notFound = () => new AppError("not_found", "No such comment");

async function toOutputs(rows: readonly CommentRow[], database?: Executor): Promise<CommentOutput[]> {
  const names = await findUsers(
    rows.flatMap((row) => [row.authorId, ...row.mentions]),
    database,
  );
  return rows.map((row) => ({
    id: row.id,
    taskId: row.taskId,
    author: { id: row.authorId, name: names.get(row.authorId)?.name ?? "" },
    body: row.body,
    mentions: row.mentions.flatMap((id) => {
      const person = names.get(id);
      return person ? [{ id, name: person.name }] : [];
    }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
  }));
}

/** The mentions as given, each checked against who can see the task, without duplicates. */
function checkMentions(mentions: readonly string[], viewers: readonly string[]): string[] {
  mentions.forEach((userId, index) => {
    if (!viewers.includes(userId)) throw invalidField("body", `/mentions/${index}`, "is not someone who can see this task");
  });
  return [...new Set(mentions)];
}

interface Notice {
  userId: string;
  notice: CommentNotice;
  channels: NotificationChannel[];
}

/** Who to notify of a comment (newly mentioned people, and on a new comment the owner and assignees), with channels. */
async function noticesFor(
  authorId: string,
  taskId: string,
  mentioned: readonly string[],
  responsible: readonly string[],
): Promise<Notice[]> {
  const notices: Omit<Notice, "channels">[] = [];
  for (const userId of mentioned) if (userId !== authorId) notices.push({ userId, notice: "mentioned" });
  for (const userId of new Set(responsible)) {
    if (userId !== authorId && !mentioned.includes(userId)) notices.push({ userId, notice: "commented" });
  }
  return Promise.all(notices.map(async (notice) => ({ ...notice, channels: await taskChannels(notice.userId, taskId) })));
}

interface Sent {
  userId: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  /** The channels that go out after the commit: push, email or both. */
  channels: NotificationChannel[];
}

/** The in-app notifications, in the comment's transaction; answers what push and email should send once it commits. */
async function notifyInApp(tx: Executor, notices: readonly Notice[], comment: CommentOutput, taskTitle: string): Promise<Sent[]> {
  const people = await findUsers(
    notices.map((notice) => notice.userId),
    tx,
  );
  const outbound: Sent[] = [];
  for (const { userId, notice, channels } of notices) {
    const person = people.get(userId);
    if (!person) continue;
    const title = noticeTitle(person.locale, notice, { name: comment.author.name, task: taskTitle });
    const body = excerpt(comment.body);
    const data = { commentId: comment.id, taskId: comment.taskId, authorId: comment.author.id };
    if (channels.includes("in_app")) {
      await notifyUser(userId, { kind: `comment.${notice}`, title, body, taskId: comment.taskId, data }, tx);
    }
    const later = channels.filter((channel) => channel === "push" || channel === "email");
    if (later.length)
      outbound.push({ userId, title, body, data: { ...data, locale: localeOrDefault(person.locale) }, channels: later });
  }
  return outbound;
}

/**
 * Push and email go out after the commit (never from inside a transaction), each in the person's language with a
 * link to the task; a failure there is logged by lib/push and lib/email (the email log says why).
 */
async function sendAfterCommit(outbound: readonly Sent[]): Promise<void> {
  await Promise.all(
    outbound.flatMap(({ userId, title, body, data, channels }) => {
      const url = `/${String(data.locale)}/tasks/${String(data.taskId)}`;
      return [
        channels.includes("push") && sendPushToUser(userId, { title, body, url, tag: `comment:${String(data.commentId)}`, data }),
        channels.includes("email") && sendEmailToUser(userId, { template: "notification", params: { title, body, url } }),
      ].filter((sending) => sending !== false);
    }),
  );
}

export async function listComments(actor: Actor, taskId: string, query: ListCommentsQuery): Promise<CommentListOutput> {
  await getVisibleTask(actor, taskId);
  const cursor = query.cursor ? decodeTimeCursor(query.cursor) : null;
  const rows = await listCommentRows(taskId, query.limit + 1, cursor && { createdAt: cursor.at, id: cursor.id });
  const items = await toOutputs(rows.slice(0, query.limit));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > query.limit && last ? encodeTimeCursor(last.createdAt, last.id) : null };
}

/**
 * Whom the actor may mention in a comment on the task, by name: everyone who can see it (the people `checkMentions`
 * accepts: owner, assignees, collaborators, and the members of its team, project and family), but the actor.
 */
export async function listMentionees(actor: Actor, taskId: string): Promise<MentioneeListOutput> {
  await getVisibleTask(actor, taskId);
  const viewers = await taskViewerIds(taskId);
  const names = await findUsers(viewers.filter((id) => id !== actor.userId));
  const items = [...names].map(([id, { name }]) => ({ id, name }));
  return { items: items.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)) };
}

export async function createComment(actor: Actor, taskId: string, input: CreateCommentInput): Promise<CommentOutput> {
  const task = await getVisibleTask(actor, taskId);
  const viewers = await taskViewerIds(taskId);
  const mentions = checkMentions(input.mentions ?? [], viewers);
  const notices = await noticesFor(actor.userId, taskId, mentions, [task.ownerId, ...task.assigneeIds]);
  const { comment, outbound } = await db().transaction(async (tx) => {
    // Seen again inside the transaction: a task deleted or unshared meanwhile takes no comment.
    await getVisibleTask(actor, taskId, tx);
    const now = nowDate();
    const row = await insertComment(
      { taskId, authorId: actor.userId, body: input.body, mentions, createdAt: now, updatedAt: now },
      tx,
    );
    const [comment] = await toOutputs([row], tx);
    const audience = await taskViewerIds(taskId, tx);
    await publish(tx, { type: "comment.created", actorId: actor.userId, taskId, audience, data: { comment: comment! } });
    const outbound = await notifyInApp(tx, notices, comment!, task.title);
    return { comment: comment!, outbound };
  });
  await sendAfterCommit(outbound);
  return comment;
}

/** A comment on a task the actor can see (locked when read in a transaction), with the task; 404 otherwise. */
async function visibleComment(actor: Actor, commentId: string, tx?: Executor) {
  const row = await findCommentRow(commentId, tx, tx !== undefined);
  if (!row) throw notFound();
  try {
    return { row, task: await getVisibleTask(actor, row.taskId, tx) };
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw notFound();
    throw error;
  }
}

const notAuthor = () => new AppError("forbidden", "Only its author may edit a comment");

export async function updateComment(actor: Actor, commentId: string, input: UpdateCommentInput): Promise<CommentOutput> {
  // Checked first outside the transaction, where who can see the task and their notification channels are read
  // (PGlite has one connection), so that a stranger learns nothing from a 400 about mentions.
  const { row: before } = await visibleComment(actor, commentId);
  if (before.authorId !== actor.userId) throw notAuthor();
  const mentions = input.mentions === undefined ? undefined : checkMentions(input.mentions, await taskViewerIds(before.taskId));
  const added = mentions ? mentions.filter((id) => !before.mentions.includes(id)) : [];
  const notices = await noticesFor(actor.userId, before.taskId, added, []);
  const { comment, outbound } = await db().transaction(async (tx) => {
    const { row, task } = await visibleComment(actor, commentId, tx);
    if (row.authorId !== actor.userId) throw notAuthor();
    const now = nowDate();
    const updated = await updateCommentRow(
      commentId,
      { ...(input.body !== undefined && { body: input.body }), ...(mentions && { mentions }), updatedAt: now, editedAt: now },
      tx,
    );
    const [comment] = await toOutputs([updated], tx);
    const audience = await taskViewerIds(row.taskId, tx);
    await publish(tx, {
      type: "comment.updated",
      actorId: actor.userId,
      taskId: row.taskId,
      audience,
      data: { comment: comment! },
    });
    // Only those this edit mentions who were not mentioned before it (another edit may have come in between).
    const fresh = notices.filter((notice) => !row.mentions.includes(notice.userId));
    const outbound = await notifyInApp(tx, fresh, comment!, task.title);
    return { comment: comment!, outbound };
  });
  await sendAfterCommit(outbound);
  return comment;
}

export async function deleteComment(actor: Actor, commentId: string): Promise<void> {
  await db().transaction(async (tx) => {
    const { row, task } = await visibleComment(actor, commentId, tx);
    if (row.authorId !== actor.userId && !mayOnTask(actor.userId, task, "delete")) {
      throw new AppError("forbidden", "Only its author or the task's owner may delete a comment");
    }
    await deleteCommentRow(commentId, tx);
    const audience = await taskViewerIds(row.taskId, tx);
    await publish(tx, {
      type: "comment.deleted",
      actorId: actor.userId,
      taskId: row.taskId,
      audience,
      data: { commentId, taskId: row.taskId },
    });
  });
}
