import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { chatAnswerOutput, chatMessageListOutput } from "../../lib/assistant/schema";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type TestServer,
} from "./harness";
import { readEvents } from "./sse";

/*
 * The chat with the built-in assistant (no AI endpoint configured), on seeded data: answers cite the user's own
 * task titles and never another user's; history per user; proposed actions confirmed or dismissed once.
 */

const PRAGUE = "Europe/Prague";
// Thursday 2026-02-12, 11:00 in Prague (UTC+1).
const NOW = "2026-02-12T10:00:00Z";

let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;
let me: User;
let other: User;

beforeAll(async () => {
  server = await startTestServer();
  resetClock();
  advanceClock(Date.parse(NOW) - Date.now());
  other = await registerUser(server, { timeZone: PRAGUE });
  await createTask(server, other.token, { title: "Zebra secret of the other user", dueAt: "2026-02-12T15:00:00Z" });
});
afterAll(async () => {
  resetClock();
  await server.close();
});

const api = (path: string, options?: Parameters<TestServer["request"]>[1]) => server.request(`/api/v1${path}`, options);

/** A fresh user in Prague with a task due today at 15:00, one overdue since yesterday and one due Friday. */
async function seededUser(): Promise<{ user: User; rent: string; jana: string; dentist: string }> {
  const user = await registerUser(server, { timeZone: PRAGUE });
  const rent = await createTask(server, user.token, { title: "Pay the rent", dueAt: "2026-02-12T14:00:00Z", priority: "high" });
  const jana = await createTask(server, user.token, { title: "Call Jana", dueAt: "2026-02-11T08:00:00Z" });
  const dentist = await createTask(server, user.token, { title: "Dentist appointment", dueAt: "2026-02-13T07:30:00Z" });
  return { user, rent: rent.id, jana: jana.id, dentist: dentist.id };
}

