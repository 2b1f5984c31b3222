import { cachedAnswer, type CachedGet } from "../api/cached-get";
import type { Actor } from "../auth/actor";
import { taskAnswerCache } from "./list-cache";
import { boardQuery, listTasksQuery, type BoardOutput, type ListTasksQuery } from "./schema";
import { boardAnswer, listTasks, type BoardRequest } from "./service";

/*
 * The cacheable task routes (lib/api/cached-get.ts): their answers are kept per user and query string for 30 seconds
 * (lib/tasks/list-cache.ts), dropped whenever a task the user sees changes, and answered by server.ts before routing.
 * The pages read them through the same cache.
 */

/** `GET /tasks`. */
export const taskListAnswers: CachedGet<ListTasksQuery> = {
  path: "/tasks",
  cache: taskAnswerCache,
  query: listTasksQuery,
  read: listTasks,
};

/** `GET /board`. */
export const boardAnswers: CachedGet<BoardRequest> = {
  path: "/board",
  cache: taskAnswerCache,
  query: boardQuery,
  read: boardAnswer,
};

/** The board as a page shows it (the cards as objects): the answer `GET /board` gives for the same filters. */
export async function getBoard(actor: Actor, request: BoardRequest) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request)) if (value !== undefined) query.set(name, String(value));
  const body = await cachedAnswer(boardAnswers, actor, query.toString());
  return JSON.parse(body.toString("utf8")) as BoardOutput;
}
