import type OpenAI from "openai";
import { AppError } from "../api/app-error";
import { nowDate } from "../clock";
import { config } from "../config";
import { log } from "../log";
import { OutboundError, outboundFetch } from "../net/client";
import { addTokens, returnDailyRequest, takeDailyRequest } from "./repo";

/*
 * The AI endpoint: any server that speaks OpenAI's chat-completions protocol (OpenAI itself, or a local Ollama,
 * vLLM or llama.cpp server), through the openai package. Without AI_BASE_URL nothing here is called: each feature
 * has a built-in, rule-based assistant that answers from the user's own data.
 *
 * Bounded: every call goes through the outbound client (lib/net/client.ts: a private or loopback address, such as a
 * local Ollama, only where ALLOW_PRIVATE_NETWORK_TARGETS allows it for `ai`; no redirects; answers up to
 * MAX_ANSWER_BYTES), has a deadline (AI_TIMEOUT_MS, also while a stream is running), no automatic retries, and a
 * per-user budget of requests per UTC day (AI_DAILY_REQUESTS; a request that fails is given back). A failing
 * endpoint is a 503 problem saying so, never a 500. Prompts are built by the features from the caller's own data
 * only: nothing here adds anything to them.
 */

export type AiPurpose = "chat" | "study_plan" | "briefing" | "weekly_report" | "activity_analysis" | "transcription";

export interface AiMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface AiRequest {
  /** Whose budget pays for the request; their data is the only data in `messages`. */
  userId: string;
  purpose: AiPurpose;
  messages: AiMessage[];
  maxTokens?: number;
  /** Ask for a JSON object answer (`response_format: json_object`); the caller still validates it. */
  json?: boolean;
  /** Aborts the request early (the client went away). */
  signal?: AbortSignal;
}

/** Which assistant answered; every AI answer of the API carries it. */
export type AnsweredBy = { provider: "built-in" } | { provider: "openai-compatible"; model: string };

export const BUILT_IN: AnsweredBy = { provider: "built-in" };

export interface AiCompletion {
  text: string;
  answeredBy: AnsweredBy;
}

export interface AiStream {
  answeredBy: AnsweredBy;
  /** The answer's text as it arrives. Throws an `unavailable` AppError if the endpoint fails midway. */
  chunks: AsyncIterable<string>;
}

export function aiEndpointConfigured(): boolean {
  return config().AI_BASE_URL !== undefined;
}

/** The largest answer read from the endpoint (a transcript or a streamed chat answer is far smaller). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The SDK's fetch: the outbound client, its deadline a second after ours (`deadline`), so that ours says why. */
const aiFetch = outboundFetch("ai", { timeoutMs: () => config().AI_TIMEOUT_MS + 1000, maxBytes: MAX_ANSWER_BYTES });

/** The openai package (about 14 MB of memory): loaded with the first request to the endpoint, not at start. */
type Sdk = typeof import("openai");
let sdk: Sdk | null = null;
let client: { key: string; openai: OpenAI } | null = null;

async function openai(): Promise<{ openai: OpenAI; sdk: Sdk }> {
  sdk ??= await import("openai");
  const { AI_BASE_URL, AI_API_KEY, AI_TIMEOUT_MS } = config();
  const key = `${AI_BASE_URL}|${AI_API_KEY ?? ""}|${AI_TIMEOUT_MS}`;
  if (client?.key !== key) {
    // Local servers take any key; the package insists on one.
    client = {
      key,
      openai: new sdk.default({
        baseURL: AI_BASE_URL,
        apiKey: AI_API_KEY ?? "none",
        timeout: AI_TIMEOUT_MS,
        maxRetries: 0,
        fetch: aiFetch,
      }),
    };
  }
  return { openai: client.openai, sdk };
}

/** The caller gave up (not our deadline): the package's abort, passed on as it is. */
function abortedByCaller(error: unknown, timedOut: boolean): boolean {
  return sdk !== null && error instanceof sdk.APIUserAbortError && !timedOut;
}

const utcDay = (instant: Date) => instant.toISOString().slice(0, 10);

function secondsUntilUtcMidnight(instant: Date): number {
  const midnight = Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - instant.getTime()) / 1000));
}

async function takeBudget(userId: string): Promise<string> {
  const now = nowDate();
  const day = utcDay(now);
  const limit = config().AI_DAILY_REQUESTS;
  if (!(await takeDailyRequest(userId, day, limit))) {
    throw new AppError(
      "rate_limited",
      `You have used today's ${limit} requests to the AI service; the budget renews at midnight UTC`,
      {
        retryAfterSeconds: secondsUntilUtcMidnight(now),
      },
    );
  }
  return day;
}