async function ask(user: User, message: string, lang?: string) {
  const response = await api("/chat", { token: user.token, json: { message, ...(lang && { lang }) } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(chatAnswerOutput, response.body);
}

describe("POST /chat with the built-in assistant", () => {
  test("answers what is due today with the user's own tasks, never another user's, and keeps the exchange", async () => {
    ({ user: me } = await seededUser());
    const { question, answer } = await ask(me, "What is due today?");
    expect(question).toMatchObject({ role: "user", content: "What is due today?", answeredBy: null, actions: [] });
    expect(answer).toMatchObject({ role: "assistant", answeredBy: { provider: "built-in" }, fallbackReason: null, actions: [] });
    expect(answer.content).toBe("Due today (1 task):\n• Pay the rent – 3:00 PM");
    expect(answer.id).toBeGreaterThan(question.id);

    const overview = await ask(me, "Hello! How am I doing?");
    expect(overview.answer.content).toContain("You have 3 open tasks.");
    expect(overview.answer.content).toContain("“Call Jana”");
    for (const text of [answer.content, overview.answer.content]) expect(text).not.toContain("Zebra");
  });

  test("speaks the language asked for; what it does not understand gets an overview in that language", async () => {
    const { user } = await seededUser();
    expect((await ask(user, "Co je po termínu?", "cs")).answer.content).toMatch(/^Po termínu \(1 úkol\):\n• Call Jana – /);
    expect((await ask(user, "מה יש לי היום?", "he")).answer.content).toBe("לביצוע היום (משימה אחת):\n• Pay the rent – 15:00");
    const hebrew = (await ask(user, "שלום, מה שלומך?", "he")).answer.content;
    expect(hebrew).toContain("יש לך 3 משימות פתוחות.");
    expect(hebrew).toContain("„Call Jana”");
    // Without `lang`: the profile's locale.
    const czech = await registerUser(server, { timeZone: PRAGUE, locale: "cs" });
    expect((await ask(czech, "kolik mám úkolů?")).answer.content).toBe("Nemáte žádné otevřené úkoly.");
  });

  test("a bad message is a 400 naming the field", async () => {
    const { user } = await seededUser();
    expect(
      expectProblem(await api("/chat", { token: user.token, json: { message: "  " } }), 400, "validation_failed").errors,
    ).toEqual([{ in: "body", pointer: "/message", detail: "must not be empty" }]);
    expect(
      expectProblem(await api("/chat", { token: user.token, json: { message: "x".repeat(2001) } }), 400, "validation_failed")
        .errors?.[0]?.pointer,
    ).toBe("/message");
    expect(
      expectProblem(await api("/chat", { token: user.token, json: { message: "hi", lang: "de" } }), 400, "validation_failed")
        .errors?.[0]?.pointer,
    ).toBe("/lang");
    expect((await api("/chat/messages", { token: user.token })).body.items).toEqual([]);
  });

  test("streams the answer as Server-Sent Events when asked to, and stores it the same", async () => {
    const { user } = await seededUser();
    const response = await api("/chat", {
      token: user.token,
      json: { message: "what should I do next?" },
      headers: { Accept: "text/event-stream" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = readEvents(response.body as string);
    expect(events.map((event) => event.event).filter((name, index, all) => name !== all[index - 1])).toEqual([
      "answeredBy",
      "delta",
      "actions",
      "done",
    ]);
    expect(events[0]!.data).toEqual({ answeredBy: { provider: "built-in" }, fallbackReason: null });
    const text = events
      .filter((event) => event.event === "delta")
      .map((event) => (event.data as { text: string }).text)
      .join("");
    expect(text).toMatch(/^Next I would do “Call Jana”: it has been overdue since /);
    const done = expectShape(chatAnswerOutput, events.at(-1)!.data);
    expect(done.answer.content).toBe(text);
    const history = expectShape(chatMessageListOutput, (await api("/chat/messages", { token: user.token })).body);
    expect(history.items.map((item) => item.content)).toEqual([text, "what should I do next?"]);
  });
});

describe("the conversation", () => {
  test("GET /chat/messages – newest first, a page at a time, each user's own; DELETE clears it", async () => {
    const { user } = await seededUser();
    for (const message of ["one", "two", "three"]) await ask(user, message);
    const first = expectShape(chatMessageListOutput, (await api("/chat/messages?limit=4", { token: user.token })).body);
    expect(first.items.map((item) => item.role)).toEqual(["assistant", "user", "assistant", "user"]);
    expect(first.items[1]!.content).toBe("three");
    const rest = expectShape(
      chatMessageListOutput,
      (await api(`/chat/messages?limit=4&before=${first.nextCursor}`, { token: user.token })).body,
    );
    expect(rest.items.map((item) => item.content).at(-1)).toBe("one");
    expect(rest.nextCursor).toBeNull();
    expect((await api("/chat/messages", { token: other.token })).body.items).toEqual([]);

    expect((await api("/chat/messages", { method: "DELETE", token: user.token })).body).toEqual({ deleted: 6 });
    expect((await api("/chat/messages", { token: user.token })).body).toEqual({ items: [], nextCursor: null });
    expectProblem(await api("/chat/messages?before=abc", { token: user.token }), 400, "validation_failed");
  });
});

describe("proposed actions", () => {
  test("“add task … tomorrow”: proposed, confirmed once through the tasks API, the task exists", async () => {
    const { user } = await seededUser();
    const { answer } = await ask(user, "add task Buy oat milk tomorrow");
    expect(answer.content).toBe("Shall I add the task “Buy oat milk”, due Fri, Feb 13, 5:00 PM? Confirm it below.");
    const [action] = answer.actions;
    expect(action).toMatchObject({
      kind: "create_task",
      state: "proposed",
      title: "Buy oat milk",
      dueAt: "2026-02-13T16:00:00.000Z",
      taskId: null,
    });

    const confirmed = await api(`/chat/actions/${action!.id}/confirm`, { method: "POST", token: user.token });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.action).toMatchObject({
      state: "confirmed",
      taskId: confirmed.body.task.id,
      decidedAt: expect.any(String),
    });
    const task = await api(`/tasks/${confirmed.body.task.id}`, { token: user.token });
    expect(task.body).toMatchObject({ title: "Buy oat milk", dueAt: "2026-02-13T16:00:00.000Z", ownerId: user.user.id });

    expectProblem(await api(`/chat/actions/${action!.id}/confirm`, { method: "POST", token: user.token }), 409, "conflict");
    expectProblem(await api(`/chat/actions/${action!.id}/dismiss`, { method: "POST", token: user.token }), 409, "conflict");
    const tasks = await api("/tasks?q=oat", { token: user.token });
    expect(tasks.body.items).toHaveLength(1);
    const history = await api("/chat/messages", { token: user.token });
    expect(history.body.items[0].actions[0]).toMatchObject({ id: action!.id, state: "confirmed" });
  });

  test("“move … to Monday”: the task gets the new date at its own time of day", async () => {
    const { user, dentist } = await seededUser();
    const { answer } = await ask(user, "move the dentist appointment to Monday");
    const [action] = answer.actions;
    expect(action).toMatchObject({
      kind: "reschedule_task",
      title: "Dentist appointment",
      taskId: dentist,
      dueAt: "2026-02-16T07:30:00.000Z",
    });
    const confirmed = await api(`/chat/actions/${action!.id}/confirm`, { method: "POST", token: user.token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.task).toMatchObject({ id: dentist, dueAt: "2026-02-16T07:30:00.000Z" });
  });

  test("dismissed: nothing happens, and it cannot be confirmed afterwards", async () => {
    const { user } = await seededUser();
    const { answer } = await ask(user, "přidej úkol Umýt okna zítra", "cs");
    const dismissed = await api(`/chat/actions/${answer.actions[0]!.id}/dismiss`, { method: "POST", token: user.token });
    expect(dismissed.body).toMatchObject({ state: "dismissed", taskId: null });
    expectProblem(
      await api(`/chat/actions/${answer.actions[0]!.id}/confirm`, { method: "POST", token: user.token }),
      409,
      "conflict",
    );
    expect((await api("/tasks?q=okna", { token: user.token })).body.items).toEqual([]);
  });

  test("another user's action is a 404; a task gone since the proposal is a 404 that leaves the action proposed", async () => {
    const { user, jana } = await seededUser();
    const { answer } = await ask(user, "move Call Jana to tomorrow");
    const id = answer.actions[0]!.id;
    expectProblem(await api(`/chat/actions/${id}/confirm`, { method: "POST", token: other.token }), 404, "not_found");
    expectProblem(await api(`/chat/actions/${id}/dismiss`, { method: "POST", token: other.token }), 404, "not_found");
    expectProblem(await api("/chat/actions/not-an-id/confirm", { method: "POST", token: user.token }), 400, "validation_failed");

    expect((await api(`/tasks/${jana}`, { method: "DELETE", token: user.token })).status).toBe(204);
    expectProblem(await api(`/chat/actions/${id}/confirm`, { method: "POST", token: user.token }), 404, "not_found");
    expect((await api("/chat/messages", { token: user.token })).body.items[0].actions[0]).toMatchObject({
      id,
      state: "proposed",
    });
    expect((await api(`/chat/actions/${id}/dismiss`, { method: "POST", token: user.token })).status).toBe(200);
  });

  test("a task the user sees but may not change (a project viewer) cannot be moved through the chat: 404", async () => {
    const { user } = await seededUser();
    const theirs = await createTask(server, other.token, { title: "Read-only for me" });
    const project = await api("/projects", { token: other.token, json: { name: "Shared" } });
    expect((await joinAs(server, `/api/v1/projects/${project.body.id}/members`, other, user, { role: "viewer" })).status).toBe(
      201,
    );
    expect(
      (await api(`/tasks/${theirs.id}`, { method: "PATCH", token: other.token, json: { projectId: project.body.id } })).status,
    ).toBe(200);
    expect((await api(`/tasks/${theirs.id}`, { token: user.token })).status).toBe(200);
    // The assistants only propose the user's own tasks: such a proposal is written directly.
    const { answer } = await ask(user, "hello");
    const [action] = await server.sql<{ id: string }>(
      "insert into chat_actions (user_id, message_id, kind, params) values ($1, $2, 'reschedule_task', $3::jsonb) returning id",
      [
        user.user.id,
        answer.id,
        JSON.stringify({ title: "Read-only for me", taskId: theirs.id, dueAt: "2026-02-20T10:00:00.000Z" }),
      ],
    );
    expectProblem(await api(`/chat/actions/${action!.id}/confirm`, { method: "POST", token: user.token }), 404, "not_found");
    expect((await api(`/tasks/${theirs.id}`, { token: other.token })).body.dueAt).toBeNull();
  });
});
