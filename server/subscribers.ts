import type { Server } from "socket.io";
import { registerGamificationHandlers } from "../lib/gamification/events";
import { registerNotificationHandlers } from "../lib/notifications/events";
import { deliverEventsToSockets } from "../lib/realtime/events";
import { registerWebhookHandlers } from "../lib/webhooks/events";

/**
 * Everything that reacts to committed domain events: the socket, in-app notifications (and reminder settings of
 * new occurrences), webhooks and gamification, each a durable consumer of the event log (lib/events/consumers.ts).
 * server.ts calls it once; the answer unregisters them all.
 */
export function registerEventHandlers(io: Server): () => void {
  const stops = [
    deliverEventsToSockets(io),
    registerNotificationHandlers(),
    registerWebhookHandlers(),
    registerGamificationHandlers(),
  ];
  return () => stops.forEach((stop) => stop());
}
