import type { ChannelResult } from "../notifications/channel";

/** A push message as the service worker shows it. */
export interface PushMessage {
  title: string;
  body: string;
  /** The page to open when the notification is clicked. */
  url?: string;
  /** Notifications with the same tag replace each other on the device. */
  tag?: string;
  data?: Record<string, unknown>;
}

/** Sends a push message to every device the user subscribed. (Being built: see issue 5, part 6.) */
export async function sendPushToUser(_userId: string, _message: PushMessage): Promise<ChannelResult> {
  return { status: "skipped", reason: "web push is not available yet" };
}
