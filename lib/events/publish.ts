import type { Executor } from "../db/client";
import { insertEvents } from "./repo";
import type { DomainEvent } from "./types";

/**
 * Records domain events in the transaction of the change they describe: they exist exactly when the change
 * does, in commit order of their ids. The socket, notifications and webhooks (a later issue) read them from
 * there. This is the one call every module makes.
 */
export async function publish(database: Executor, ...events: DomainEvent[]): Promise<void> {
  await insertEvents(events, database);
}
