import type { Server } from "socket.io";
import { registerNotificationHandlers } from "../notifications/events";
import { deliverEventsToSockets } from "./events";
import { registerWebhookHandlers } from "../webhooks/events";

/**
 * Everything that reacts to committed domain events in this process: the socket, in-app notifications and
 * webhooks. server.ts calls it once; the answer unregisters them all.
 */
export function registerEventHandlers(io: Server): () => void {
  const stops = [deliverEventsToSockets(io), registerNotificationHandlers(), registerWebhookHandlers()];
  return () => stops.forEach((stop) => stop());
}
