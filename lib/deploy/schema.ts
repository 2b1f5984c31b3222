import { z } from "@hono/zod-openapi";

export const DEPLOY_STATUSES = ["queued", "running", "succeeded", "failed", "skipped"] as const;

export const deployRunOutput = z
  .object({
    id: z.uuid(),
    deliveryId: z.string().openapi({ description: "GitHub's X-GitHub-Delivery" }),
    event: z.string().openapi({ description: "GitHub's X-GitHub-Event (`push`...)" }),
    ref: z.string().nullable(),
    commitSha: z.string().nullable().openapi({ description: "The push's `after` commit" }),
    status: z.enum(DEPLOY_STATUSES).openapi({
      description:
        "`queued` (waits for the run before it), `running`, `succeeded` (exit code 0), `failed` (another exit code, a " +
        "timeout, a command that could not start, or a process that stopped mid-run), `skipped` (another ref than " +
        "DEPLOY_REF, or an event that is not a push)",
    }),
    reason: z.string().nullable().openapi({ description: "Why it was skipped, or failed without an exit code" }),
    exitCode: z.number().int().nullable(),
    output: z.string().nullable().openapi({ description: "The last 4 KB of the command's stdout and stderr" }),
    receivedAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .openapi("DeployRun");
export type DeployRunOutput = z.infer<typeof deployRunOutput>;

export const deployRunListOutput = z.object({ items: z.array(deployRunOutput) }).openapi("DeployRunList");

export const deployWebhookAnswer = z
  .object({
    duplicate: z.boolean().openapi({ description: "This delivery id was received before: nothing runs again" }),
    run: deployRunOutput.nullable().openapi({ description: "The delivery's run; null for `ping`" }),
  })
  .openapi("DeployWebhookAnswer");
export type DeployWebhookAnswer = z.infer<typeof deployWebhookAnswer>;

const deliveryId = z.string().regex(/^[\x21-\x7e]{1,200}$/, "must be 1-200 visible ASCII characters");

export const deployWebhookHeaders = z.object({
  "x-hub-signature-256": z
    .string()
    .optional()
    .openapi({ description: "sha256=<hex HMAC-SHA256 of the raw body with DEPLOY_WEBHOOK_SECRET>" }),
  "x-github-event": z
    .string()
    .regex(/^[a-z_]{1,100}$/, "must be a GitHub event name")
    .openapi({ description: "`push` deploys; `ping` is answered" }),
  "x-github-delivery": deliveryId.openapi({ description: "The delivery's unique id: a redelivery runs nothing again" }),
});

/** The part of GitHub's push payload that is read; the rest is ignored. */
export const deployWebhookPayload = z
  .looseObject({
    ref: z.string().max(1000).optional(),
    after: z.string().max(100).optional(),
  })
  .openapi("DeployWebhookPayload", { description: "GitHub's event payload (for `push`: `ref` and `after` are read)" });
export type DeployWebhookPayload = z.infer<typeof deployWebhookPayload>;
