import { AppError, invalidField } from "../api/app-error";
import { etagOf } from "../api/etag";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { getGoal, listGoals } from "../goals/service";
import { getGroup, listGroups } from "../groups/service";
import { isModuleEnabled } from "../modules/registry";
import { getProject, listProjects } from "../projects/service";
import { getTask, listAllVisibleTasks } from "../tasks/service";
import { getUserGroup, listUserGroups } from "../teams/service";
import { deleteSyncState, findSyncState, insertSyncState, pruneSyncStates, useSyncState } from "./repo";
import { SYNC_TYPES, type SyncItem, type SyncOutput, type SyncQuery, type SyncType } from "./schema";

/*
 * `GET /sync` (docs/integrations.md): what a client must do to hold what the user can see, from scratch or since its
 * last sync.
 *
 * How changes are found: by comparing states, not by reading a log of changes. A sync reads everything the user can
 * see now (tasks, groups, projects, user groups, goals) and keeps the version (ETag) of each item it tells the client
 * about, as one row of `sync_states`; the cursor names that row. The next sync reads everything again and answers
 * the difference: an item that is new or whose ETag differs is sent whole, an item the row has and the user no longer
 * sees (deleted, or unshared: removed from a project, team or family, unassigned) is sent as a tombstone.
 *
 * Why not "every change with a sequence number or `updated_at` above the cursor": a number or a time is taken when a
 * transaction writes, but transactions commit in another order. A change numbered 41 may commit after one numbered
 * 42; a client that synced when 42 was visible, with cursor 42, would never see 41. The socket's replay
 * (lib/realtime/events.ts) lives with this by sending again the events of the last 5 seconds at or below the cursor,
 * which is fine for a connection that drops for a moment but not for a client away for days, whose cursor could be
 * outrun by any commit slower than the window. Nor does the event log record every change a sync needs (goals,
 * groups, user groups) or every loss of access (a family member leaving changes who sees a group's tasks without an
 * event per task). Comparing states has neither problem: whatever committed before an item was read is in what was
 * sent and in the row; whatever committed after it makes the item differ from the row next time. The row is exactly
 * what the client was sent, whatever order others committed in, so nothing is skipped. The items are read one
 * kind after another, not in one snapshot: an answer may show a task in a group the same answer does not show yet,
 * and the next sync brings the group (or a tombstone for the task).
 *
 * The price: each sync reads all the user can see (as one `GET /tasks` page per 1,000 tasks) and a row holds an
 * ETag per item. Rows live while they are used: a state is deleted once the client has synced from the state that
 * followed it (it holds that one now), or after 30 days unused (its cursor is then a 410: sync from scratch), and a
 * user keeps at most 20.
 */

const KEPT_DAYS = 30;
const KEPT_PER_USER = 20;

type Changed = Exclude<SyncItem, { deleted: true }>;

/** A cursor: state `s`; with `o`, a page of the sync from state `b` (none: from scratch) to `s`, from item `o` on. */
interface Cursor {
  v: 1;
  s: string;
  b?: string | null;
  o?: number;
}

const keyOf = (type: SyncType, id: string) => `${type}:${id}`;

function encodeCursor(cursor: Omit<Cursor, "v">): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor })).toString("base64url");
}

const badCursor = () =>
  invalidField("query", "/cursor", "is not a cursor GET /sync gave: send the last `cursor` or `next` it answered, or none");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function decodeCursor(text: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString());
  } catch {
    throw badCursor();
  }
  const cursor = parsed as Partial<Cursor> | null;
  if (typeof cursor !== "object" || cursor === null || cursor.v !== 1 || typeof cursor.s !== "string" || !UUID.test(cursor.s)) {
    throw badCursor();
  }
  if (cursor.o === undefined) return { v: 1, s: cursor.s };
  if (!Number.isSafeInteger(cursor.o) || cursor.o < 0) throw badCursor();
  if (cursor.b !== null && (typeof cursor.b !== "string" || !UUID.test(cursor.b))) throw badCursor();
  return { v: 1, s: cursor.s, b: cursor.b, o: cursor.o };
}

const expired = () =>
  new AppError(
    "gone",
    `This sync cursor has expired (a cursor unused for ${KEPT_DAYS} days, or replaced by newer syncs, is forgotten): ` +
      "sync again from scratch, without a cursor",
  );

/** Everything the actor sees now, by key, in the order a sync sends it (tasks first). */
async function readEverything(actor: Actor): Promise<Map<string, Changed>> {
  const kinds: [SyncType, { id: string }[]][] = [
    ["task", await listAllVisibleTasks(actor)],
    ["group", (await listGroups(actor, { includeArchived: true })).items],
    ["project", isModuleEnabled("projects") ? (await listProjects(actor, true)).items : []],
    ["userGroup", (await listUserGroups(actor)).items],
    ["goal", (await listGoals(actor, {})).items],
  ];
  const items = new Map<string, Changed>();
  for (const [type, list] of kinds) {
    for (const data of list) {
      items.set(keyOf(type, data.id), { type, id: data.id, deleted: false, etag: await etagOf(data), data } as Changed);
    }
  }
  return items;
}

