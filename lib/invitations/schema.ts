import { z } from "@hono/zod-openapi";
import { emailInput, userOutput } from "../accounts/schema";

/** An invitation can be accepted for this long after it was created (interface spec, section 8). */
export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 3600 * 1000;
export const INVITATION_STATUSES = ["pending", "accepted", "revoked", "expired"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
/** The roles a project invitation may grant: never `owner` (ownership is handed over inside the project). */
export const INVITATION_PROJECT_ROLES = ["admin", "member", "viewer"] as const;
export type InvitationProjectRole = (typeof INVITATION_PROJECT_ROLES)[number];
export const INVITEE_NAME_MAX = 100;
export const MESSAGE_MAX = 500;
/** Tokens are 32 random bytes in base64url (43 characters); anything far longer is not one. */
const TOKEN_MAX = 200;

/** Separators people type inside phone numbers; they are dropped before the number is checked. */
const PHONE_SEPARATORS = /[\s().-]/g;
/** E.164-ish: an optional +, then 6 to 15 digits, not starting with 0. */
export const PHONE_PATTERN = /^\+?[1-9]\d{5,14}$/;

const statusSchema = z.enum(INVITATION_STATUSES).openapi({
  description:
    "`pending`: the link works; `accepted`: used (a link works once); `revoked`: withdrawn by the inviter; " +
    `\`expired\`: not accepted within ${INVITATION_TTL_DAYS} days.`,
});
const projectRoleSchema = z.enum(INVITATION_PROJECT_ROLES, { message: "must be one of admin, member, viewer" }).openapi({
  description: "The role the invitee gets in the project: `admin`, `member` (default) or `viewer`. Never `owner`.",
});

export const phoneInput = z
  .string()
  .trim()
  .max(32, "must be at most 32 characters")
  .transform((phone) => phone.replace(PHONE_SEPARATORS, ""))
  .pipe(z.string().regex(PHONE_PATTERN, "must be a phone number in international form: an optional +, then 6 to 15 digits"))
  .openapi({
    type: "string",
    example: "+420 601 234 567",
    description: "International form: an optional +, then 6 to 15 digits; spaces, dots, dashes and brackets are dropped",
  });

export const createInvitationInput = z
  .strictObject({
    taskId: z.uuid("must be a task id").optional().openapi({ description: "The task to invite to; or give `projectId`" }),
    projectId: z.uuid("must be a project id").optional().openapi({ description: "The project to invite to; or give `taskId`" }),
    projectRole: projectRoleSchema.optional(),
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(INVITEE_NAME_MAX, `must be at most ${INVITEE_NAME_MAX} characters`)
      .optional()
      .openapi({ description: "The invitee's name: shown to you in your list and offered on the sign-up form" }),
    email: emailInput.optional().openapi({ description: "The invitee's email, for your list; the link is not bound to it" }),
    phone: phoneInput
      .optional()
      .openapi({ description: "The invitee's phone: the WhatsApp and SMS links then open a chat with it" }),
    message: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(MESSAGE_MAX, `must be at most ${MESSAGE_MAX} characters`)
      .optional()
      .openapi({ description: "A personal note put before the share text; not stored" }),
  })
  .superRefine((input, context) => {
    if (input.taskId === undefined && input.projectId === undefined) {
      context.addIssue({ code: "custom", message: "give taskId or projectId", path: ["taskId"] });
    } else if (input.taskId !== undefined && input.projectId !== undefined) {
      context.addIssue({ code: "custom", message: "give either taskId or projectId, not both", path: ["projectId"] });
    }
    if (input.projectRole !== undefined && input.projectId === undefined) {
      context.addIssue({ code: "custom", message: "only a project invitation has a role", path: ["projectRole"] });
    }
  })
  .openapi("CreateInvitationInput", { description: "Exactly one of `taskId` and `projectId`" });
export type CreateInvitationInput = z.infer<typeof createInvitationInput>;

export const invitationIdParams = z.object({ id: z.uuid("must be an invitation id") });

export const tokenParams = z.object({
  token: z
    .string()
    .min(1, "must not be empty")
    .max(TOKEN_MAX, "is not an invitation token")
    .openapi({ description: "The token from the invitation link `/invite/{token}`" }),
});

const inviteeOutput = z
  .object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() })
  .openapi("Invitee", { description: "Who the invitation is meant for, as the inviter described them" });

