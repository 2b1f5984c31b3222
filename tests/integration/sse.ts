/** One Server-Sent Event: its name and its JSON data. */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

/** The events of a whole `text/event-stream` body (each `event:` name with its `data:` lines as JSON). */
export function readEvents(body: string): ServerSentEvent[] {
  return body
    .split(/\n\n+/)
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice("event: ".length) ?? "message";
      const data = lines
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice("data: ".length))
        .join("\n");
      return { event, data: JSON.parse(data) as unknown };
    });
}