function versionsOf(items: Map<string, Changed>): Record<string, string> {
  return Object.fromEntries([...items].map(([key, item]) => [key, item.etag]));
}

/** What differs from `base` in `target`, in a fixed order (by kind as SYNC_TYPES lists them, then id). */
function changesBetween(base: Record<string, string>, target: Record<string, string>): string[] {
  const keys = Object.keys(target).filter((key) => base[key] !== target[key]);
  keys.push(...Object.keys(base).filter((key) => !(key in target)));
  const rank = (key: string) => SYNC_TYPES.indexOf(key.slice(0, key.indexOf(":")) as SyncType);
  return keys.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const READERS: Record<SyncType, (actor: Actor, id: string) => Promise<{ id: string }>> = {
  task: getTask,
  group: (actor, id) => getGroup(actor, id),
  project: getProject,
  userGroup: getUserGroup,
  goal: getGoal,
};

/**
 * One item of a later page, read again now: it may have changed since the sync began (the next sync sends it again,
 * harmlessly) or be gone (then it is left out here, and the next sync sends its tombstone).
 */
async function readOne(actor: Actor, type: SyncType, id: string): Promise<Changed | null> {
  try {
    const data = await READERS[type](actor, id);
    return { type, id, deleted: false, etag: await etagOf(data), data } as Changed;
  } catch (error) {
    if (error instanceof AppError && (error.code === "not_found" || error.code === "module_disabled")) return null;
    throw error;
  }
}

async function answerPage(
  actor: Actor,
  keys: readonly string[],
  target: Record<string, string>,
  page: { state: string; base: string | null; offset: number; limit: number },
  read?: Map<string, Changed>,
): Promise<SyncOutput> {
  const items: SyncItem[] = [];
  for (const key of keys.slice(page.offset, page.offset + page.limit)) {
    const type = key.slice(0, key.indexOf(":")) as SyncType;
    const id = key.slice(key.indexOf(":") + 1);
    if (!(key in target)) {
      items.push({ type, id, deleted: true });
      continue;
    }
    const item = read?.get(key) ?? (await readOne(actor, type, id));
    if (item) items.push(item);
  }
  const end = page.offset + page.limit;
  return end < keys.length
    ? { items, next: encodeCursor({ s: page.state, b: page.base, o: end }), cursor: null }
    : { items, next: null, cursor: encodeCursor({ s: page.state }) };
}

async function saveState(actor: Actor, parentId: string | null, versions: Record<string, string>): Promise<string> {
  const now = nowDate();
  await pruneSyncStates(actor.userId, new Date(now.getTime() - KEPT_DAYS * 86_400_000), KEPT_PER_USER - 1);
  return insertSyncState(actor.userId, parentId, versions, now);
}

/** `GET /sync`: from scratch without a cursor, the rest of a sync with `next`, what changed since with `cursor`. */
export async function sync(actor: Actor, query: SyncQuery): Promise<SyncOutput> {
  if (!query.cursor) {
    const read = await readEverything(actor);
    const versions = versionsOf(read);
    const state = await saveState(actor, null, versions);
    return answerPage(actor, changesBetween({}, versions), versions, { state, base: null, offset: 0, limit: query.limit }, read);
  }
  const cursor = decodeCursor(query.cursor);
  const state = await useSyncState(actor.userId, cursor.s, nowDate());
  if (!state) throw expired();
  if (cursor.o !== undefined) {
    // The rest of a sync: the same list of changes, from the two states it was made of.
    const base = cursor.b ? await findSyncState(actor.userId, cursor.b) : null;
    if (cursor.b && !base) throw expired();
    const keys = changesBetween(base?.versions ?? {}, state.versions);
    return answerPage(actor, keys, state.versions, {
      state: state.id,
      base: cursor.b ?? null,
      offset: cursor.o,
      limit: query.limit,
    });
  }
  // The client holds this state, so it no longer needs the one it synced from to get it.
  if (state.parentId) await deleteSyncState(actor.userId, state.parentId);
  const read = await readEverything(actor);
  const versions = versionsOf(read);
  const keys = changesBetween(state.versions, versions);
  if (keys.length === 0) return { items: [], next: null, cursor: query.cursor };
  const next = await saveState(actor, state.id, versions);
  return answerPage(actor, keys, versions, { state: next, base: state.id, offset: 0, limit: query.limit }, read);
}
