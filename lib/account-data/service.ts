import type { Readable } from "node:stream";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { verifyPassword } from "../auth/passwords";
import { forgetSessionUser } from "../auth/repo";
import { now, nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { publish } from "../events/publish";
import type { DomainEvent } from "../events/types";
import { deleteFamilyRow, findMembership, listFamilyMembers, lockFamily, updateFamilyMemberRole } from "../family/repo";
import { sendTasksHome } from "../groups/service";
import {
  countOwners as countProjectOwners,
  deleteProjectRow,
  listMembers as listProjectMembers,
  lockProject,
  updateMemberRole as updateProjectRole,
} from "../projects/repo";
import { purgeDeletedMedia } from "../media/purge";
import { mediaStorage } from "../media/storage";
import { limiter } from "../rate-limit/limiter";
import { disconnectUser } from "../realtime/events";
import { invalidateTaskLists } from "../tasks/list-cache";
import { taskAudience } from "../tasks/repo";
import { announceTaskChange } from "../tasks/service";
import {
  countOwners as countTeamOwners,
  listMembers as listTeamMembers,
  lockUserGroup,
  updateMemberRole as updateTeamRole,
} from "../teams/repo";
import {
  deleteUserGroupById,
  eraseAccount,
  findAccount,
  lockAccount,
  othersTasksInGroupsOf,
  othersTasksOfUser,
  ownedProjectIds,
  ownedUserGroupIds,
  ownTasksSeenByOthers,
  readAccountData,
  readAccountExport,
  visibleTaskIds,
  type AccountRow,
} from "./repo";
import { accountArchive, ARCHIVE_FOLDER, uniqueFileNames } from "./archive";
import { FRESH_SIGN_IN_MINUTES, type AccountExportOutput, type DeleteAccountInput } from "./schema";

/*
 * The rules.
 *
 * Export: everything the user created or owns and every row about them, one key per kind (tables.ts says which rows
 * and which columns), without secrets (password hash, token version, passkey public keys, push keys, webhook
 * secrets, invitation token hashes, challenges) and without other people's private data: others' tasks the user
 * works on come with their own fields only, memberships with the user's own row only, events without their data.
 *
 * Deletion needs the password, or a fresh sign-in: a session token issued less than FRESH_SIGN_IN_MINUTES ago (the
 * only way for accounts without a password). A wrong password is a 403 and counts as a failed sign-in of the
 * account. Then, in one transaction:
 * - a team or project where the user is the last owner gets a new owner: the longest-standing admin, else member
 *   (else, for projects, viewer); with nobody else in it, it is deleted (its tasks stay with their owners);
 * - a family where the user is the last parent gets the longest-standing other member as parent; an empty one is
 *   deleted; tasks other people put into the user's groups (shared with the family) go back to their owners' first
 *   active group, as when a group stops being shared (lib/groups `sendTasksHome`);
 * - then the registry's rules: the user's tasks (with their subtasks, assignees, collaborators, requests,
 *   invitations, preferences...), groups, requests sent and received, invitations sent, notifications, settings,
 *   reminders, reports, push subscriptions, webhooks, passkeys, linked identities, challenges, email log entries and
 *   reported errors are deleted; others' tasks stay without them among assignees and collaborators; `created_by`
 *   and actor columns on shared things become null; events only for them (or about their tasks) are deleted,
 *   elsewhere their id leaves the audience and every stored JSON (event data, notification data, webhook payloads,
 *   error context) has it replaced by the nil UUID.
 * Those who saw the user's tasks get `task.deleted` (the task id only); others' tasks the user was on, or that moved
 * out of the user's groups, get `task.updated` as they now are. No membership event is published: it would name the
 * deleted account. After the commit every affected task list is dropped, and the old token stops working at once.
 */

const FRESH_SIGN_IN_MS = FRESH_SIGN_IN_MINUTES * 60_000;

export async function exportAccountData(actor: Actor): Promise<AccountExportOutput> {
  const data = await readAccountData({ userId: actor.userId, email: actor.email });
  if (!data.user) throw new AppError("unauthenticated", "This account no longer exists");
  return { exportedAt: nowDate().toISOString(), ...data } as AccountExportOutput;
}

/**
 * The export as a ZIP (archive.ts): the JSON, its `mediaItems` rows each with `file`, the path of its bytes in the
 * archive (null when the stored file is missing), and those files under `attachments/`. The rows and keys are read
 * in one snapshot; the files are read while the archive is sent.
 */
export async function exportAccountArchive(actor: Actor): Promise<{ filename: string; stream: Readable }> {
  const { data, media } = await readAccountExport({ userId: actor.userId, email: actor.email });
  if (!data.user) throw new AppError("unauthenticated", "This account no longer exists");
  const exportedAt = nowDate();
  const storage = mediaStorage();
  const stored = [];
  for (const item of media) if ((await storage.size(item.storageKey)) !== null) stored.push(item);
  const names = uniqueFileNames(stored.map((item) => item.filename));
  const paths = new Map(stored.map((item, index) => [item.id, `${ARCHIVE_FOLDER}/${names[index]}`]));
  const mediaItems = ((data.mediaItems ?? []) as { id: string }[]).map((row) => ({ ...row, file: paths.get(row.id) ?? null }));
  const json = JSON.stringify({ exportedAt: exportedAt.toISOString(), ...data, mediaItems }, null, 2);
  const files = stored.map((item) => ({ path: paths.get(item.id)!, open: () => storage.get(item.storageKey) }));
  return {
    filename: `spolu-export-${exportedAt.toISOString().slice(0, 10)}.zip`,
    stream: accountArchive(json, files, exportedAt),
  };
}

/** Whether the actor's session token was issued less than FRESH_SIGN_IN_MINUTES ago. */
function signedInRecently(actor: Actor): boolean {
  const age = actor.signedInAt ? now() - actor.signedInAt.getTime() : Infinity;
  // A token from the future (clock skew between processes) counts as fresh only within a minute.
  return age < FRESH_SIGN_IN_MS && age > -60_000;
}

/** The password when one is given (a wrong one counts against sign-ins of the account), else a fresh sign-in. */
async function confirmDeletion(actor: Actor, account: AccountRow, input: DeleteAccountInput): Promise<void> {
  if (input.password !== undefined) {
    const key = `email:${account.email}`;
    await limiter("login-account").check(key);
    if (!(await verifyPassword(account.passwordHash, input.password))) {
      await limiter("login-account").penalise(key);
      throw new AppError("forbidden", "The password is wrong: the account was not deleted");
    }
    return;
  }
  if (signedInRecently(actor)) return;
  if (account.passwordHash) {
    throw invalidField(
      "body",
      "/password",
      `is required to delete the account, unless you signed in less than ${FRESH_SIGN_IN_MINUTES} minutes ago`,
    );
  }
  throw new AppError(
    "forbidden",
    `Sign in again: an account without a password is deleted within ${FRESH_SIGN_IN_MINUTES} minutes of signing in`,
  );
}

/** The first member holding the first role of `ranks` (members come in the order they joined). */
function successor<M extends { userId: string; role: string }>(members: readonly M[], ranks: readonly string[]): M | undefined {
  for (const role of ranks) {
    const found = members.find((member) => member.role === role);
    if (found) return found;
  }
  return undefined;
}

/** Teams where the user is the last owner: the longest-standing admin (else member) takes over, or it goes. */
async function handOverTeams(userId: string, tx: Executor): Promise<void> {
  for (const groupId of await ownedUserGroupIds(userId, tx)) {
    if (!(await lockUserGroup(tx, groupId)) || (await countTeamOwners(groupId, tx)) > 1) continue;
    const others = (await listTeamMembers(groupId, tx)).filter((member) => member.userId !== userId);
    const heir = successor(others, ["admin", "member"]);
    if (heir) await updateTeamRole(groupId, heir.userId, "owner", tx);
    else await deleteUserGroupById(groupId, tx);
  }
}

/** Projects where the user is the last owner: the longest-standing admin (else member, else viewer), or it goes. */
async function handOverProjects(userId: string, tx: Executor): Promise<void> {
  for (const projectId of await ownedProjectIds(userId, tx)) {
    if (!(await lockProject(tx, projectId)) || (await countProjectOwners(projectId, tx)) > 1) continue;
    const others = (await listProjectMembers(projectId, tx)).filter((member) => member.userId !== userId);
    const heir = successor(others, ["admin", "member", "viewer"]);
    if (heir) await updateProjectRole(projectId, heir.userId, "owner", tx);
    else await deleteProjectRow(projectId, tx);
  }
}

/** The family: the longest-standing other member becomes parent when the user was the last; an empty one goes. */
async function leaveFamily(userId: string, tx: Executor): Promise<void> {
  const mine = await findMembership(userId, tx);
  if (!mine || !(await lockFamily(mine.family.id, tx))) return;
  const familyId = mine.family.id;
  const others = (await listFamilyMembers(familyId, tx)).filter((member) => member.userId !== userId);
  if (others.length === 0) await deleteFamilyRow(familyId, tx);
  else if (!others.some((member) => member.role === "parent"))
    await updateFamilyMemberRole(familyId, others[0]!.userId, "parent", tx);
}

/** Tasks other people put into the user's groups go back to their owners' first active group. */
async function sendOthersTasksHome(userId: string, tx: Executor): Promise<void> {
  const moving = await othersTasksInGroupsOf(userId, tx);
  for (const groupId of new Set(moving.map((task) => task.groupId))) {
    await sendTasksHome(
      moving.filter((task) => task.groupId === groupId),
      groupId,
      tx,
    );
  }
}

/** Who sees each task now, without the user. */
async function audiences(taskIds: readonly string[], userId: string, tx: Executor): Promise<Map<string, string[]>> {
  const seen = new Map<string, string[]>();
  for (const taskId of taskIds)
    seen.set(
      taskId,
      (await taskAudience([taskId], tx)).filter((id) => id !== userId),
    );
  return seen;
}

/** Deletes the account and everything of it (see the rules above); answers whose task lists changed. */
async function deleteEverything(account: AccountRow, tx: Executor): Promise<string[]> {
  const userId = account.id;
  if (!(await lockAccount(userId, tx))) throw new AppError("unauthenticated", "This account no longer exists");
  const visible = await visibleTaskIds(userId, tx);
  const before = await taskAudience(visible, tx);
  const ownShared = await audiences(await ownTasksSeenByOthers(userId, tx), userId, tx);
  const othersTouched = await audiences(await othersTasksOfUser(userId, tx), userId, tx);

  await handOverTeams(userId, tx);
  await handOverProjects(userId, tx);
  await leaveFamily(userId, tx);
  await sendOthersTasksHome(userId, tx);
  await eraseAccount({ userId, email: account.email }, tx);

  const deleted: DomainEvent[] = [...ownShared]
    .filter(([, audience]) => audience.length > 0)
    .map(([taskId, audience]) => ({ type: "task.deleted", actorId: null, taskId, audience, data: { taskId } }));
  await publish(tx, ...deleted);
  const changed: string[] = [];
  for (const [taskId, was] of othersTouched) {
    const { audience } = await announceTaskChange(tx, { type: "task.updated", actorId: null, taskId, before: was });
    changed.push(...audience);
  }
  return [...before, ...changed, ...(await taskAudience(visible, tx))].filter((id) => id !== userId);
}

/**
 * Deletes the actor's account after confirming it is them (the password, or a fresh sign-in): 403 for a wrong
 * password, 400 naming /password when one is needed and missing.
 */
export async function deleteAccount(actor: Actor, input: DeleteAccountInput): Promise<void> {
  const account = await findAccount(actor.userId);
  if (!account) throw new AppError("unauthenticated", "This account no longer exists");
  await confirmDeletion(actor, account, input);
  const audience = await db().transaction((tx) => deleteEverything(account, tx));
  // Media of the user's tasks, and media they uploaded elsewhere, went with the rows: remove the files too.
  await purgeDeletedMedia();
  await forgetSessionUser(account.id);
  disconnectUser(account.id);
  await invalidateTaskLists(audience);
}
