import { z } from "@hono/zod-openapi";
import { emailInput, userOutput } from "../accounts/schema";
import { refuseDisguise } from "../display-text";

/** An invitation can be accepted for this long after it was created (interface spec, section 8). */
export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 3600 * 1000;
export const INVITATION_STATUSES = ["pending", "accepted", "declined", "revoked", "expired"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
/** What an invitation is to: a task, a project, a family workspace or a team (user group). */
export const INVITATION_KINDS = ["task", "project", "family", "team"] as const;
export type InvitationKind = (typeof INVITATION_KINDS)[number];
/** What a task invitation makes the invitee. */
export const INVITATION_TASK_ROLES = ["assignee", "collaborator"] as const;
export type InvitationTaskRole = (typeof INVITATION_TASK_ROLES)[number];
/** The roles a project invitation may grant: never `owner` (ownership is handed over inside the project). */
export const INVITATION_PROJECT_ROLES = ["admin", "member", "viewer"] as const;
export type InvitationProjectRole = (typeof INVITATION_PROJECT_ROLES)[number];
export const INVITATION_FAMILY_ROLES = ["parent", "child"] as const;
export type InvitationFamilyRole = (typeof INVITATION_FAMILY_ROLES)[number];
/** The roles a team invitation may grant: never `owner`. */
export const INVITATION_TEAM_ROLES = ["admin", "member"] as const;
export type InvitationTeamRole = (typeof INVITATION_TEAM_ROLES)[number];
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
    "`pending`: the link works; `accepted`: used (a link works once); `declined`: the person it is addressed to " +
    "said no in the app; `revoked`: withdrawn by the inviter; " +
    `\`expired\`: not accepted within ${INVITATION_TTL_DAYS} days.`,
});
const kindSchema = z.enum(INVITATION_KINDS).openapi({ description: "What the invitation is to" });
const taskRoleSchema = z.enum(INVITATION_TASK_ROLES, { message: "must be assignee or collaborator" }).openapi({
  description: "What a task invitation makes the invitee: `assignee` (default) or `collaborator`",
});
const familyRoleSchema = z.enum(INVITATION_FAMILY_ROLES, { message: "must be parent or child" }).openapi({
  description: "The role the invitee gets in the family workspace: `parent` or `child` (default)",
});
const teamRoleSchema = z.enum(INVITATION_TEAM_ROLES, { message: "must be admin or member" }).openapi({
  description: "The role the invitee gets in the team: `admin` or `member` (default). Never `owner`.",
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
    taskId: z.uuid("must be a task id").optional().openapi({ description: "The task to invite to" }),
    taskRole: taskRoleSchema.optional(),
    projectId: z.uuid("must be a project id").optional().openapi({ description: "The project to invite to" }),
    projectRole: projectRoleSchema.optional(),
    familyId: z.uuid("must be a family workspace id").optional().openapi({ description: "Your family workspace" }),
    familyRole: familyRoleSchema.optional(),
    teamId: z.uuid("must be a team id").optional().openapi({ description: "The team (user group) to invite to" }),
    teamRole: teamRoleSchema.optional(),
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(INVITEE_NAME_MAX, `must be at most ${INVITEE_NAME_MAX} characters`)
      .superRefine(refuseDisguise)
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
    const targets = (["taskId", "projectId", "familyId", "teamId"] as const).filter((field) => input[field] !== undefined);
    if (targets.length === 0) {
      context.addIssue({ code: "custom", message: "give taskId, projectId, familyId or teamId", path: ["taskId"] });
    } else if (targets.length > 1) {
      context.addIssue({ code: "custom", message: "give only one of taskId, projectId, familyId, teamId", path: [targets[1]!] });
    }
    for (const [role, target] of [
      ["taskRole", "taskId"],
      ["projectRole", "projectId"],
      ["familyRole", "familyId"],
      ["teamRole", "teamId"],
    ] as const) {
      if (input[role] !== undefined && input[target] === undefined) {
        context.addIssue({ code: "custom", message: `only goes with ${target}`, path: [role] });
      }
    }
  })
  .openapi("CreateInvitationInput", { description: "Exactly one of `taskId`, `projectId`, `familyId` and `teamId`" });
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
    kind: kindSchema,
    taskId: z.uuid().nullable().openapi({ description: "Set for a task invitation" }),
    taskRole: taskRoleSchema.nullable().openapi({ description: "What a task invitation makes the invitee" }),
    projectId: z.uuid().nullable().openapi({ description: "Set for a project invitation" }),
    projectRole: projectRoleSchema.nullable().openapi({ description: "The role a project invitation grants" }),
    familyId: z.uuid().nullable().openapi({ description: "Set for a family invitation" }),
    familyRole: familyRoleSchema.nullable().openapi({ description: "The role a family invitation grants" }),
    teamId: z.uuid().nullable().openapi({ description: "Set for a team invitation" }),
    teamRole: teamRoleSchema.nullable().openapi({ description: "The role a team invitation grants" }),
    status: statusSchema,
    invitee: inviteeOutput,
    expiresAt: z.iso.datetime().openapi({ description: `${INVITATION_TTL_DAYS} days after createdAt` }),
    createdAt: z.iso.datetime(),
    acceptedAt: z.iso.datetime().nullable(),
    acceptedBy: z.uuid().nullable().openapi({ description: "The account that accepted it" }),
    revokedAt: z.iso.datetime().nullable(),
    declinedAt: z.iso.datetime().nullable(),
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
    email: z.string().openapi({
      description: "`mailto:<the invitee's email, when given>?subject=…&body=…` (RFC 6068): the invitation by email",
    }),
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
    kind: kindSchema,
    taskTitle: z.string().nullable().openapi({ description: "The task's title, for a task invitation" }),
    taskRole: taskRoleSchema.nullable(),
    projectName: z.string().nullable().openapi({ description: "The project's name, for a project invitation" }),
    projectRole: projectRoleSchema.nullable(),
    familyName: z.string().nullable().openapi({ description: "The family workspace's name, for a family invitation" }),
    familyRole: familyRoleSchema.nullable(),
    teamName: z.string().nullable().openapi({ description: "The team's name, for a team invitation" }),
    teamRole: teamRoleSchema.nullable(),
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
    taskId: z.uuid().nullable().openapi({ description: "The task the user is now assigned to (or a collaborator on)" }),
    projectId: z.uuid().nullable().openapi({ description: "The project the user is now a member of" }),
    familyId: z.uuid().nullable().openapi({ description: "The family workspace the user is now a member of" }),
    teamId: z.uuid().nullable().openapi({ description: "The team the user is now a member of" }),
  })
  .openapi("AcceptedInvitation");
