/*
 * Server-Sent Events read from a fetch body (POST /chat streams its answer; EventSource only does GET). Each
 * event is an `event:` name and `data:` lines holding JSON, separated by a blank line.
 */

export interface ServerSentEvent {
  event: string;
  data: unknown;
}

/** One event block (`event: delta\ndata: {...}`), or null for a block without data (a comment, a keep-alive). */
export function parseEvent(block: string): ServerSentEvent | null {
  let event = "message";
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith("event:")) event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  return data.length ? { event, data: JSON.parse(data.join("\n")) as unknown } : null;
}

/** The events of a stream as they arrive. */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) yield event;
    }
  }
  const last = parseEvent(buffer);
  if (last) yield last;
}
