import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { ApiEnv } from "../api/env";
import { problemBody, toAppError } from "../api/problem";
import { requestHeader } from "../api/request-header";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { recordServerError } from "../errors/service";
import { taskOutput } from "../tasks/schema";
import {
  actionIdParams,
  briefingOutput,
  briefingQuery,
  chatActionOutput,
  chatAnswerOutput,
  chatInput,
  chatMessageListOutput,
  clearChatOutput,
  listChatMessagesQuery,
} from "./schema";
import {
  chat,
  chatStream,
  clearMessages,
  confirmAction,
  dismissAction,
  getBriefing,
  listMessages,
  type ChatEvent,
} from "./service";

const ASSISTANT = ["Assistant"];

const WHICH_ASSISTANT =
  "Without an AI endpoint configured (AI_BASE_URL), the built-in assistant answers: rule-based, from your own " +
  "tasks and goals. It understands what is due today, tomorrow, on Friday or this week, what is overdue, how many " +
  "tasks are open, what to do next, how your goals stand, “add task … tomorrow” and “move … to Friday” in English " +
  "and Czech, and the questions and adding a task (today, tomorrow, the day after) in Russian, Ukrainian and " +
  "Hebrew; anything else gets an overview. With one, the endpoint answers from a prompt holding your " +
  "open tasks, their due times and your active goals, and nobody else's data. `answeredBy` says which answered. " +
  "Your tasks: those you own, are assigned to or collaborate on.";

const STREAM =
  "Send `Accept: text/event-stream` for a stream of Server-Sent Events instead of one JSON answer (the web page " +
  "does): `answeredBy` ({ answeredBy, fallbackReason }) first, then `delta` ({ text }) pieces of the answer, " +
  "`actions` ({ items }: the proposed actions, as stored) and `done` (the stored exchange, as the JSON answer). " +
  "A refused request (400, 429, or an endpoint that cannot start answering: 503) is an ordinary problem answer. " +
  "If the endpoint fails midway, the stream ends with an `error` event carrying the problem and `stored: false`: " +
  "neither your message nor the partial answer is stored, so send it again. When an answer has been streamed " +
  "and another `answeredBy` event follows, the endpoint's answer was empty and the built-in one replaces it.";

const ACTIONS =
  "The assistant may propose actions: `create_task` (a title and a due time, or none) and `reschedule_task` (one " +
  "of your open tasks and a new due time). A day without a time means 17:00 that day (23:59 once 17:00 has " +
  "passed), and a rescheduled task keeps its time of day. They are stored as `proposed` with the answer and do " +
  "nothing until you confirm them (`POST /chat/actions/{id}/confirm`) or dismiss them. The endpoint proposes them " +
  'in a fenced ```spolu-actions block at the end of its answer (a JSON object `{ "actions": [...] }`), which is ' +
  "never shown; an action with a missing title, an unreadable date or a task id not among your open tasks is " +
  "dropped, and at most 5 are kept.";

const NO_ACTION = "No such proposed action of yours";
const DECIDED = "The action was confirmed or dismissed already: each is decided once";

const chatRoute = apiRoute({
  method: "post",
  path: "/chat",
  tags: ASSISTANT,
  summary: "Ask the assistant",
  description:
    `Answers your message with your task context and stores both in your conversation (\`GET /chat/messages\`). ${WHICH_ASSISTANT} ` +
    "Asking the chat is asking the AI: when the endpoint is down or times out (AI_TIMEOUT_MS) the answer is a 503 " +
    "problem, when your daily budget of AI requests (AI_DAILY_REQUESTS) is used up a 429, and nothing is stored. " +
    `An empty endpoint answer is replaced by the built-in one, with \`fallbackReason\` saying so. ${ACTIONS} ${STREAM} ` +
    "`lang` chooses the language of the answer (default: your profile locale).",
  access: "user",
  module: "ai",
  request: { body: jsonBody(chatInput) },
  responses: {
    200: {
      description: "The stored exchange (JSON), or the answer as Server-Sent Events",
      content: {
        "application/json": { schema: chatAnswerOutput },
        "text/event-stream": {
          schema: z.string().openapi({ description: "Events answeredBy, delta, actions, done, or error" }),
          example:
            'event: answeredBy\ndata: {"answeredBy":{"provider":"built-in"},"fallbackReason":null}\n\n' +
            'event: delta\ndata: {"text":"You have two tasks due today."}\n\n' +
            'event: actions\ndata: {"items":[]}\n\n' +
            "event: done\ndata: {…the whole answer, as the JSON answer gives it…}\n\n",
        },
      },
    },
    503: problemResponse("The AI endpoint is down, failed or did not answer in time; nothing is stored"),
  },
});

const listMessagesRoute = apiRoute({
  method: "get",
  path: "/chat/messages",
  tags: ASSISTANT,
  summary: "Your conversation with the assistant",
  description:
    "Your messages and the assistant's answers, newest first, `limit` (1-100, default 50) at a time; pass " +
    "`nextCursor` as `before` for older ones. Each answer carries the actions it proposed and their state.",
  access: "user",
  module: "ai",
  request: { query: listChatMessagesQuery },
  responses: { 200: jsonContent(chatMessageListOutput, "A page of your conversation") },
});

