import { tokenFromRequest, type Actor } from "../auth/actor";
import { registerInput, type RegisterInput } from "../accounts/schema";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { clientInfo } from "../api/client-info";
import { createRouter } from "../api/router";
import { requestHeader } from "../api/request-header";
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
  joinedOutput,
  receivedInvitationListOutput,
  tokenParams,
} from "./schema";
import {
  acceptInvitation,
  acceptReceivedInvitation,
  createInvitation,
  declineReceivedInvitation,
  getInvitation,
  getInvitationPreview,
  listInvitations,
  listReceivedInvitations,
  revokeInvitation,
} from "./service";

// The interface spec names `POST /invitations` and `POST /invite/:token/accept` at the site root too
// (lib/api/paths.ts); `GET /invite/:token` is the landing page (app/invite/[token]/page.tsx), not an API route.
const TAGS = ["Invitations"];
const ABOUT =
  "An invitation is how someone joins a task (as its assignee or a collaborator), a project, a family workspace or a " +
  "team (with the role it grants): nobody is added to these without accepting. It is a link, `/invite/{token}`, " +
  "that works with an account or without one; an invitation addressed to someone (adding a member, asking to " +
  "collaborate by email) also shows in that person's app (`GET /invitations/received`), where they accept or " +
  `decline it. It works once, for ${INVITATION_TTL_DAYS} days, until its inviter revokes it or the person declines it.`;
const NOT_FOUND = "No such invitation, or you did not send it (both answer the same)";
const GONE =
  "The invitation no longer works. `detail` starts with the reason, and `errors` names it at `/token`: " +
  "`invitation_used` (accepted already: a link works once), `invitation_revoked` (withdrawn by its inviter, or the " +
  "inviter can no longer grant what it grants), `invitation_declined` (the person it was sent to declined it), " +
  "`invitation_expired`.";
const UNKNOWN_TOKEN = "No invitation has this token";

const createRoute = apiRoute({
  method: "post",
  path: "/invitations",
  tags: TAGS,
  summary: "Invite someone to a task, a project, a family workspace or a team",
  description:
    `${ABOUT} Exactly one of \`taskId\`, \`projectId\`, \`familyId\` and \`teamId\`. A task invitation needs the ` +
    "`share` right on the task (its owner, assignees and collaborators): 404 when you cannot see the task, 403 when " +
    "you see it but may not share it; it makes the invitee `taskRole` (`assignee` by default, or `collaborator`). A " +
    "project or team invitation needs the owner or admin role there (404 when you are not a member, 403 for other " +
    "members) and grants `projectRole` (`admin`, `member` by default, or `viewer`) or `teamRole` (`admin`, `member` " +
    "by default). A family invitation needs a parent of that family workspace (404 for anyone outside it, 403 for a " +
    "child) and grants `familyRole` (`parent`, or `child` by default): a relative joins by link, with an account or " +
    "without one. The answer carries the token and the link once (only a hash is stored), and share links for " +
    "WhatsApp, Telegram, text messages and email whose text, in your language, says who invites to what; with the " +
    "invitee's `phone` the WhatsApp and SMS links open a chat with that number, with their `email` the email link is " +
    "addressed to it. `name`, `email` and `phone` describe whom you mean: the link is not bound to them.",
  access: "user",
  request: { body: jsonBody(createInvitationInput) },
  responses: {
    201: jsonContent(createdInvitationOutput, "The invitation, its link and share links"),
    403: problemResponse("You see the task but may not share it; or you do not manage the project, team or family"),
    404: problemResponse("No such task, project, team or family workspace, or you cannot see it (both answer the same)"),
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
    "`name`, `locale`, `timeZone`) to accept with an account (201), or send no body with a valid bearer token or " +
    "session cookie to accept as that user (200). Registration data whose email already has an account accepts " +
    "with that account when the password is its own, and is refused like a wrong sign-in (401) when it is not: the " +
    "answer never says that an address is taken. In one step the token is used up (it works once, also when two " +
    "people try at the same moment), and the user is assigned to the task (or made a collaborator) or joins the " +
    "project, family workspace or team with the invitation's role. Answers a JWT for the user and sets the session " +
    "cookie (accepted signed in: the session the request is made with). The link is not bound to the invitee's " +
    "email. Counted against the strict rate limit.",
  access: "optional",
  limit: "strict",
  request: {
    params: tokenParams,
    body: { required: false, content: { "application/json": { schema: registerInput } } },
  },
  responses: {
    200: jsonContent(acceptedInvitationOutput, "Accepted as the signed-in user"),
    201: jsonContent(acceptedInvitationOutput, "Account created and invitation accepted"),
    401: problemResponse(
      "No registration data and no valid session: sign in or register; or the email has an account and this is not its password",
    ),
    404: problemResponse(UNKNOWN_TOKEN),
    409: problemResponse(
      "You are on the task or a member of the project, family workspace or team already; you belong to another " +
        "family workspace (leave it first); or you sent this invitation (the link stays usable for someone else)",
    ),
    410: problemResponse(GONE),
  },
});

const receivedRoute = apiRoute({
  method: "get",
  path: "/invitations/received",
  tags: TAGS,
  summary: "Invitations for you",
  description:
    `${ABOUT} The pending invitations addressed to your account or your email (by someone adding you to a family ` +
    "workspace, a team or a project, or asking you to work on a task), newest first: who invites you to what, with " +
    "which role. Accept or decline each here; its link works as well.",
  access: "user",
  responses: { 200: jsonContent(receivedInvitationListOutput, "Pending invitations for you") },
});

const acceptReceivedRoute = apiRoute({
  method: "post",
  path: "/invitations/{id}/accept",
  tags: TAGS,
  summary: "Accept an invitation addressed to you",
  description:
    "Joins what the invitation is to, with its role, as `POST /invite/{token}/accept` does signed in. Only for an " +
    "invitation addressed to your account or email; any other is a 404.",
  access: "user",
  limit: "strict",
  request: { params: invitationIdParams },
  responses: {
    200: jsonContent(joinedOutput, "Joined"),
    404: problemResponse(NOT_FOUND),
    409: problemResponse("You are in already, or you belong to another family workspace (leave it first)"),
    410: problemResponse(GONE),
  },
});

const declineRoute = apiRoute({
  method: "post",
  path: "/invitations/{id}/decline",
  tags: TAGS,
  summary: "Decline an invitation addressed to you",
  description:
    "Its link stops working (410 `invitation_declined`), and its inviter sees it `declined`. Only for an invitation " +
    "addressed to your account or email; any other is a 404.",
  access: "user",
  request: { params: invitationIdParams },
  responses: { 204: { description: "Declined" }, 404: problemResponse(NOT_FOUND), 410: problemResponse(GONE) },
});

export const invitationsRoutes = createRouter()
  .openapi(receivedRoute, async (c) => c.json(await listReceivedInvitations(c.var.actor), 200))
  .openapi(acceptReceivedRoute, async (c) => c.json(await acceptReceivedInvitation(c.var.actor, c.req.valid("param").id), 200))
  .openapi(declineRoute, async (c) => {
    await declineReceivedInvitation(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
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
    const currentToken = actor ? tokenFromRequest(requestHeader(c, "authorization"), requestHeader(c, "cookie")) : null;
    const { created, ...accepted } = await acceptInvitation(
      c.req.valid("param").token,
      registration,
      actor,
      clientInfo(c),
      currentToken,
    );
    setSessionCookie(c, accepted);
    return created ? c.json(accepted, 201) : c.json(accepted, 200);
  });
