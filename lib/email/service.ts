import type { ChannelResult } from "../notifications/channel";

/**
 * The localized emails the service sends to its users, each with the values its template needs (times as ISO
 * strings; the template formats them in the user's locale and time zone).
 */
export type UserEmail =
  | { template: "reminder"; params: { taskId: string; taskTitle: string; dueAt: string; minutesBefore: number | null } }
  | { template: "daily_summary"; params: { date: string; dueToday: EmailTask[]; overdue: EmailTask[] } }
  | { template: "weekly_report"; params: { weekStart: string; completed: number; overdue: number; created: number; open: number } }
  | { template: "notification"; params: { title: string; body: string; url?: string } };

export interface EmailTask {
  id: string;
  title: string;
  dueAt: string | null;
}

/** Sends one of the templates to a user, in their language. (Being built: see issue 5, part 7.) */
export async function sendEmailToUser(_userId: string, _email: UserEmail): Promise<ChannelResult> {
  return { status: "skipped", reason: "email is not available yet" };
}