const clearMessagesRoute = apiRoute({
  method: "delete",
  path: "/chat/messages",
  tags: ASSISTANT,
  summary: "Clear your conversation",
  description:
    "Deletes all your messages and the assistant's answers, with their actions still proposed (confirmed ones leave their tasks as they are).",
  access: "user",
  module: "ai",
  responses: { 200: jsonContent(clearChatOutput, "How many messages were deleted") },
});

const confirmRoute = apiRoute({
  method: "post",
  path: "/chat/actions/{id}/confirm",
  tags: ASSISTANT,
  summary: "Do what the assistant proposed",
  description:
    "Creates the task, or gives the task its new due time, through the tasks API with your permissions, and " +
    "answers the action (with `taskId`) and the task. A task you cannot see or may not change is a 404; a " +
    "refused change (a 400, say) leaves the action proposed. Each action is decided once: 409 afterwards.",
  access: "user",
  module: "ai",
  request: { params: actionIdParams },
  responses: {
    200: jsonContent(z.object({ action: chatActionOutput, task: taskOutput }).openapi("ConfirmedChatAction"), "Done"),
    404: problemResponse(NO_ACTION),
    409: problemResponse(DECIDED),
  },
});

const dismissRoute = apiRoute({
  method: "post",
  path: "/chat/actions/{id}/dismiss",
  tags: ASSISTANT,
  summary: "Turn down what the assistant proposed",
  description: "Marks the action dismissed; nothing else changes. Each action is decided once: 409 afterwards.",
  access: "user",
  module: "ai",
  request: { params: actionIdParams },
  responses: {
    200: jsonContent(chatActionOutput, "The dismissed action"),
    404: problemResponse(NO_ACTION),
    409: problemResponse(DECIDED),
  },
});

const briefingRoute = apiRoute({
  method: "get",
  path: "/briefing",
  tags: ASSISTANT,
  summary: "Your daily briefing",
  description:
    "For a day (`date`, default today in your time zone): your open tasks due that day, those overdue (due " +
    "before the day began, or before now for a day still to come), your active goals with their progress (the " +
    "share of linked tasks done when tasks are linked, cancelled ones left out; else the value set by hand), and " +
    "the spaced-repetition cards due by the end of the day, those due earlier included (`reviewsDue` counts them, " +
    "`reviews` names the first 5, the longest due first; while the `spaced-repetition` module is off both are empty " +
    "and `reviewsAvailable` is false). `narrative`: a few sentences about the day from the AI endpoint when one is " +
    "configured, else from the built-in assistant. The briefing is made for you rather than asked of the AI: when " +
    "the endpoint fails, times out, has used up your budget or answers nothing, the built-in narrative stands in " +
    "and `fallbackReason` says why (never a 503). `lang` chooses its language (default: your profile locale).",
  access: "user",
  module: "ai",
  request: { query: briefingQuery },
  responses: { 200: jsonContent(briefingOutput, "Your briefing") },
});

function wantsStream(c: Context<ApiEnv>): boolean {
  return (requestHeader(c, "accept") ?? "").includes("text/event-stream");
}

/** Sends a chat answer's events; a failure midway ends the stream with an `error` event carrying the problem. */
function sendEvents(c: Context<ApiEnv>, events: AsyncGenerator<ChatEvent>): Response {
  return streamSSE(c, async (sse) => {
    try {
      for await (const { event, data } of events) await sse.writeSSE({ event, data: JSON.stringify(data) });
    } catch (error) {
      // The client went away: there is nobody to tell, and nothing went wrong on our side.
      if (c.req.raw.signal.aborted) return;
      const problem = toAppError(error);
      if (problem.status >= 500) {
        await recordServerError(error, {
          method: c.req.method,
          route: c.req.routePath,
          status: problem.status,
          requestId: c.get("requestId"),
          userId: c.var.actor.userId,
        });
      }
      await sse.writeSSE({ event: "error", data: JSON.stringify({ ...problemBody(c, problem), stored: false }) });
    }
  });
}

export const assistantRoutes = createRouter()
  .openapi(chatRoute, async (c) => {
    const input = c.req.valid("json");
    if (!wantsStream(c)) return c.json(await chat(c.var.actor, input), 200);
    return sendEvents(c, await chatStream(c.var.actor, input, c.req.raw.signal)) as never;
  })
  .openapi(listMessagesRoute, async (c) => c.json(await listMessages(c.var.actor, c.req.valid("query")), 200))
  .openapi(clearMessagesRoute, async (c) => c.json(await clearMessages(c.var.actor), 200))
  .openapi(confirmRoute, async (c) => c.json(await confirmAction(c.var.actor, c.req.valid("param").id), 200))
  .openapi(dismissRoute, async (c) => c.json(await dismissAction(c.var.actor, c.req.valid("param").id), 200))
  .openapi(briefingRoute, async (c) => c.json(await getBriefing(c.var.actor, c.req.valid("query")), 200));
