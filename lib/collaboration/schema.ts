import { z } from "@hono/zod-openapi";
import { accountRefFields, exactlyOneAccount } from "../accounts/schema";
import { taskOutput } from "../tasks/schema";

/** The kinds a user may ask for; a `claim` is taken (POST /tasks/{id}/claim), never asked for. */
export const REQUEST_KINDS = ["assign", "transfer", "collaborate"] as const;
export const COLLABORATION_KINDS = [...REQUEST_KINDS, "claim"] as const;
export const COLLABORATION_STATES = ["pending", "accepted", "rejected", "withdrawn", "expired"] as const;
export const HISTORY_ACTIONS = ["requested", "accepted", "rejected", "withdrawn", "expired", "claimed"] as const;
export const MESSAGE_MAX = 2000;
export const LIST_LIMIT_MAX = 100;

/** How long a request waits for its recipient's decision before it expires. */
export const REQUEST_TTL_DAYS = 14;

const kindSchema = z.enum(COLLABORATION_KINDS).openapi({
  description:
    "`assign`: the recipient becomes an assignee; `collaborate`: the recipient works on the task with its owner " +
    "(reads and edits it, asks others in); `transfer`: the recipient becomes the owner and the previous owner a " +
    "collaborator; `claim`: a team, project or family member took a task nobody was assigned to (no approval).",
});
const stateSchema = z.enum(COLLABORATION_STATES, { message: `must be one of ${COLLABORATION_STATES.join(", ")}` }).openapi({
  description:
    "`pending` until the recipient decides: `accepted` or `rejected`; `withdrawn` by the requester; `expired` when " +
    `nobody decided within ${REQUEST_TTL_DAYS} days. A claim is \`accepted\` at once.`,
});

export const requestIdParams = z.object({ id: z.uuid("must be a collaboration request id") });
export const collaboratorParams = z.object({ id: z.uuid("must be a task id"), userId: z.uuid("must be a user id") });

export const createRequestInput = z
  .strictObject({
    kind: z.enum(REQUEST_KINDS, { message: `must be one of ${REQUEST_KINDS.join(", ")}` }).openapi({
      description: "`assign` and `collaborate` need the `share` right on the task, `transfer` the `transfer` right (its owner)",
    }),
    ...accountRefFields("The recipient", "The recipient's account email"),
    message: z
      .string()
      .trim()
      .max(MESSAGE_MAX, `must be at most ${MESSAGE_MAX} characters`)
      .optional()
      .openapi({ description: `A note for the recipient, at most ${MESSAGE_MAX} characters (trimmed); empty by default` }),
  })
  .superRefine(exactlyOneAccount)
  .openapi("CreateCollaborationRequestInput", { description: "Exactly one of `userId` and `email`" });
export type CreateRequestInput = z.infer<typeof createRequestInput>;

export const listRequestsQuery = z
  .strictObject({
    box: z
      .enum(["incoming", "outgoing"], { message: "must be incoming or outgoing" })
      .default("incoming")
      .openapi({ description: "`incoming`: you are the recipient; `outgoing`: you are the requester (claims are here)" }),
    state: stateSchema.optional().openapi({ description: "Only requests in this state" }),
    limit: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(LIST_LIMIT_MAX, `must be at most ${LIST_LIMIT_MAX}`)
      .default(50)
      .openapi({ description: "Requests per page" }),
    cursor: z
      .string()
      .max(500, "is not a cursor of this list")
      .optional()
      .openapi({ description: "`nextCursor` of the previous page" }),
  })
  .openapi("ListCollaborationRequestsQuery");
export type ListRequestsQuery = z.infer<typeof listRequestsQuery>;

const person = z.object({ id: z.uuid(), name: z.string() });

export const collaborationRequestOutput = z
  .object({
    id: z.uuid(),
    taskId: z.uuid(),
    kind: kindSchema,
    state: stateSchema,
    message: z.string(),
    requester: person.openapi({ description: "Who asked (for a claim: the claimer)" }),
    recipient: person.openapi({ description: "Who decides (for a claim: the claimer)" }),
    task: z
      .object({ id: z.uuid(), title: z.string(), status: taskOutput.shape.status, dueAt: z.iso.datetime().nullable() })
      .openapi({ description: "What the recipient decides on, shown even before they can see the task itself" }),
    expiresAt: z.iso.datetime().nullable().openapi({ description: "When a pending request expires; null for a claim" }),
    decidedAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: "When it stopped being pending (accepted, rejected, withdrawn; its expiry time once expired)" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("CollaborationRequest");
export type CollaborationRequestOutput = z.infer<typeof collaborationRequestOutput>;

export const historyEntryOutput = z
  .object({
    action: z.enum(HISTORY_ACTIONS),
    actorId: z.uuid().nullable().openapi({ description: "Who did it; null for an expiry (and once that account is deleted)" }),
    at: z.iso.datetime(),
  })
  .openapi("CollaborationHistoryEntry");

export const collaborationRequestDetailOutput = collaborationRequestOutput
  .extend({
    history: z.array(historyEntryOutput).openapi({
      description: "In order: `requested`, then `accepted`, `rejected`, `withdrawn` or `expired`; a claim has only `claimed`",
    }),
  })
  .openapi("CollaborationRequestDetail");
export type CollaborationRequestDetailOutput = z.infer<typeof collaborationRequestDetailOutput>;

export const collaborationRequestListOutput = z
  .object({
    items: z.array(collaborationRequestOutput).openapi({ description: "Newest first" }),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("CollaborationRequestList");
export type CollaborationRequestListOutput = z.infer<typeof collaborationRequestListOutput>;

export const claimOutput = z
  .object({
    request: collaborationRequestOutput.openapi({ description: "The claim, `accepted`, with you as requester and recipient" }),
    task: taskOutput.openapi({ description: "The task, now assigned to you" }),
  })
  .openapi("ClaimResult");
export type ClaimOutput = z.infer<typeof claimOutput>;
