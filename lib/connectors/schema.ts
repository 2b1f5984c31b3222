import { z } from "@hono/zod-openapi";

export const CONNECTOR_KINDS = ["erp", "learning", "accounting"] as const;

const kind = z.enum(CONNECTOR_KINDS, { message: `must be one of ${CONNECTOR_KINDS.join(", ")}` }).openapi({
  description: "`erp` (Odoo), `learning` (Moodle) or `accounting` (POHODA mServer)",
});
const name = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const baseUrl = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(2000, "must be at most 2000 characters")
  .openapi({
    description:
      "The system's address (https://erp.example.com, http://pohoda.lan:444). Public addresses only unless the operator " +
      "allows private targets for connectors (CONNECTOR_ALLOW_PRIVATE_NETWORK, or ALLOW_PRIVATE_NETWORK_TARGETS); no user name or password in it.",
  });
const credentials = z.record(z.string(), z.unknown()).openapi({
  description: "The kind's credentials (see each kind's section): stored encrypted, never answered back",
});
const settings = z.record(z.string(), z.unknown()).openapi({ description: "The kind's settings (see each kind's section)" });

export const connectionParams = z.object({ id: z.uuid("must be a connection id") });

export const listConnectionsQuery = z.strictObject({ kind: kind.optional() }).openapi("ListConnectionsQuery");

export const createConnectionInput = z
  .strictObject({
    kind,
    name,
    baseUrl,
    credentials,
    settings: settings.optional(),
    teamId: z.uuid("must be a team id").nullable().optional().openapi({
      description: "A team you own or administer: a workspace connection its members see. Omitted or null: personal.",
    }),
  })
  .openapi("CreateConnectionInput");
export type CreateConnectionInput = z.infer<typeof createConnectionInput>;

export const updateConnectionInput = z
  .strictObject({
    name: name.optional(),
    baseUrl: baseUrl.optional(),
    credentials: credentials.optional().openapi({ description: "Replaces the stored credentials as a whole" }),
    settings: settings.optional().openapi({ description: "Replaces the settings as a whole" }),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of name, baseUrl, credentials, settings",
    path: ["name"],
  })
  .openapi("UpdateConnectionInput");
export type UpdateConnectionInput = z.infer<typeof updateConnectionInput>;

const counts = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
  })
  .openapi("ConnectorRunCounts");

export const runOutput = z
  .object({
    id: z.uuid(),
    operation: z.enum(["import", "export", "webhook"]),
    trigger: z.enum(["user", "webhook", "retry"]),
    status: z.enum(["queued", "running", "succeeded", "partial", "failed"]).openapi({
      description:
        "`partial`: some items failed (listed in `items`), the others went through; `queued`: a webhook waiting for " +
        "the connection's running run to end",
    }),
    attempt: z.number().int(),
    nextAttemptAt: z.iso.datetime().nullable().openapi({ description: "When a failed run is tried again; null: it is not" }),
    counts,
    items: z
      .array(
        z.object({
          entity: z.string(),
          externalId: z.string().nullable(),
          localId: z.string().nullable(),
          action: z.enum(["created", "updated", "unchanged", "skipped", "failed"]),
          error: z.string().optional(),
          note: z
            .string()
            .optional()
            .openapi({ description: "What the system said about an item that went through (a warning, why it was skipped)" }),
        }),
      )
      .openapi({ description: "Up to 200 items, failures first" }),
    error: z.string().nullable(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .openapi("ConnectorRun");
export type RunOutput = z.infer<typeof runOutput>;

export const runListOutput = z.object({ items: z.array(runOutput) }).openapi("ConnectorRunList");

export const connectionOutput = z
  .object({
    id: z.uuid(),
    kind,
    name: z.string(),
    baseUrl: z.string(),
    teamId: z.uuid().nullable(),
    settings: z.record(z.string(), z.unknown()),
    credentialsHint: z
      .string()
      .openapi({ description: "Which credentials are stored (a user name, a masked key); never the secret" }),
    status: z.enum(["new", "ok", "error"]).openapi({
      description: "`new` until the first check or run; then `ok`, or `error` with `lastError` after a failed one",
    }),
    lastSyncAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable(),
    webhookPath: z.string().openapi({
      description:
        "Where the system sends events (POST, JSON), signed with the webhook secret as GitHub does: " +
        "`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`; an `X-Delivery-Id` header (else the body's " +
        "hash) deduplicates redeliveries",
    }),
    canManage: z
      .boolean()
      .openapi({ description: "Whether you may change it and run it (its owner, or the team's owners and admins)" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Connection");
export type ConnectionOutput = z.infer<typeof connectionOutput>;

export const createdConnectionOutput = connectionOutput
  .extend({ webhookSecret: z.string().openapi({ description: "Shown once: the incoming webhook's signing secret" }) })
  .openapi("CreatedConnection");

export const webhookSecretOutput = z.object({ webhookSecret: z.string() }).openapi("ConnectionWebhookSecret");

export const connectionListOutput = z.object({ items: z.array(connectionOutput) }).openapi("ConnectionList");

export const statusOutput = z
  .object({
    connectionId: z.uuid(),
    reachable: z.boolean(),
    authenticated: z.boolean(),
    version: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    error: z.string().nullable(),
    checkedAt: z.iso.datetime(),
  })
  .openapi("ConnectionStatus");
export type StatusOutput = z.infer<typeof statusOutput>;

export const webhookAnswer = z
  .object({ duplicate: z.boolean(), run: runOutput.nullable() })
  .openapi("ConnectorWebhookAnswer", { description: "`duplicate`: this delivery id was received before; nothing ran again" });