export type AcceptedInvitationOutput = z.infer<typeof acceptedInvitationOutput>;

/** What joining took the user into (the accepted invitation's target). */
export const joinedOutput = acceptedInvitationOutput
  .pick({ taskId: true, projectId: true, familyId: true, teamId: true })
  .openapi("JoinedByInvitation");
export type JoinedOutput = z.infer<typeof joinedOutput>;

/** An invitation addressed to the signed-in user (by their account or email), as they see it in the app. */
export const receivedInvitationOutput = invitationPreviewOutput
  .omit({ status: true, inviteeName: true })
  .extend({
    id: z.uuid(),
    createdAt: z.iso.datetime(),
  })
  .openapi("ReceivedInvitation", { description: "An invitation for you: accept it or decline it" });
export type ReceivedInvitationOutput = z.infer<typeof receivedInvitationOutput>;

export const receivedInvitationListOutput = z
  .object({ items: z.array(receivedInvitationOutput).openapi({ description: "Pending ones, newest first" }) })
  .openapi("ReceivedInvitationList");
export type ReceivedInvitationListOutput = z.infer<typeof receivedInvitationListOutput>;

/** Someone named by a body that adds a member or asks to collaborate, when they must accept an invitation first. */
export interface Invitee {
  userId?: string;
  email?: string;
  name?: string;
  /** A personal note put before the share text. */
  message?: string;
}
