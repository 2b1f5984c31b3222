/**
 * A local server that speaks OpenAI's chat-completions protocol (`POST /v1/chat/completions`), as OpenAI, Ollama,
 * vLLM and llama.cpp do: a JSON `chat.completion` answer, or with `stream: true` Server-Sent Events of
 * `chat.completion.chunk` objects ending with `data: [DONE]`; errors as `{ "error": { message, type, code } }`
 * with an HTTP error status. Tests set what it answers (`reply`), make it slow (`delayMs`) or fail (`fail`),
 * and read every request it received (`requests`) to check what a prompt held.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
  response_format?: { type: string };
  /** The Authorization header it came with. */
  authorization: string | undefined;
}

export interface ChatCompletionsServer {
  /** The base URL to give as AI_BASE_URL (ends in /v1). */
  url: string;
  requests: ChatRequest[];
  /** What the assistant answers to a request (default: a fixed sentence quoting the last user message). */
  reply: (request: ChatRequest) => string;
  /** Waits this long before answering (and between streamed chunks, a tenth of it). */
  delayMs: number;
  /** Answers every request with this HTTP status and error object instead; null answers normally. */
  fail: { status: number; message: string } | null;
  /** With a stream: sends this many chunks, then drops the connection. */
  breakStreamAfter: number | null;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  const state: Omit<ChatCompletionsServer, "url" | "close"> = {
    requests: [],
    reply: (request) => `You said: ${request.messages.filter((m) => m.role === "user").at(-1)?.content ?? ""}`,
    delayMs: 0,
    fail: null,
    breakStreamAfter: null,
  };
  let counter = 0;

  const server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      response.writeHead(404, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify({ error: { message: `Unknown path ${request.url}`, type: "invalid_request_error", code: null } }),
      );
      return;
    }
    const body = (await readJson(request)) as Omit<ChatRequest, "authorization">;
    const chat: ChatRequest = { ...body, authorization: request.headers.authorization };
    state.requests.push(chat);
    if (!body.model || !Array.isArray(body.messages) || body.messages.length === 0) {
      response.writeHead(400, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify({ error: { message: "model and messages are required", type: "invalid_request_error", code: null } }),
      );
      return;
    }
    await sleep(state.delayMs);
    if (response.destroyed) return;
    if (state.fail) {
      response.writeHead(state.fail.status, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ error: { message: state.fail.message, type: "server_error", code: null } }));
      return;
    }
    const text = state.reply(chat);
    const id = `chatcmpl-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: text.split(/\s+/).length, total_tokens: 10 + text.split(/\s+/).length },
        }),
      );
      return;
    }
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    const send = (delta: Record<string, unknown>, finish: string | null) =>
      response.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: "assistant", content: "" }, null);
    const pieces = text.match(/\S+\s*/g) ?? [];
    for (const [index, piece] of pieces.entries()) {
      if (state.breakStreamAfter !== null && index >= state.breakStreamAfter) {
        response.destroy();
        return;
      }
      send({ content: piece }, null);
      await sleep(state.delayMs / 10);
    }
    send({}, "stop");
    response.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
