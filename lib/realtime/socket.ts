import type { Server as HttpServer, IncomingMessage } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { Server } from "socket.io";
import { actorFromToken, tokenFromRequest, type Actor } from "../auth/actor";
import { config } from "../config";
import { publisherConnection, redisChannel, subscriberConnection } from "../redis/client";
import { replayMissedEvents } from "./events";
import { userRoom } from "./rooms";

export const SOCKET_PATH = "/ws";

/**
 * Browsers must come from our own origin (APP_URL, or the host they asked for); clients that send no
 * Origin (mobile apps, servers) are let through to the token check.
 */
function originAllowed(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  const appUrl = config().APP_URL;
  if (appUrl && new URL(appUrl).origin === origin) return true;
  const host = request.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * socket.io on /ws. A connection needs a valid session token (handshake `auth.token`, an
 * `Authorization: Bearer` header or the session cookie) and joins its user's room. With REDIS_URL the
 * Redis adapter carries room broadcasts between processes.
 */
export function attachSocket(httpServer: HttpServer): { io: Server; close(): Promise<void> } {
  const io = new Server(httpServer, {
    path: SOCKET_PATH,
    serveClient: false,
    destroyUpgrade: false,
    allowRequest: (request, callback) => callback(originAllowed(request) ? null : "origin not allowed", originAllowed(request)),
  });

  // With Redis, broadcasts reach the sockets of every process. While Redis is down each process still reaches its
  // own sockets; what other processes sent meanwhile is lost to live delivery, so when the subscription is back
  // every socket here is told to `resync` (clients reload what they show).
  const publisher = publisherConnection("socket.io publish");
  const subscriber = subscriberConnection("socket.io subscribe");
  if (publisher && subscriber) {
    io.adapter(createAdapter(publisher, subscriber, { key: redisChannel("io") }));
    let interrupted = false;
    subscriber.on("close", () => (interrupted = true));
    subscriber.on("ready", () => {
      if (!interrupted) return;
      interrupted = false;
      io.local.emit("resync", { reason: "live updates were interrupted" });
    });
  }

  io.use(async (socket, next) => {
    const handshake = socket.handshake;
    const given = typeof handshake.auth?.token === "string" ? handshake.auth.token : null;
    const token = given ?? tokenFromRequest(handshake.headers.authorization, handshake.headers.cookie);
    try {
      const actor = await actorFromToken(token);
      if (!actor) return next(Object.assign(new Error("unauthenticated"), { data: { code: "unauthenticated" } }));
      socket.data.actor = actor satisfies Actor;
      await socket.join(userRoom(actor.userId));
      next();
    } catch (error) {
      next(error instanceof Error ? error : new Error(String(error)));
    }
  });

  // Once connected (it has joined its room, so what happens from now on arrives live), what it missed comes
  // from the event log.
  io.on("connection", (socket) => {
    void replayMissedEvents(socket, (socket.data.actor as Actor).userId, socket.handshake.auth?.cursor);
  });

  return {
    io,
    async close() {
      // socket.io's close also unsubscribes the adapter, which waits for Redis: bounded, Redis may be down.
      await Promise.race([io.close(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    },
  };
}
