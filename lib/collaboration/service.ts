import { generateKeyBetween } from "fractional-indexing";
import { AppError, invalidField } from "../api/app-error";
import { decodeTimeCursor, encodeTimeCursor } from "../api/time-cursor";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { CollaborationState, TaskCollaborationRow } from "../db/schema/collaboration";
import { publish } from "../events/publish";
import { firstActiveGroupId } from "../groups/repo";
import { mayOnTask } from "../permissions/tasks";
import { findVisibleTask, lockedLastPosition, lockTask, taskAudience, updateTaskRow, type TaskRecord } from "../tasks/repo";
import { announceTaskChange, getTask, getTaskFor, getVisibleTask } from "../tasks/service";
import type { CreatedInvitationOutput } from "../invitations/schema";
import { inviteToJoin } from "../invitations/service";
import { findUserId } from "../teams/repo";
import { expireDueInTransaction, expireDueRequests, requestEvent } from "./expiry";
import {
  deleteCollaborator,
  findRequest,
  findRequestView,
  insertAssignee,
  insertCollaborator,
  insertHistory,
  insertRequest,
  listHistory,
  listRequestViews,
  lockRequest,
  updateRequestState,
  type RequestView,
} from "./repo";
import {
  REQUEST_TTL_DAYS,
  type ClaimOutput,
  type CollaborationRequestDetailOutput,
  type CollaborationRequestListOutput,
  type CollaborationRequestOutput,
  type CreateRequestInput,
  type ListRequestsQuery,
} from "./schema";

/*
 * The rules (the routes' descriptions say the same).
 * - Asking: `assign` and `collaborate` need the `share` right on the task, `transfer` the `transfer` right
 *   (lib/permissions); someone who cannot see the task gets 404, someone who sees it without the right 403. The
 *   recipient is an existing account other than the requester, who does not already have what is asked (409),
 *   and has no identical pending request (409). A request expires REQUEST_TTL_DAYS days after it was made.
 * - Deciding: only the recipient accepts or rejects, only the requester withdraws; to anyone else the request
 *   does not exist (404). Only a pending request can change (409 otherwise, saying so when it expired).
 * - Accepting re-checks, with the task locked, that the requester still holds the right they asked with (409 and
 *   nothing changes if not), then applies it: assign adds an assignee, collaborate a collaborator; transfer makes
 *   the recipient the owner, puts the task in their first active task group after their last task, and keeps the
 *   previous owner on it as a collaborator.
 * - Claiming: someone with the `claim` right takes a task nobody is assigned to, at once (409 once anyone is).
 * Every change of state is a domain event to both parties (and the task's audience when the task changed).
 */

const DAY_MS = 86_400_000;
/** How many due requests one read expires before answering (a user rarely has more; the job does the rest). */
const READ_EXPIRY_LIMIT = 1000;

const requestNotFound = () => new AppError("not_found", "No such collaboration request");
const expiredConflict = () =>
  new AppError("conflict", "This request expired before it was decided: nothing changed; the requester may ask again");
const notPending = (state: CollaborationState) =>
  new AppError("conflict", `This request is ${state}, no longer pending: it cannot be decided or withdrawn`);
const lostRight = (kind: TaskCollaborationRow["kind"]) =>
  new AppError(
    "conflict",
    kind === "transfer"
      ? "The requester no longer owns the task, so it cannot be handed to you: nothing changed"
      : "The requester may no longer share the task (they left it or lost their place on it): nothing changed",
  );

