import { localeOrDefault } from "../notifications/service";

/*
 * The texts of comment notifications, in the notified person's language: "{name} mentioned you" when a comment names
 * them, "{name} commented" on a task they own or are assigned to; the body is the start of the comment.
 */

const TEXTS = {
  en: { mentioned: "{name} mentioned you: {task}", commented: "{name} commented: {task}" },
  cs: { mentioned: "{name} vás zmínil(a): {task}", commented: "{name} přidal(a) komentář: {task}" },
  he: { mentioned: "{name} הזכיר/ה אותך: {task}", commented: "{name} הגיב/ה: {task}" },
  ru: { mentioned: "{name} упомянул(а) вас: {task}", commented: "{name} оставил(а) комментарий: {task}" },
  ua: { mentioned: "{name} згадав(ла) вас: {task}", commented: "{name} залишив(ла) коментар: {task}" },
} as const;

export type CommentNotice = keyof (typeof TEXTS)["en"];

const EXCERPT_MAX = 200;

export function noticeTitle(locale: string, notice: CommentNotice, values: { name: string; task: string }): string {
  return TEXTS[localeOrDefault(locale)][notice].replace("{name}", () => values.name).replace("{task}", () => values.task);
}

/** The start of a comment, on one line, for a notification's body. */
export function excerpt(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > EXCERPT_MAX ? `${line.slice(0, EXCERPT_MAX - 1)}…` : line;
}
