/** Queues a webhook delivery for every endpoint that subscribed to an event its owner may see. (Being built.) */
export function registerWebhookHandlers(): () => void {
  return () => {};
}
