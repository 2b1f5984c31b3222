import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { AppError } from "@/lib/api/app-error";
import { complete, completeStream } from "@/lib/ai/provider";
import { startChatCompletionsServer, type ChatCompletionsServer } from "./chat-completions-server";
import { registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The AI endpoint client against a local server speaking the chat-completions protocol: whole and streamed
 * answers, the deadline, the endpoint's error answers (a 503 problem for the caller), and the daily budget.
 */
let ai: ChatCompletionsServer;
let server: TestServer;
let userId: string;

beforeAll(async () => {
  ai = await startChatCompletionsServer();
  server = await startTestServer({
    AI_BASE_URL: ai.url,
    ALLOW_PRIVATE_NETWORK_TARGETS: "ai", // the endpoint listens on 127.0.0.1, as a local Ollama would
    AI_API_KEY: "sk-test",
    AI_MODEL: "tiny-model",
    AI_TIMEOUT_MS: "400",
    AI_DAILY_REQUESTS: "3",
  });
});
afterAll(async () => {
  await server?.close();
  await ai?.close();
});
afterEach(() => {
  ai.delayMs = 0;
  ai.fail = null;
  ai.breakStreamAfter = null;
  ai.requests.length = 0;
});

async function freshUser(): Promise<string> {
  userId = (await registerUser(server)).user.id;
  return userId;
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

async function thrown(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("the OpenAI-compatible endpoint", () => {
  test("answers with the configured model and key, and says who answered", async () => {
    const user = await freshUser();
    const answer = await complete({ userId: user, purpose: "chat", messages: [{ role: "user", content: "Hello there" }] });
    expect(answer).toEqual({ text: "You said: Hello there", answeredBy: { provider: "openai-compatible", model: "tiny-model" } });
    expect(ai.requests).toHaveLength(1);
    expect(ai.requests[0]).toMatchObject({ model: "tiny-model", authorization: "Bearer sk-test", stream: false });
  });

  test("streams an answer piece by piece", async () => {
    const user = await freshUser();
    ai.reply = () => "one two three four";
    const stream = await completeStream({ userId: user, purpose: "chat", messages: [{ role: "user", content: "count" }] });
    const pieces: string[] = [];
    for await (const piece of stream.chunks) pieces.push(piece);
    expect(pieces.join("")).toBe("one two three four");
    expect(pieces.length).toBeGreaterThan(1);
    expect(ai.requests[0]?.stream).toBe(true);
    ai.reply = (request) => `You said: ${request.messages.at(-1)?.content}`;
  });

  test("a slow endpoint is cut off at the deadline with a 503, and the request is given back", async () => {
    const user = await freshUser();
    ai.delayMs = 1500;
    const error = await thrown(complete({ userId: user, purpose: "chat", messages: [{ role: "user", content: "slow" }] }));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/did not answer within/);
    const [usage] = await server.sql<{ requests: number }>("select requests from ai_usage where user_id = $1", [user]);
    expect(usage?.requests).toBe(0);
  });

  test("a stream that stalls midway fails with a 503", async () => {
    const user = await freshUser();
    ai.reply = () => Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    ai.delayMs = 300; // 30 ms between chunks: 40 chunks take longer than the 400 ms deadline
    const stream = await completeStream({ userId: user, purpose: "chat", messages: [{ role: "user", content: "long" }] }).catch(
      (e) => e,
    );
    const error = stream instanceof AppError ? stream : await thrown(collect(stream.chunks));
    expect(error.status).toBe(503);
    ai.reply = (request) => `You said: ${request.messages.at(-1)?.content}`;
  });

  test("an error answer of the endpoint becomes a 503 that quotes it", async () => {
    const user = await freshUser();
    ai.fail = { status: 500, message: "model overloaded" };
    const error = await thrown(complete({ userId: user, purpose: "chat", messages: [{ role: "user", content: "hi" }] }));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/500.*model overloaded/);
  });

  test("a dropped stream becomes a 503", async () => {
    const user = await freshUser();
    ai.reply = () => "a b c d e f";
    ai.breakStreamAfter = 2;
    const stream = await completeStream({ userId: user, purpose: "chat", messages: [{ role: "user", content: "x" }] });
    const error = await thrown(collect(stream.chunks));
    expect(error.status).toBe(503);
    ai.reply = (request) => `You said: ${request.messages.at(-1)?.content}`;
  });

  test("each user has a daily budget of requests; failures do not count", async () => {
    const user = await freshUser();
    const ask = () => complete({ userId: user, purpose: "chat", messages: [{ role: "user", content: "again" }] });
    ai.fail = { status: 502, message: "bad gateway" };
    await thrown(ask());
    ai.fail = null;
    for (let i = 0; i < 3; i++) await ask();
    const error = await thrown(ask());
    expect(error.status).toBe(429);
    expect(error.extra.retryAfterSeconds).toBeGreaterThan(0);
    expect(ai.requests).toHaveLength(4); // the refused one never reached the endpoint

    // Another user's budget is their own.
    const other = await freshUser();
    await expect(
      complete({ userId: other, purpose: "chat", messages: [{ role: "user", content: "mine" }] }),
    ).resolves.toMatchObject({ text: "You said: mine" });
  });
});
