import type { NotificationChannel } from "../db/schema/notifications";

export type { NotificationChannel };

export const CHANNELS: readonly NotificationChannel[] = ["in_app", "push", "email"];

/**
 * What came of sending one message on one channel: the delivery log keeps it per channel, so that a user can
 * see why a reminder did not reach them (`failed` and `skipped` always say why).
 */
export type ChannelResult = { status: "sent" } | { status: "failed"; reason: string } | { status: "skipped"; reason: string };
