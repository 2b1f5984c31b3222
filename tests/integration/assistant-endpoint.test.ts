import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { briefingOutput, chatAnswerOutput } from "../../lib/assistant/schema";
import { weeklyReportOutput } from "../../lib/notifications/schema";
import { runWeeklyReports } from "../../lib/notifications/summaries";
import { startChatCompletionsServer, type ChatCompletionsServer, type ChatRequest } from "./chat-completions-server";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";
import { readEvents } from "./sse";

/*
 * The assistant with an AI endpoint configured, against a local server speaking the chat-completions protocol:
 * chat as JSON and as a stream, proposed actions read from the answer, a timeout, an error answer and a stream
 * dropped midway (503 problem / SSE error event, nothing stored), a used-up budget (429); the briefing and the
 * weekly report, which fall back to the built-in narrative instead of failing. Every prompt holds the user's own
 * tasks and goals and never a word of another user's.
 */

const PRAGUE = "Europe/Prague";
// Thursday 2026-02-12, 11:00 in Prague (UTC+1).
const NOW = "2026-02-12T10:00:00Z";
const TIMEOUT_MS = 600;

let ai: ChatCompletionsServer;
let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;
let other: User;
let othersTaskId: string;
const defaultReply = (request: ChatRequest) => `You said: ${request.messages.at(-1)?.content ?? ""}`;

function setClock(instant: string) {
  resetClock();
  advanceClock(Date.parse(instant) - Date.now());
}

beforeAll(async () => {
  ai = await startChatCompletionsServer();
  server = await startTestServer({
    AI_BASE_URL: ai.url,
    ALLOW_PRIVATE_NETWORK_TARGETS: "ai", // the endpoint listens on 127.0.0.1, as a local Ollama would
    AI_MODEL: "tiny-model",
    AI_TIMEOUT_MS: String(TIMEOUT_MS),
    AI_DAILY_REQUESTS: "50",
  });
  setClock(NOW);
  other = await registerUser(server, { timeZone: PRAGUE });
  othersTaskId = (
    await createTask(server, other.token, { title: "Zebra secret of the other user", dueAt: "2026-02-12T15:00:00Z" })
  ).id;
  await addGoal(other, "Zebra goal of the other user", 90);
});
afterEach(() => {
  setClock(NOW);
  ai.reply = defaultReply;
  ai.delayMs = 0;
  ai.fail = null;
  ai.breakStreamAfter = null;
  ai.requests.length = 0;
});
afterAll(async () => {
  resetClock();
  await server?.close();
  await ai?.close();
});

const api = (path: string, options?: Parameters<TestServer["request"]>[1]) => server.request(`/api/v1${path}`, options);
const stream = { Accept: "text/event-stream" };

async function addGoal(user: User, title: string, progress: number, targetDate: string | null = null): Promise<string> {
  const [goal] = await server.sql<{ id: string }>(
    "insert into goals (owner_id, title, progress, target_date, created_at) values ($1, $2, $3, $4, $5) returning id",
    [user.user.id, title, progress, targetDate, NOW],
  );
  return goal!.id;
}

/** A user with two tasks and a goal (`goalTitle`: a title no other test's user has, to find this user's prompt). */
async function seededUser(goalTitle = "Learn Czech") {
  const user = await registerUser(server, { timeZone: PRAGUE });
  const rent = await createTask(server, user.token, { title: "Pay the rent", dueAt: "2026-02-12T14:00:00Z", priority: "high" });
  await createTask(server, user.token, { title: "Call Jana", dueAt: "2026-02-11T08:00:00Z" });
  await addGoal(user, goalTitle, 40, "2026-06-01");
  return { user, rent: rent.id };
}

/** Everything the endpoint was sent, as one text. */
const everythingSent = () => JSON.stringify(ai.requests.map((request) => request.messages));

function expectNothingOfTheOtherUser() {
  const sent = everythingSent();
  expect(sent).not.toContain("Zebra");
  expect(sent).not.toContain(othersTaskId);
  expect(sent).not.toContain(other.email);
}

async function storedMessages(user: User): Promise<string[]> {
  return (await api("/chat/messages", { token: user.token })).body.items.map((item: { content: string }) => item.content);
}