/** What went wrong with the endpoint, as the 503 the API answers (the endpoint's own words, shortened). */
function unavailable(error: unknown, timedOut: boolean): AppError {
  const seconds = Math.round(config().AI_TIMEOUT_MS / 1000);
  if (timedOut || (sdk && error instanceof sdk.APIConnectionTimeoutError)) {
    return new AppError("unavailable", `The AI service did not answer within ${seconds} s`, { retryAfterSeconds: 30 });
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const detail =
    sdk && error instanceof sdk.APIError && error.status !== undefined
      ? `answered ${error.status}: ${error.message}`
      : cause instanceof OutboundError && cause.reason === "refused"
        ? `address is refused: ${cause.message}`
        : "could not be reached";
  return new AppError("unavailable", `The AI service ${detail.slice(0, 300)}`, { retryAfterSeconds: 30 });
}

/** The caller's signal and the deadline, as one signal; `timedOut()` tells which fired. */
function deadline(signal: AbortSignal | undefined) {
  const timer = AbortSignal.timeout(config().AI_TIMEOUT_MS);
  return { signal: signal ? AbortSignal.any([signal, timer]) : timer, timedOut: () => timer.aborted };
}

function body(request: AiRequest) {
  return {
    model: config().AI_MODEL,
    messages: request.messages,
    max_tokens: request.maxTokens,
    ...(request.json ? { response_format: { type: "json_object" as const } } : {}),
  };
}

/** One whole answer from the configured endpoint. */
export async function complete(request: AiRequest): Promise<AiCompletion> {
  const day = await takeBudget(request.userId);
  const loaded = await openai(); // before the deadline starts: loading the package is not the endpoint's time
  const { signal, timedOut } = deadline(request.signal);
  const model = config().AI_MODEL;
  try {
    const answer = await loaded.openai.chat.completions.create({ ...body(request), stream: false }, { signal });
    const text = answer.choices[0]?.message?.content ?? "";
    if (answer.usage?.total_tokens) await addTokens(request.userId, day, answer.usage.total_tokens);
    return { text, answeredBy: { provider: "openai-compatible", model: answer.model || model } };
  } catch (error) {
    await returnDailyRequest(request.userId, day);
    if (abortedByCaller(error, timedOut())) throw error;
    log.warn("AI endpoint failed", { purpose: request.purpose, error: error instanceof Error ? error.message : String(error) });
    throw unavailable(error, timedOut());
  }
}

/** A streamed answer: resolves once the endpoint has started answering, then yields its text as it comes. */
export async function completeStream(request: AiRequest): Promise<AiStream> {
  const day = await takeBudget(request.userId);
  const loaded = await openai();
  const { signal, timedOut } = deadline(request.signal);
  const model = config().AI_MODEL;
  let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
  try {
    stream = await loaded.openai.chat.completions.create({ ...body(request), stream: true }, { signal });
  } catch (error) {
    await returnDailyRequest(request.userId, day);
    if (abortedByCaller(error, timedOut())) throw error;
    log.warn("AI endpoint failed", { purpose: request.purpose, error: error instanceof Error ? error.message : String(error) });
    throw unavailable(error, timedOut());
  }
  async function* chunks(): AsyncGenerator<string> {
    try {
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) yield text;
      }
    } catch (error) {
      if (abortedByCaller(error, timedOut())) throw error;
      throw unavailable(error, timedOut());
    }
    // The package ends an aborted stream quietly: past the deadline, the answer is cut short, which is a failure.
    if (timedOut()) throw unavailable(null, true);
  }
  return { answeredBy: { provider: "openai-compatible", model }, chunks: chunks() };
}

export interface TranscriptionRequest {
  /** Whose budget pays for the request: the uploader's. */
  userId: string;
  /** The recording (a Buffer, or the stored file as a stream). */
  content: Buffer | NodeJS.ReadableStream;
  filename: string;
  contentType: string;
}

/**
 * The text of a recording, from the endpoint's OpenAI-compatible `POST /audio/transcriptions` (multipart, model
 * AI_TRANSCRIPTION_MODEL), under the same deadline and daily budget as every other AI request.
 */
export async function transcribe(request: TranscriptionRequest): Promise<AiCompletion> {
  const day = await takeBudget(request.userId);
  const loaded = await openai();
  const { signal, timedOut } = deadline(undefined);
  const model = config().AI_TRANSCRIPTION_MODEL;
  try {
    const file = await loaded.sdk.toFile(request.content as Buffer, request.filename, { type: request.contentType });
    const answer = await loaded.openai.audio.transcriptions.create({ file, model }, { signal });
    return { text: answer.text ?? "", answeredBy: { provider: "openai-compatible", model } };
  } catch (error) {
    await returnDailyRequest(request.userId, day);
    log.warn("AI endpoint failed", { purpose: "transcription", error: error instanceof Error ? error.message : String(error) });
    throw unavailable(error, timedOut());
  }
}
