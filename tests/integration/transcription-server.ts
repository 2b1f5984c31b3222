/**
 * A local server that speaks OpenAI's audio transcription protocol (`POST /v1/audio/transcriptions`, multipart with
 * `file` and `model`; answers `{ "text": ... }`), as OpenAI and whisper.cpp / faster-whisper servers do. Errors are
 * `{ "error": { message, type, code } }` with an HTTP error status. Tests set what it answers (`reply`), make it slow
 * (`delayMs`) or fail (`fail`), and read what it received (`requests`).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export interface TranscriptionRequest {
  model: string;
  filename: string;
  type: string;
  bytes: Buffer;
  authorization: string | undefined;
}

export interface TranscriptionServer {
  /** The base URL to give as AI_BASE_URL (ends in /v1). */
  url: string;
  requests: TranscriptionRequest[];
  reply: (request: TranscriptionRequest) => string;
  delayMs: number;
  fail: { status: number; message: string } | null;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startTranscriptionServer(): Promise<TranscriptionServer> {
  const state: Omit<TranscriptionServer, "url" | "close"> = {
    requests: [],
    reply: (request) => `A recording of ${request.bytes.length} bytes`,
    delayMs: 0,
    fail: null,
  };
  const answer = (response: import("node:http").ServerResponse, status: number, body: unknown) => {
    if (response.destroyed) return;
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/v1/audio/transcriptions") {
      answer(response, 404, { error: { message: `Unknown path ${request.url}`, type: "invalid_request_error", code: null } });
      return;
    }
    const form = await new Request("http://local/", {
      method: "POST",
      headers: request.headers as Record<string, string>,
      body: Readable.toWeb(request) as ReadableStream,
      duplex: "half",
    } as RequestInit).formData();
    const file = form.get("file");
    const model = form.get("model");
    if (!(file instanceof File) || typeof model !== "string") {
      answer(response, 400, { error: { message: "file and model are required", type: "invalid_request_error", code: null } });
      return;
    }
    const received: TranscriptionRequest = {
      model,
      filename: file.name,
      type: file.type,
      bytes: Buffer.from(await file.arrayBuffer()),
      authorization: request.headers.authorization,
    };
    state.requests.push(received);
    await sleep(state.delayMs);
    if (state.fail) {
      answer(response, state.fail.status, { error: { message: state.fail.message, type: "server_error", code: null } });
      return;
    }
    answer(response, 200, { text: state.reply(received) });
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
