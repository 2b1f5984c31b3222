import type { Actor } from "../auth/actor";
import { registerInput, type RegisterInput } from "../accounts/schema";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { setSessionCookie } from "../api/session-cookie";
import {
  acceptedInvitationOutput,
  createdInvitationOutput,
  createInvitationInput,
  INVITATION_TTL_DAYS,
  invitationIdParams,
  invitationListOutput,
  invitationOutput,
  invitationPreviewOutput,
  tokenParams,
} from "./schema";
import {
  acceptInvitation,
  createInvitation,
  getInvitation,
  getInvitationPreview,
  listInvitations,
  revokeInvitation,
} from "./service";

// The interface spec names `POST /invitations` and `POST /invite/:token/accept` at the site root too
// (lib/api/paths.ts); `GET /invite/:token` is the landing page (app/invite/[token]/page.tsx), not an API route.
const TAGS = ["Invitations"];
const ABOUT =
  "An invitation is a link, `/invite/{token}`, that lets someone (with an account or not) join a task as its " +
  `assignee or a project as a member. It works once, for ${INVITATION_TTL_DAYS} days, until its inviter revokes it.`;
const NOT_FOUND = "No such invitation, or you did not send it (both answer the same)";
const GONE =
  "The invitation no longer works. `detail` starts with the reason, and `errors` names it at `/token`: " +
  "`invitation_used` (accepted already: a link works once), `invitation_revoked` (withdrawn by its inviter, or the " +
  "inviter can no longer grant what it grants), `invitation_expired`.";
const UNKNOWN_TOKEN = "No invitation has this token";

const createRoute = apiRoute({
  method: "post",
  path: "/invitations",
  tags: TAGS,
  summary: "Invite someone to a task or a project",
  description:
    `${ABOUT} Exactly one of \`taskId\` and \`projectId\`. A task invitation needs the \`share\` right on the task ` +
    "(its owner, assignees and collaborators): 404 when you cannot see the task, 403 when you see it but may not " +
    "share it. A project invitation needs the owner or admin role in the project: 404 when you are not a member, " +
    "403 for members and viewers; it grants `projectRole` (`admin`, `member` by default, or `viewer`). The answer " +
    "carries the token and the link once (only a hash is stored), and share links for WhatsApp, Telegram and text " +
    "messages whose text, in your language, says who invites to what; with the invitee's `phone` the WhatsApp and " +
    "SMS links open a chat with that number. `name`, `email` and `phone` describe whom you mean: the link is not " +
    "bound to them.",
  access: "user",
  request: { body: jsonBody(createInvitationInput) },
  responses: {
    201: jsonContent(createdInvitationOutput, "The invitation, its link and share links"),
    403: problemResponse("You see the task but may not share it, or you are a member or viewer of the project"),
    404: problemResponse("No such task or project, or you cannot see it (both answer the same)"),
  },
});

const listRoute = apiRoute({
  method: "get",
  path: "/invitations",
  tags: TAGS,
  summary: "The invitations you sent",
  description: `${ABOUT} Newest first, each with its status (pending, accepted, revoked, expired); never the token.`,
  access: "user",
  responses: { 200: jsonContent(invitationListOutput, "Your invitations") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/invitations/{id}",
  tags: TAGS,
  summary: "One invitation you sent",
  description: "Only its inviter sees an invitation; to anyone else it does not exist (404). Never the token.",
  access: "user",
  request: { params: invitationIdParams },
  responses: { 200: jsonContent(invitationOutput, "The invitation"), 404: problemResponse(NOT_FOUND) },
});

const revokeRoute = apiRoute({
  method: "delete",
  path: "/invitations/{id}",
  tags: TAGS,
  summary: "Revoke an invitation",
  description:
    "Only its inviter (anyone else gets 404). Its link stops working at once (410 `invitation_revoked`). An " +
    "accepted invitation cannot be revoked (409); revoking a revoked or expired one changes nothing.",
  access: "user",
  request: { params: invitationIdParams },
  responses: {
    204: { description: "Revoked" },
    404: problemResponse(NOT_FOUND),
    409: problemResponse("The invitation was accepted already"),
  },
});

const previewRoute = apiRoute({
  method: "get",
  path: "/invitations/preview/{token}",
  tags: TAGS,
  summary: "What an invitation link offers (public)",
  description:
    "No sign-in: the token is the permission. Answers who invites (their name), to which task (its title) or " +
    "project (its name and the role it grants), and until when; no ids, emails or phone numbers. Counted against " +
    "the strict rate limit, so that tokens cannot be guessed.",
  access: "public",
  limit: "strict",
  request: { params: tokenParams },
  responses: {
    200: jsonContent(invitationPreviewOutput, "A usable invitation"),
    404: problemResponse(UNKNOWN_TOKEN),
    410: problemResponse(GONE),
  },
});

const acceptRoute = apiRoute({
  method: "post",
  path: "/invite/{token}/accept",
  tags: TAGS,
  summary: "Accept an invitation (public)",
  description:
    "No prior sign-in needed. Either send registration data (as `POST /auth/register`: `email`, `password`, " +
    "`name`, `locale`, `timeZone`) to create an account and accept with it (201), or send no body with a valid " +
    "bearer token or session cookie to accept as that user (200). In one step the token is used up (it works " +
    "once, also when two people try at the same moment), and the user is assigned to the task or joins the " +
    "project with the invitation's role. Answers a JWT for the user and sets the session cookie. The link is not " +
    "bound to the invitee's email. Counted against the strict rate limit.",
  access: "optional",
  limit: "strict",
  request: {
    params: tokenParams,
    body: { required: false, content: { "application/json": { schema: registerInput } } },
  },
  responses: {
    200: jsonContent(acceptedInvitationOutput, "Accepted as the signed-in user"),
    201: jsonContent(acceptedInvitationOutput, "Account created and invitation accepted"),
    401: problemResponse("No registration data and no valid session: sign in or register"),
    404: problemResponse(UNKNOWN_TOKEN),
    409: problemResponse(
      "An account with this email exists (sign in and accept signed in); or you are assigned to the task or a " +
        "member of the project already, or you sent this invitation (the link stays usable for someone else)",
    ),
    410: problemResponse(GONE),
  },
});

export const invitationsRoutes = createRouter()
  .openapi(createRoute, async (c) =>
    c.json(await createInvitation(c.var.actor, c.req.valid("json"), new URL(c.req.url).origin), 201),
  )
  .openapi(listRoute, async (c) => c.json(await listInvitations(c.var.actor), 200))
  .openapi(getRoute, async (c) => c.json(await getInvitation(c.var.actor, c.req.valid("param").id), 200))
  .openapi(revokeRoute, async (c) => {
    await revokeInvitation(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(previewRoute, async (c) => c.json(await getInvitationPreview(c.req.valid("param").token), 200))
  .openapi(acceptRoute, async (c) => {
    // Without a JSON body the validator hands over `{}`: accepting as the signed-in user.
    const body: Partial<RegisterInput> = c.req.valid("json");
    const registration = body.email !== undefined ? (body as RegisterInput) : null;
    const actor = (c.var.actor as Actor | undefined) ?? null;
    const { created, ...accepted } = await acceptInvitation(c.req.valid("param").token, registration, actor);
    setSessionCookie(c, accepted);
    return created ? c.json(accepted, 201) : c.json(accepted, 200);
  });