describe("POST /chat through the endpoint", () => {
  test("the prompt holds the user's own tasks, due times and goals; the answer and its valid actions are stored", async () => {
    const { user, rent } = await seededUser();
    const actions = [
      { kind: "create_task", title: "Buy oat milk", dueAt: "2026-02-13" },
      { kind: "reschedule_task", taskId: rent, dueAt: "2026-02-16T09:00:00+01:00" },
      { kind: "reschedule_task", taskId: othersTaskId, dueAt: "2026-02-16" }, // not theirs: dropped
      { kind: "create_task", title: "" }, // no title: dropped
    ];
    ai.reply = () => `Start with Pay the rent, it is due at 15:00.\n\`\`\`spolu-actions\n${JSON.stringify({ actions })}\n\`\`\``;
    const response = await api("/chat", { token: user.token, json: { message: "What should I do today?" } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { answer } = expectShape(chatAnswerOutput, response.body);
    expect(answer).toMatchObject({
      content: "Start with Pay the rent, it is due at 15:00.",
      answeredBy: { provider: "openai-compatible", model: "tiny-model" },
      fallbackReason: null,
    });
    expect(answer.actions).toEqual([
      expect.objectContaining({
        kind: "create_task",
        title: "Buy oat milk",
        dueAt: "2026-02-13T16:00:00.000Z",
        state: "proposed",
      }),
      expect.objectContaining({
        kind: "reschedule_task",
        title: "Pay the rent",
        taskId: rent,
        dueAt: "2026-02-16T08:00:00.000Z",
      }),
    ]);

    const [request] = ai.requests;
    expect(request).toMatchObject({ model: "tiny-model", stream: false });
    const system = request!.messages[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain(
      '"title":"Pay the rent","status":"todo","priority":"high","due":"2026-02-12T15:00+01:00","overdue":false',
    );
    expect(system.content).toContain('"title":"Call Jana"');
    expect(system.content).toContain('"title":"Learn Czech","status":"active","progress":40,"targetDate":"2026-06-01"');
    expect(system.content).toContain("Europe/Prague");
    expect(request!.messages.at(-1)).toEqual({ role: "user", content: "What should I do today?" });
    expectNothingOfTheOtherUser();

    const confirmed = await api(`/chat/actions/${answer.actions[0]!.id}/confirm`, { method: "POST", token: user.token });
    expect(confirmed.body.task).toMatchObject({ title: "Buy oat milk", ownerId: user.user.id });
  });

  test("the conversation so far goes with the next question", async () => {
    const { user } = await seededUser();
    await api("/chat", { token: user.token, json: { message: "first question" } });
    await api("/chat", { token: user.token, json: { message: "second question" } });
    expect(ai.requests[1]!.messages.slice(1)).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "You said: first question" },
      { role: "user", content: "second question" },
    ]);
  });

  test("streamed: the text comes in pieces without the actions block, then the actions and the stored exchange", async () => {
    const { user } = await seededUser();
    ai.reply = () =>
      `Sure, I can add that task for you right away.\n\`\`\`spolu-actions\n{"actions":[{"kind":"create_task","title":"Water plants","dueAt":null}]}\n\`\`\``;
    const response = await api("/chat", { token: user.token, json: { message: "add watering" }, headers: stream });
    expect(response.status).toBe(200);
    const events = readEvents(response.body as string);
    expect(events[0]).toEqual({
      event: "answeredBy",
      data: { answeredBy: { provider: "openai-compatible", model: "tiny-model" }, fallbackReason: null },
    });
    const deltas = events.filter((event) => event.event === "delta").map((event) => (event.data as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("").trim()).toBe("Sure, I can add that task for you right away.");
    expect(deltas.join("")).not.toContain("spolu-actions");
    expect(events.at(-2)).toMatchObject({
      event: "actions",
      data: { items: [{ kind: "create_task", title: "Water plants", dueAt: null }] },
    });
    const done = expectShape(chatAnswerOutput, events.at(-1)!.data);
    expect(done.answer.content).toBe("Sure, I can add that task for you right away.");
    expect(ai.requests[0]!.stream).toBe(true);
    expectNothingOfTheOtherUser();
  });

  test("a timeout is a 503 problem, as JSON or before a stream begins; nothing is stored", async () => {
    const { user } = await seededUser();
    ai.delayMs = TIMEOUT_MS * 3;
    const json = expectProblem(await api("/chat", { token: user.token, json: { message: "slow?" } }), 503, "unavailable");
    expect(json.detail).toMatch(/did not answer within/);
    expectProblem(await api("/chat", { token: user.token, json: { message: "slow?" }, headers: stream }), 503, "unavailable");
    expect(await storedMessages(user)).toEqual([]);
  });

  test("an error answer of the endpoint is a 503 problem quoting it; nothing is stored", async () => {
    const { user } = await seededUser();
    ai.fail = { status: 500, message: "model overloaded" };
    const json = expectProblem(await api("/chat", { token: user.token, json: { message: "hi" } }), 503, "unavailable");
    expect(json.detail).toMatch(/500.*model overloaded/);
    expectProblem(await api("/chat", { token: user.token, json: { message: "hi" }, headers: stream }), 503, "unavailable");
    expect(await storedMessages(user)).toEqual([]);
  });

  test("a stream dropped midway ends with an error event (a 503 problem, stored: false); nothing is stored", async () => {
    const { user } = await seededUser();
    ai.reply = () => "one two three four five six seven eight";
    ai.breakStreamAfter = 3;
    const response = await api("/chat", { token: user.token, json: { message: "count for me" }, headers: stream });
    expect(response.status).toBe(200);
    const events = readEvents(response.body as string);
    expect(events.some((event) => event.event === "delta")).toBe(true);
    expect(events.at(-1)).toMatchObject({
      event: "error",
      data: { status: 503, code: "unavailable", stored: false, type: "urn:spolu:problem:unavailable" },
    });
    expect(events.map((event) => event.event)).not.toContain("done");
    expect(await storedMessages(user)).toEqual([]);
  });

  test("a used-up daily budget is a 429 with Retry-After, and the endpoint is not asked", async () => {
    const { user } = await seededUser();
    await server.sql("insert into ai_usage (user_id, day, requests) values ($1, '2026-02-12', 50)", [user.user.id]);
    const response = await api("/chat", { token: user.token, json: { message: "hi" } });
    expectProblem(response, 429, "rate_limited");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(ai.requests).toEqual([]);
  });

  test("an empty answer is replaced by the built-in one, which says why", async () => {
    const { user } = await seededUser();
    ai.reply = () => "   ";
    const { answer } = expectShape(
      chatAnswerOutput,
      (await api("/chat", { token: user.token, json: { message: "what is due today?" } })).body,
    );
    expect(answer).toMatchObject({ answeredBy: { provider: "built-in" }, fallbackReason: "The AI service gave an empty answer" });
    expect(answer.content).toBe("Due today (1 task):\n• Pay the rent – 3:00 PM");

    const events = readEvents(
      (await api("/chat", { token: user.token, json: { message: "what is due today?" }, headers: stream })).body as string,
    );
    expect(events.filter((event) => event.event === "answeredBy").map((event) => event.data)).toEqual([
      { answeredBy: { provider: "openai-compatible", model: "tiny-model" }, fallbackReason: null },
      { answeredBy: { provider: "built-in" }, fallbackReason: "The AI service gave an empty answer" },
    ]);
  });
});

describe("GET /briefing through the endpoint", () => {
  test("the narrative comes from the endpoint, from a prompt of the user's own day", async () => {
    const { user } = await seededUser();
    ai.reply = () => "A calm Thursday: pay the rent first.";
    const briefing = expectShape(briefingOutput, (await api("/briefing", { token: user.token })).body);
    expect(briefing).toMatchObject({
      narrative: "A calm Thursday: pay the rent first.",
      answeredBy: { provider: "openai-compatible", model: "tiny-model" },
      fallbackReason: null,
    });
    expect(briefing.today.map((task) => task.title)).toEqual(["Pay the rent"]);
    const system = ai.requests[0]!.messages[0]!.content;
    expect(system).toContain("Pay the rent");
    expect(system).toContain("Call Jana");
    expect(system).toContain("Learn Czech");
    expectNothingOfTheOtherUser();
  });

  test("an endpoint that fails never costs the briefing: the built-in narrative stands in, with the reason", async () => {
    const { user } = await seededUser();
    ai.fail = { status: 502, message: "bad gateway" };
    const response = await api("/briefing?lang=cs", { token: user.token });
    expect(response.status).toBe(200);
    const briefing = expectShape(briefingOutput, response.body);
    expect(briefing).toMatchObject({
      answeredBy: { provider: "built-in" },
      fallbackReason: expect.stringMatching(/502.*bad gateway/),
    });
    expect(briefing.narrative).toContain("Začněte úkolem „Call Jana“.");
  });
});

describe("the weekly report through the endpoint", () => {
  test("its narrative comes from the endpoint; when the endpoint is down, the built-in one, and the report is made all the same", async () => {
    // The weekly job writes every user's report: this user's prompt is the one naming their own goal.
    const { user } = await seededUser("Learn Czech in Brno");
    ai.reply = (request) =>
      request.messages[0]!.content.includes("Learn Czech") ? "A good week: keep learning Czech." : "A week.";
    setClock("2026-02-16T07:00:00Z"); // Monday 08:00 in Prague
    await runWeeklyReports();
    const report = expectShape(weeklyReportOutput, (await api("/reports/weekly/2026-02-09", { token: user.token })).body);
    expect(report.narrative).toEqual({
      text: "A good week: keep learning Czech.",
      answeredBy: { provider: "openai-compatible", model: "tiny-model" },
      fallbackReason: null,
    });
    const mine = ai.requests.find((request) => request.messages[0]!.content.includes("Learn Czech in Brno"))!;
    expect(mine.messages[0]!.content).toContain('"openNow":2');
    expect(JSON.stringify(mine.messages)).not.toContain("Zebra");

    ai.fail = { status: 503, message: "maintenance" };
    setClock("2026-02-23T07:00:00Z"); // the next Monday
    await runWeeklyReports();
    const next = expectShape(weeklyReportOutput, (await api("/reports/weekly/2026-02-16", { token: user.token })).body);
    expect(next.narrative).toMatchObject({
      answeredBy: { provider: "built-in" },
      fallbackReason: expect.stringMatching(/503.*maintenance/),
    });
    expect(next.narrative!.text).toContain("From Monday, February 16 to Sunday, February 22 you completed no tasks");
    expect(next.goals).toEqual([expect.objectContaining({ title: "Learn Czech in Brno", progress: 40, progressAtStart: null })]);
  });
});