function toRequestOutput(view: RequestView): CollaborationRequestOutput {
  return {
    id: view.id,
    taskId: view.taskId,
    kind: view.kind,
    state: view.state,
    message: view.message,
    requester: { id: view.requesterId, name: view.requesterName },
    recipient: { id: view.recipientId, name: view.recipientName },
    task: { id: view.taskId, title: view.taskTitle, status: view.taskStatus, dueAt: view.taskDueAt?.toISOString() ?? null },
    expiresAt: view.expiresAt?.toISOString() ?? null,
    decidedAt: view.decidedAt?.toISOString() ?? null,
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}

const isDue = (request: Pick<TaskCollaborationRow, "state" | "expiresAt">, now: Date) =>
  request.state === "pending" && request.expiresAt !== null && request.expiresAt <= now;

const isParty = (actor: Actor, request: Pick<TaskCollaborationRow, "requesterId" | "recipientId">) =>
  request.requesterId === actor.userId || request.recipientId === actor.userId;

async function getViewOrThrow(requestId: string, executor?: Executor): Promise<RequestView> {
  const view = await findRequestView(requestId, executor);
  if (!view) throw requestNotFound();
  return view;
}

/** A request the actor is a party to, marked expired first if its time ran out; 404 for anyone else. */
async function getPartyView(actor: Actor, requestId: string): Promise<RequestView> {
  const view = await findRequestView(requestId);
  if (!view || !isParty(actor, view)) throw requestNotFound();
  if (!isDue(view, nowDate())) return view;
  await expireDueRequests({ requestId });
  return getViewOrThrow(requestId);
}

// Reading

export async function getCollaborationRequest(actor: Actor, requestId: string): Promise<CollaborationRequestDetailOutput> {
  const view = await getPartyView(actor, requestId);
  const history = await listHistory(requestId);
  return {
    ...toRequestOutput(view),
    history: history.map((entry) => ({
      action: entry.action as CollaborationRequestDetailOutput["history"][number]["action"],
      actorId: entry.actorId,
      at: entry.at.toISOString(),
    })),
  };
}

/** The actor's incoming or outgoing requests, newest first, a page at a time; due ones are expired first. */
export async function listCollaborationRequests(actor: Actor, query: ListRequestsQuery): Promise<CollaborationRequestListOutput> {
  const cursor = query.cursor ? decodeTimeCursor(query.cursor) : null;
  const after = cursor && { createdAt: cursor.at, id: cursor.id };
  await expireDueRequests({ userId: actor.userId, box: query.box }, READ_EXPIRY_LIMIT);
  const rows = await listRequestViews(actor.userId, { box: query.box, state: query.state }, query.limit + 1, after);
  const items = rows.slice(0, query.limit).map(toRequestOutput);
  return { items, nextCursor: rows.length > query.limit ? encodeTimeCursor(items.at(-1)!.createdAt, items.at(-1)!.id) : null };
}

// Asking

/** 409 when the recipient already has what the request asks for. */
function checkNotAlready(kind: CreateRequestInput["kind"], recipientId: string, task: TaskRecord): void {
  if (kind === "assign" && task.assigneeIds.includes(recipientId)) {
    throw new AppError("conflict", "This user is already assigned to the task");
  }
  if (kind === "collaborate") {
    const already =
      task.ownerId === recipientId || task.assigneeIds.includes(recipientId) || task.collaboratorIds.includes(recipientId);
    if (already)
      throw new AppError("conflict", "This user already works on the task (as its owner, an assignee or a collaborator)");
  }
  if (kind === "transfer" && task.ownerId === recipientId) throw new AppError("conflict", "This user already owns the task");
}

/**
 * Asks someone to take part in a task. Named by `userId`: a collaboration request they decide (201). Named by
 * `email`, to assign or collaborate: an invitation addressed to that email, whose link and in-app entry let them
 * accept (as an assignee or a collaborator), answered the same whether the address has an account or not (202):
 * asking cannot tell anyone whether an email is registered. A transfer by email goes to someone who already works
 * on the task (an assignee or collaborator: a request, 201); any other address is the same 400, known or not.
 */
export async function createCollaborationRequest(
  actor: Actor,
  taskId: string,
  input: CreateRequestInput,
  origin: string,
): Promise<{ request: CollaborationRequestOutput } | { invitation: CreatedInvitationOutput }> {
  const task = await getTaskFor(actor, taskId, input.kind === "transfer" ? "transfer" : "share");
  if (input.email !== undefined && input.kind !== "transfer") {
    const taskRole = input.kind === "assign" ? "assignee" : "collaborator";
    const invitee = { email: input.email, ...(input.message ? { message: input.message } : {}) };
    return { invitation: await inviteToJoin(actor, { taskId, taskRole }, invitee, origin) };
  }
  return { request: await requestOf(actor, task, input) };
}

async function requestOf(actor: Actor, task: TaskRecord, input: CreateRequestInput): Promise<CollaborationRequestOutput> {
  const taskId = task.id;
  const pointer = input.userId !== undefined ? "/userId" : "/email";
  const recipientId = await findUserId(input);
  if (input.email !== undefined) {
    // A transfer by email: only to someone already on the task, and the same answer for every other address.
    const onTask = recipientId !== null && (task.assigneeIds.includes(recipientId) || task.collaboratorIds.includes(recipientId));
    if (!onTask && recipientId !== actor.userId) {
      throw invalidField("body", pointer, "a transfer by email goes to someone who already works on this task");
    }
  }
  if (!recipientId) throw invalidField("body", pointer, "no such user");
  if (recipientId === actor.userId) throw invalidField("body", pointer, "is you: a request goes to someone else");
  checkNotAlready(input.kind, recipientId, task);
  // A request whose time ran out no longer blocks asking again.
  await expireDueRequests({ taskId, kind: input.kind, recipientId });
  const now = nowDate();
  const requestId = await db().transaction(async (tx) => {
    const request = await insertRequest(
      {
        taskId,
        kind: input.kind,
        requesterId: actor.userId,
        recipientId,
        message: input.message ?? "",
        state: "pending",
        expiresAt: new Date(now.getTime() + REQUEST_TTL_DAYS * DAY_MS),
        createdAt: now,
        updatedAt: now,
      },
      tx,
    );
    if (!request) throw new AppError("conflict", `This user already has a pending ${input.kind} request for the task`);
    await insertHistory([{ requestId: request.id, actorId: actor.userId, action: "requested", at: now }], tx);
    await publish(tx, requestEvent("collaboration.requested", actor.userId, request, "pending"));
    return request.id;
  });
  return toRequestOutput(await getViewOrThrow(requestId));
}

// Deciding

/** What a decision's transaction answers: expired (committed as such, then a 409), or done. */
type Decision = { expired: boolean };

/**
 * Runs a decision on a pending request, with the request locked: 404 unless the actor is `party`, 409 unless it
 * is pending; a request whose time ran out is marked expired (and the caller answers 409).
 */
async function decide(
  actor: Actor,
  requestId: string,
  party: "recipient" | "requester",
  tx: Executor,
  change: (request: TaskCollaborationRow, now: Date) => Promise<void>,
): Promise<Decision> {
  const request = await lockRequest(requestId, tx);
  if (!request || (party === "recipient" ? request.recipientId : request.requesterId) !== actor.userId) throw requestNotFound();
  const now = nowDate();
  if (isDue(request, now)) {
    await expireDueInTransaction({ requestId }, now, 1, tx);
    return { expired: true };
  }
  if (request.state !== "pending") throw notPending(request.state);
  await change(request, now);
  return { expired: false };
}

async function finish(requestId: string, decision: Decision): Promise<CollaborationRequestOutput> {
  if (decision.expired) throw expiredConflict();
  return toRequestOutput(await getViewOrThrow(requestId));
}

/** Applies an accepted request to the task (locked); answers nothing: the caller reads the audiences around it. */
async function applyAccepted(
  request: TaskCollaborationRow,
  task: TaskRecord,
  transfer: { groupId: string; position: string } | null,
  now: Date,
  tx: Executor,
): Promise<void> {
  if (request.kind === "assign") await insertAssignee(task.id, request.recipientId, now, tx);
  if (request.kind === "collaborate" && task.ownerId !== request.recipientId) {
    await insertCollaborator(task.id, request.recipientId, now, tx);
  }
  if (request.kind === "transfer" && transfer) {
    await updateTaskRow(
      task.id,
      { ownerId: request.recipientId, groupId: transfer.groupId, position: transfer.position, updatedAt: now },
      tx,
    );
    // The previous owner keeps seeing (and editing) the task; the new owner needs no collaborator place.
    await insertCollaborator(task.id, task.ownerId, now, tx);
    await deleteCollaborator(task.id, request.recipientId, tx);
    return;
  }
  await updateTaskRow(task.id, { updatedAt: now }, tx);
}

export async function acceptCollaborationRequest(actor: Actor, requestId: string): Promise<CollaborationRequestOutput> {
  const found = await findRequest(requestId);
  if (!found || found.recipientId !== actor.userId) throw requestNotFound();
  const isTransfer = found.kind === "transfer";
  const decision = await db().transaction(async (tx) => {
    // A transfer also takes the new owner's row (for the position after their last task): users before tasks,
    // the order createTask and the recurrence job lock in.
    const lastPosition = isTransfer ? await lockedLastPosition(actor.userId, tx) : null;
    // Task groups belong to their owner: a transferred task moves into the new owner's first active group.
    const groupId = isTransfer ? await firstActiveGroupId(actor.userId, tx) : null;
    await lockTask(found.taskId, tx);
    return decide(actor, requestId, "recipient", tx, async (request, now) => {
      const task = await findVisibleTask(request.requesterId, request.taskId, tx);
      if (!task || !mayOnTask(request.requesterId, task, isTransfer ? "transfer" : "share")) throw lostRight(request.kind);
      if (isTransfer && !groupId) {
        throw new AppError("conflict", "You have no active task group to receive the task: create or unarchive one first");
      }
      const before = await taskAudience([task.id], tx);
      const transfer = isTransfer ? { groupId: groupId!, position: generateKeyBetween(lastPosition, null) } : null;
      await applyAccepted(request, task, transfer, now, tx);
      await updateRequestState(request.id, "accepted", now, tx);
      await insertHistory([{ requestId: request.id, actorId: actor.userId, action: "accepted", at: now }], tx);
      await announceTaskChange(tx, { type: "task.updated", actorId: actor.userId, taskId: task.id, before });
      const after = await taskAudience([task.id], tx);
      await publish(tx, requestEvent("collaboration.accepted", actor.userId, request, "accepted", after));
    });
  });
  return finish(requestId, decision);
}

/** Rejecting or withdrawing: the request ends, the task stays as it is. */
async function endRequest(
  actor: Actor,
  requestId: string,
  party: "recipient" | "requester",
  state: "rejected" | "withdrawn",
): Promise<CollaborationRequestOutput> {
  const decision = await db().transaction((tx) =>
    decide(actor, requestId, party, tx, async (request, now) => {
      await updateRequestState(request.id, state, now, tx);
      await insertHistory([{ requestId: request.id, actorId: actor.userId, action: state, at: now }], tx);
      await publish(tx, requestEvent(`collaboration.${state}`, actor.userId, request, state));
    }),
  );
  return finish(requestId, decision);
}

export function rejectCollaborationRequest(actor: Actor, requestId: string): Promise<CollaborationRequestOutput> {
  return endRequest(actor, requestId, "recipient", "rejected");
}

export function withdrawCollaborationRequest(actor: Actor, requestId: string): Promise<CollaborationRequestOutput> {
  return endRequest(actor, requestId, "requester", "withdrawn");
}

// Claiming

/**
 * Takes a task nobody is assigned to: the actor becomes its assignee at once. The task is locked and its
 * assignees read again inside the transaction, so of two people claiming at once one gets it and the other a 409.
 */
export async function claimTask(actor: Actor, taskId: string): Promise<ClaimOutput> {
  const requestId = await db().transaction(async (tx) => {
    await lockTask(taskId, tx);
    const task = await getTaskFor(actor, taskId, "claim", tx);
    if (task.assigneeIds.length > 0) {
      throw new AppError(
        "conflict",
        "Someone is already assigned to this task: only a task nobody is assigned to can be claimed",
      );
    }
    const before = await taskAudience([taskId], tx);
    const now = nowDate();
    await insertAssignee(taskId, actor.userId, now, tx);
    await updateTaskRow(taskId, { updatedAt: now }, tx);
    const request = await insertRequest(
      {
        taskId,
        kind: "claim",
        requesterId: actor.userId,
        recipientId: actor.userId,
        state: "accepted",
        expiresAt: null,
        decidedAt: now,
        createdAt: now,
        updatedAt: now,
      },
      tx,
    );
    // A claim is never pending, so the pending-request index cannot refuse it.
    await insertHistory([{ requestId: request!.id, actorId: actor.userId, action: "claimed", at: now }], tx);
    await announceTaskChange(tx, { type: "task.updated", actorId: actor.userId, taskId, before });
    const after = await taskAudience([taskId], tx);
    await publish(tx, requestEvent("collaboration.claimed", actor.userId, request!, "accepted", after));
    return request!.id;
  });
  return { request: toRequestOutput(await getViewOrThrow(requestId)), task: await getTask(actor, taskId) };
}

// Collaborators

/**
 * Takes a collaborator off a task: its owner removes anyone who collaborates on it, and a collaborator may
 * remove themself (leave). 404 when the actor cannot see the task or the user is not a collaborator on it;
 * 403 for anyone else who sees the task.
 */
export async function removeCollaborator(actor: Actor, taskId: string, userId: string): Promise<void> {
  await db().transaction(async (tx) => {
    await lockTask(taskId, tx);
    const task = await getVisibleTask(actor, taskId, tx);
    if (userId !== actor.userId && !mayOnTask(actor.userId, task, "manage")) {
      throw new AppError("forbidden", "Only the task's owner removes collaborators; a collaborator may only remove themself");
    }
    if (!task.collaboratorIds.includes(userId)) throw new AppError("not_found", "This user is not a collaborator on the task");
    // Who saw it before: the collaborator may lose it (then told `task.unshared`); the others see the new people.
    const before = await taskAudience([taskId], tx);
    await deleteCollaborator(taskId, userId, tx);
    await updateTaskRow(taskId, { updatedAt: nowDate() }, tx);
    await announceTaskChange(tx, { type: "task.updated", actorId: actor.userId, taskId, before });
  });
}
