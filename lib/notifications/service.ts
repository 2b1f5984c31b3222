import type { Executor } from "../db/client";

export interface NewNotification {
  /** `reminder`, `due`, `daily_summary`, `weekly_report`, `collaboration.requested`, `webhook.disabled`... */
  kind: string;
  title: string;
  body: string;
  taskId?: string | null;
  data?: Record<string, unknown>;
}

/**
 * Stores an in-app notification for a user and announces it on the socket (`notification.created`).
 * (Being built: see issue 5, part 3.)
 */
export async function notifyUser(_userId: string, _notification: NewNotification, _database?: Executor): Promise<{ id: string }> {
  throw new Error("in-app notifications are not built yet");
}