export const invitationOutput = z
  .object({
    id: z.uuid(),
    taskId: z.uuid().nullable().openapi({ description: "Set for a task invitation" }),
    projectId: z.uuid().nullable().openapi({ description: "Set for a project invitation" }),
    projectRole: projectRoleSchema.nullable().openapi({ description: "The role a project invitation grants" }),
    status: statusSchema,
    invitee: inviteeOutput,
    expiresAt: z.iso.datetime().openapi({ description: `${INVITATION_TTL_DAYS} days after createdAt` }),
    createdAt: z.iso.datetime(),
    acceptedAt: z.iso.datetime().nullable(),
    acceptedBy: z.uuid().nullable().openapi({ description: "The account that accepted it" }),
    revokedAt: z.iso.datetime().nullable(),
  })
  .openapi("Invitation", { description: "An invitation as its inviter sees it. The token is shown once, when it is created." });
export type InvitationOutput = z.infer<typeof invitationOutput>;

export const invitationListOutput = z
  .object({ items: z.array(invitationOutput).openapi({ description: "Newest first" }) })
  .openapi("InvitationList");
export type InvitationListOutput = z.infer<typeof invitationListOutput>;

export const shareLinksOutput = z
  .object({
    whatsapp: z
      .string()
      .openapi({ description: "`https://wa.me/?text=…`, or `https://wa.me/<digits>?text=…` with the invitee's phone" }),
    telegram: z.string().openapi({ description: "`https://t.me/share/url?url=…&text=…`" }),
    sms: z.string().openapi({ description: "RFC 5724: `sms:?body=…`, or `sms:<+number>?body=…` (Android and most others)" }),
    smsIos: z
      .string()
      .openapi({ description: "The same for iOS and iPadOS, which expect `&`: `sms:&body=…`, `sms:<+number>&body=…`" }),
    copy: z.string().openapi({ description: "The invitation link itself, to copy" }),
  })
  .openapi("InvitationShareLinks", { description: "Every text is percent-encoded (UTF-8); each carries the invitation link" });
export type ShareLinksOutput = z.infer<typeof shareLinksOutput>;

export const createdInvitationOutput = z
  .object({
    invitation: invitationOutput,
    token: z.string().openapi({ description: "Shown this once: only its SHA-256 is stored" }),
    url: z.string().openapi({ description: "The landing page: `<APP_URL or this server>/invite/<token>`" }),
    text: z.string().openapi({ description: "The share text (who invites to what), in your language, with the link" }),
    links: shareLinksOutput,
  })
  .openapi("CreatedInvitation");
export type CreatedInvitationOutput = z.infer<typeof createdInvitationOutput>;

export const invitationPreviewOutput = z
  .object({
    status: z.literal("pending").openapi({ description: "Only a usable invitation is previewed (else 404 or 410)" }),
    inviterName: z.string(),
    kind: z.enum(["task", "project"]),
    taskTitle: z.string().nullable().openapi({ description: "The task's title, for a task invitation" }),
    projectName: z.string().nullable().openapi({ description: "The project's name, for a project invitation" }),
    projectRole: projectRoleSchema.nullable(),
    inviteeName: z.string().nullable().openapi({ description: "The name the inviter gave, to fill in the sign-up form" }),
    expiresAt: z.iso.datetime(),
  })
  .openapi("InvitationPreview", { description: "What the landing page shows; no ids, emails or phone numbers" });
export type InvitationPreviewOutput = z.infer<typeof invitationPreviewOutput>;

export const acceptedInvitationOutput = z
  .object({
    token: z
      .string()
      .openapi({ description: "JWT (HS256) of the account that accepted; send it as `Authorization: Bearer <token>`" }),
    user: userOutput,
    taskId: z.uuid().nullable().openapi({ description: "The task the user is now assigned to" }),
    projectId: z.uuid().nullable().openapi({ description: "The project the user is now a member of" }),
  })
  .openapi("AcceptedInvitation");
export type AcceptedInvitationOutput = z.infer<typeof acceptedInvitationOutput>;
