import { apiRoute, jsonContent, problemResponse } from "../../api/route";
import { createRouter } from "../../api/router";
import { clearSessionCookie } from "../../api/session-cookie";
import { sessionIdParams, sessionListOutput } from "./schema";
import { endSession, listSessions } from "./service";

const TAGS = ["Account"];
const ABOUT =
  "A session is one sign-in: a device or client that signed in (with a password, a passkey, an external account, by " +
  "registering or accepting an invitation). Its token works until JWT_TTL_SECONDS after signing in, unless it ends first.";

const listRoute = apiRoute({
  method: "get",
  path: "/auth/sessions",
  tags: TAGS,
  summary: "Your sessions",
  description:
    `${ABOUT} Lists the ones that still work, the most recently used first, each with its device and browser (from ` +
    "the User-Agent), the address it signed in from, when it signed in and was last used; `current` marks the one " +
    "this request is made with.",
  access: "user",
  responses: { 200: jsonContent(sessionListOutput, "Your sessions that still work") },
});

const endRoute = apiRoute({
  method: "delete",
  path: "/auth/sessions/{id}",
  tags: TAGS,
  summary: "End one of your sessions",
  description:
    `${ABOUT} Its token stops working at once, on every server process (and its open socket is closed on its next ` +
    "check). Ending the current one signs you out here (the session cookie is cleared). Another user's session, or " +
    "one that ended already: 404. Needs a sign-in (not a personal access token).",
  access: "user",
  sessionOnly: true,
  request: { params: sessionIdParams },
  responses: { 204: { description: "Ended" }, 404: problemResponse("No session of yours has this id (or it ended already)") },
});

export const sessionsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listSessions(c.var.actor), 200))
  .openapi(endRoute, async (c) => {
    const { current } = await endSession(c.var.actor, c.req.valid("param").id);
    if (current) clearSessionCookie(c);
    return c.body(null, 204);
  });
