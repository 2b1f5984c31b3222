import { onEvent } from "../events/publish";
import { fanOutEvent } from "./service";

/**
 * The `webhooks` consumer of the event log: queues a webhook delivery for every endpoint that subscribed to an
 * event its owner may see (the event's audience), and makes each first attempt at once, in the background;
 * retries are the `webhook-deliveries` job's (server/jobs.ts). server.ts registers it at start; the answer
 * unregisters it.
 */
export function registerWebhookHandlers(): () => void {
  return onEvent("webhooks", fanOutEvent);
}
