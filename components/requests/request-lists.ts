import type { CollaborationRequestOutput } from "@/lib/collaboration/schema";

/*
 * How the pages sort a user's collaboration requests (plain functions: the server pages and the browser use them
 * alike).
 */

/** How many requests of each box the pages read: the newest, which is where anything pending is. */
export const REQUEST_LIST_LIMIT = 100;

export type Box = "incoming" | "outgoing";

/** Which side of a request the user is on. A claim names the claimer on both sides: it is theirs, outgoing. */
export function boxOf(request: CollaborationRequestOutput, meId: string): Box {
  return request.recipient.id === meId && request.requester.id !== meId ? "incoming" : "outgoing";
}

/** Pending requests first, then the rest; newest first within each. */
export function pendingFirst(requests: readonly CollaborationRequestOutput[]): CollaborationRequestOutput[] {
  const rank = (request: CollaborationRequestOutput) => (request.state === "pending" ? 0 : 1);
  return [...requests].sort((a, b) => rank(a) - rank(b) || b.createdAt.localeCompare(a.createdAt));
}

/** A task's requests among the user's incoming and outgoing ones, each once (a claim is in both boxes). */
export function requestsOfTask(taskId: string, ...boxes: readonly CollaborationRequestOutput[][]): CollaborationRequestOutput[] {
  const ofTask = boxes.flat().filter((request) => request.taskId === taskId);
  return [...new Map(ofTask.map((request) => [request.id, request])).values()];
}
