import { z } from "@hono/zod-openapi";
import { AppError } from "../../api/app-error";
import { createTask, getTask, updateTask } from "../../tasks/service";
import type { ConnectorDriver, SyncContext } from "../driver";
import { ConnectorError } from "../http";
import { OdooClient, OdooError } from "./client";
import { findUnlinkedTaggedTaskIds } from "./repo";
import { odooCredentials, odooSettings, type OdooCredentials, type OdooSettings } from "./schema";
import {
  changedFields,
  decodeFingerprint,
  encodeFingerprint,
  fingerprintOf,
  fromLocal,
  fromOdoo,
  SYNCED_FIELDS,
  taskFields,
  toCreateInput,
  toOdooValues,
  toUpdateInput,
  type OdooTaskRecord,
} from "./tasks";

/*
 * The `erp` connector: Odoo's project.task ↔ the connection owner's tasks (mapping in tasks.ts).
 *
 * - Import: the tasks of `settings.projectId`, or without it the tasks assigned to the connection's Odoo user, read
 *   200 at a time. New ones become tasks of the owner; linked ones get the fields that changed in Odoo since the
 *   last sync; a linked task deleted here is not brought back (skipped).
 * - Export: (1) every task linked to this connection gets the fields changed here since the last sync written to
 *   Odoo; (2) the owner's tasks tagged `odoo` that are not linked yet are created in Odoo (in `settings.projectId`
 *   when set, assigned to the connection's Odoo user) and linked, so a second export updates them.
 * - Webhook: `{ "model": "project.task", "id": 42 }` or `{ "ids": [42, 43] }` (Odoo's own `_model` / `_id` keys are
 *   accepted too): those records are read and imported as above.
 */

type Context = SyncContext<OdooCredentials, OdooSettings>;

const ENTITY = "task";
const PAGE = 200;
const EXPORT_TAG = "odoo";
const MAX_EXPORT = 500;
const MAX_WEBHOOK_IDS = 200;

const webhookPayload = z.looseObject({
  model: z.string().optional(),
  _model: z.string().optional(),
  id: z.number().int().positive().optional(),
  _id: z.number().int().positive().optional(),
  ids: z.array(z.number().int().positive()).max(MAX_WEBHOOK_IDS).optional(),
  event: z.string().optional(),
});

const failed = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Stages folded in Odoo's kanban (done columns): before 17 the only sign that a task is finished. */
async function foldedStages(client: OdooClient, major: number, records: OdooTaskRecord[]): Promise<Set<number>> {
  if (major >= 17) return new Set();
  const stageIds = [...new Set(records.flatMap((record) => (record.stage_id ? [record.stage_id[0]] : [])))];
  if (!stageIds.length) return new Set();
  const stages = await client.searchRead<{ id: number; fold: boolean }>("project.task.type", [["id", "in", stageIds]], ["fold"]);
  return new Set(stages.filter((stage) => stage.fold).map((stage) => stage.id));
}

/** Imports Odoo records as the owner's tasks, through the links; each record's failure is its own. */
async function importRecords(context: Context, client: OdooClient, records: OdooTaskRecord[]): Promise<void> {
  const { major } = await client.serverVersion();
  const folded = await foldedStages(client, major, records);
  const actor = context.connection.actor;
  for (const record of records) {
    const externalId = String(record.id);
    try {
      const synced = fromOdoo(record, major, folded);
      const link = await context.links.find(ENTITY, externalId);
      if (!link?.localId) {
        const task = await createTask(actor, toCreateInput(synced, actor.timeZone));
        await context.links.save(ENTITY, externalId, task.id, encodeFingerprint(fingerprintOf(synced)));
        context.item({ entity: ENTITY, externalId, localId: task.id, action: "created" });
        continue;
      }
      const fields = changedFields(synced, decodeFingerprint(link.fingerprint));
      if (!fields.length) {
        context.item({ entity: ENTITY, externalId, localId: link.localId, action: "unchanged" });
        continue;
      }
      let current;
      try {
        current = await getTask(actor, link.localId);
      } catch (error) {
        if (error instanceof AppError && error.code === "not_found") {
          context.item({
            entity: ENTITY,
            externalId,
            localId: link.localId,
            action: "skipped",
            error: "deleted here; not imported again",
          });
          continue;
        }
        throw error;
      }
      await updateTask(actor, link.localId, toUpdateInput(synced, fields, current, actor.timeZone));
      await context.links.save(
        ENTITY,
        externalId,
        link.localId,
        encodeFingerprint({ ...decodeFingerprint(link.fingerprint), ...fingerprintOf(synced) }),
      );
      context.item({ entity: ENTITY, externalId, localId: link.localId, action: "updated" });
    } catch (error) {
      if (error instanceof ConnectorError && !(error instanceof OdooError)) throw error;
      context.item({ entity: ENTITY, externalId, localId: null, action: "failed", error: failed(error) });
    }
  }
}

async function importDomain(context: Context, client: OdooClient): Promise<unknown[]> {
  const projectId = context.connection.settings.projectId;
  if (projectId) return [["project_id", "=", projectId]];
  const { major } = await client.serverVersion();
  const uid = await client.uid();
  return major >= 16 ? [["user_ids", "in", [uid]]] : [["user_id", "=", uid]];
}

