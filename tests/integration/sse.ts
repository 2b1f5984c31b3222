import { parseEvent, type ServerSentEvent } from "../../components/assistant/server-sent-events";

/** The events of a whole `text/event-stream` body. */
export function readEvents(body: string): ServerSentEvent[] {
  return body
    .split(/\n\n+/)
    .map(parseEvent)
    .filter((event): event is ServerSentEvent => event !== null);
}
