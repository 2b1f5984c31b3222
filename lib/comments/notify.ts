import { message } from "../notifications/service";

/*
 * The texts of comment notifications, in the notified person's language (the Notifications namespace of
 * messages/<locale>.json): "{name} mentioned you" when a comment names them, "{name} commented" on a task they own or
 * are assigned to; the body is the start of the comment.
 */

export type CommentNotice = "mentioned" | "commented";

const EXCERPT_MAX = 200;

export function noticeTitle(locale: string, notice: CommentNotice, values: { name: string; task: string }): string {
  return message(locale, notice, values);
}

/** The start of a comment, on one line, for a notification's body. */
export function excerpt(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > EXCERPT_MAX ? `${line.slice(0, EXCERPT_MAX - 1)}…` : line;
}