async function exportLinked(context: Context, client: OdooClient, major: number): Promise<void> {
  const actor = context.connection.actor;
  // Before 17 a task's state is its stage: Spolu's done is not written back.
  const exported = major >= 17 ? SYNCED_FIELDS : SYNCED_FIELDS.filter((field) => field !== "state");
  for (const link of await context.links.list(ENTITY)) {
    if (!link.localId) continue;
    try {
      let task;
      try {
        task = await getTask(actor, link.localId);
      } catch (error) {
        if (error instanceof AppError && error.code === "not_found") {
          context.item({
            entity: ENTITY,
            externalId: link.externalId,
            localId: link.localId,
            action: "skipped",
            error: "deleted here",
          });
          continue;
        }
        throw error;
      }
      const synced = fromLocal(task, major, actor.timeZone);
      const recorded = decodeFingerprint(link.fingerprint);
      const fields = changedFields(synced, recorded, exported);
      if (!fields.length) {
        context.item({ entity: ENTITY, externalId: link.externalId, localId: task.id, action: "unchanged" });
        continue;
      }
      await client.write("project.task", [Number(link.externalId)], toOdooValues(synced, fields, major));
      const now = fingerprintOf(synced);
      const merged = { ...recorded, ...Object.fromEntries(fields.map((field) => [field, now[field]])) };
      await context.links.save(ENTITY, link.externalId, task.id, encodeFingerprint(merged));
      context.item({ entity: ENTITY, externalId: link.externalId, localId: task.id, action: "updated" });
    } catch (error) {
      if (error instanceof ConnectorError && !(error instanceof OdooError)) throw error;
      context.item({
        entity: ENTITY,
        externalId: link.externalId,
        localId: link.localId,
        action: "failed",
        error: failed(error),
      });
    }
  }
}

async function exportTagged(context: Context, client: OdooClient, major: number): Promise<void> {
  const actor = context.connection.actor;
  const ids = await findUnlinkedTaggedTaskIds(actor.userId, context.connection.id, EXPORT_TAG, MAX_EXPORT);
  if (!ids.length) return;
  const uid = await client.uid();
  for (const id of ids) {
    try {
      const task = await getTask(actor, id);
      const synced = fromLocal(task, major, actor.timeZone);
      const values = {
        ...toOdooValues(synced, SYNCED_FIELDS, major),
        ...(context.connection.settings.projectId && { project_id: context.connection.settings.projectId }),
        ...(major >= 16 ? { user_ids: [[6, 0, [uid]]] } : { user_id: uid }),
      };
      const externalId = String(await client.create("project.task", values));
      await context.links.save(ENTITY, externalId, task.id, encodeFingerprint(fingerprintOf(synced)));
      context.item({ entity: ENTITY, externalId, localId: task.id, action: "created" });
    } catch (error) {
      if (error instanceof ConnectorError && !(error instanceof OdooError)) throw error;
      context.item({ entity: ENTITY, externalId: null, localId: id, action: "failed", error: failed(error) });
    }
  }
}

export const odooDriver: ConnectorDriver<OdooCredentials, OdooSettings> = {
  kind: "erp",
  module: "erp",
  credentials: odooCredentials,
  settings: odooSettings,
  describeCredentials: (credentials) => `${credentials.login}, key …${credentials.apiKey.slice(-4)}`,

  async check(context) {
    const client = new OdooClient(context);
    let version;
    try {
      version = await client.serverVersion();
    } catch (error) {
      if (error instanceof ConnectorError)
        return { reachable: false, authenticated: false, error: error.message, details: { apiFlavour: null } };
      throw error;
    }
    const details = { apiFlavour: await client.flavour(), database: context.connection.settings.database };
    try {
      await client.signIn();
      return { reachable: true, authenticated: true, version: version.serverVersion, details };
    } catch (error) {
      if (error instanceof ConnectorError)
        return { reachable: true, authenticated: false, version: version.serverVersion, details, error: error.message };
      throw error;
    }
  },

  async import(context) {
    const client = new OdooClient(context);
    await client.signIn();
    const { major } = await client.serverVersion();
    const domain = await importDomain(context, client);
    for (let offset = 0; ; offset += PAGE) {
      const records = await client.searchRead<OdooTaskRecord>("project.task", domain, taskFields(major), {
        limit: PAGE,
        offset,
        order: "id",
      });
      await importRecords(context, client, records);
      if (records.length < PAGE) break;
    }
  },

  async export(context) {
    const client = new OdooClient(context);
    await client.signIn();
    const { major } = await client.serverVersion();
    await exportLinked(context, client, major);
    await exportTagged(context, client, major);
  },

  async webhook(context, payload) {
    const parsed = webhookPayload.safeParse(payload);
    if (!parsed.success)
      throw new ConnectorError(`The webhook's body is not an Odoo record event: ${parsed.error.issues[0]?.message}`, false);
    const model = parsed.data.model ?? parsed.data._model ?? "project.task";
    if (model !== "project.task") throw new ConnectorError(`Only project.task events are handled, not ${model}`, false);
    const ids = [
      ...new Set(parsed.data.ids ?? [parsed.data.id ?? parsed.data._id].filter((id): id is number => id !== undefined)),
    ];
    if (!ids.length) throw new ConnectorError("The webhook's body names no record (`id` or `ids`)", false);
    const client = new OdooClient(context);
    await client.signIn();
    const { major } = await client.serverVersion();
    const records = await client.searchRead<OdooTaskRecord>("project.task", [["id", "in", ids]], taskFields(major));
    await importRecords(context, client, records);
    const found = new Set(records.map((record) => record.id));
    for (const id of ids.filter((each) => !found.has(each))) {
      context.item({
        entity: ENTITY,
        externalId: String(id),
        localId: null,
        action: "skipped",
        error: "not in Odoo (deleted, archived or not visible to the login)",
      });
    }
  },
};
