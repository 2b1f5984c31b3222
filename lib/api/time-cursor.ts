import { invalidField } from "./app-error";

/*
 * The page cursor of a list kept in (time, id) order (notifications, requests, webhook deliveries, the email log,
 * the work queue, points history): base64url of `[ISO time, id]`. A cursor that does not decode is a 400 naming
 * `/cursor`.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeTimeCursor(at: string | Date, id: string): string {
  return Buffer.from(JSON.stringify([typeof at === "string" ? at : at.toISOString(), id])).toString("base64url");
}

const badCursor = () => invalidField("query", "/cursor", "is not a cursor of this list; start again without it");

export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString());
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw badCursor();
  const [at, id] = parsed as unknown[];
  if (typeof at !== "string" || Number.isNaN(Date.parse(at))) throw badCursor();
  if (typeof id !== "string" || !UUID.test(id)) throw badCursor();
  return { at: new Date(at), id };
}
