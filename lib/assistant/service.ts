import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { aiEndpointConfigured, BUILT_IN, complete, completeStream, type AiMessage, type AnsweredBy } from "../ai/provider";
import { nowDate } from "../clock";
import { config } from "../config";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../i18n/locales";
import { localDateOf } from "../local-dates";
import { mayOnTask } from "../permissions/tasks";
import type { DueSummary } from "../reviews/schema";
import { dueSummary } from "../reviews/service";
import type { TaskOutput } from "../tasks/schema";
import { createTask, getVisibleTask, updateTask } from "../tasks/service";
import { builtInBriefing, builtInChat, type BriefingFacts, type Proposal } from "./built-in";
import { dayRange, gatherFacts, type Facts } from "./facts";
import { narrate, type Narrative } from "./narrative";
import { AnswerReader, briefingPrompt, chatPrompt, PROMPT_HISTORY_MAX } from "./prompt";
import {
  decideChatAction,
  deleteChatMessages,
  findChatAction,
  findGoals,
  findOpenTasks,
  insertExchange,
  listChatMessages,
  recentChatMessages,
  reopenChatAction,
  setChatActionTask,
  type ChatActionRow,
  type ChatMessageRow,
  type FactTask,
} from "./repo";
import type {
  BriefingOutput,
  BriefingQuery,
  ChatActionOutput,
  ChatAnswerOutput,
  ChatInput,
  ChatMessageListOutput,
  ChatMessageOutput,
  FactTaskOutput,
  ListChatMessagesQuery,
} from "./schema";

/*
 * The rules (the routes' descriptions say the same).
 * - Chat answers come from the AI endpoint when one is configured, else from the built-in assistant; either way
 *   from the caller's own facts only. Asking the chat is asking the AI: an endpoint that is down is a 503, a
 *   used-up budget a 429, and nothing is stored. An answer that is unusable (empty) is replaced by the built-in
 *   one, which says why (`fallbackReason`).
 * - A question and its answer are stored together once the answer is complete, never a half: when a streamed
 *   answer fails midway, neither is stored (the `error` event says `stored: false`).
 * - Proposed actions are the caller's alone; each is decided once (409 after that). Confirming one does what it
 *   says through the tasks service, with the caller's permissions: a task they cannot see or change is a 404,
 *   and a failure leaves the action proposed.
 */

const CHUNK_WORDS = 3;

/** The model that answers the chat, or null when the built-in assistant does. */
export function answeringModel(): string | null {
  return aiEndpointConfigured() ? config().AI_MODEL : null;
}

function localeOf(actor: Actor, lang: Locale | undefined): Locale {
  return lang ?? (isLocale(actor.locale) ? actor.locale : DEFAULT_LOCALE);
}

// Outputs

function answeredByOutput(stored: Record<string, unknown> | null): ChatMessageOutput["answeredBy"] {
  if (!stored) return null;
  return stored.provider === "openai-compatible"
    ? { provider: "openai-compatible", model: String(stored.model ?? "") }
    : { provider: "built-in" };
}

function toActionOutput(row: ChatActionRow): ChatActionOutput {
  const params = row.params as { title?: string; dueAt?: string | null; taskId?: string | null };
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    title: params.title ?? "",
    dueAt: params.dueAt ?? null,
    taskId: row.taskId ?? params.taskId ?? null,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

function toMessageOutput(row: ChatMessageRow, actions: readonly ChatActionRow[]): ChatMessageOutput {
  const fallbackReason = row.answeredBy?.fallbackReason;
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    answeredBy: answeredByOutput(row.answeredBy),
    fallbackReason: typeof fallbackReason === "string" ? fallbackReason : null,
    actions: actions.filter((action) => action.messageId === row.id).map(toActionOutput),
    createdAt: row.createdAt.toISOString(),
  };
}

function toFactTaskOutput(task: FactTask): FactTaskOutput {
  return { ...task, dueAt: task.dueAt?.toISOString() ?? null };
}

// Chat

interface Answer {
  text: string;
  proposals: Proposal[];
  answeredBy: AnsweredBy;
  fallbackReason: string | null;
}

async function storeExchange(actor: Actor, question: string, answer: Answer, now: Date): Promise<ChatAnswerOutput> {
  const stored = await insertExchange(
    actor.userId,
    question,
    {
      content: answer.text,
      answeredBy: { ...answer.answeredBy, ...(answer.fallbackReason && { fallbackReason: answer.fallbackReason }) },
    },
    answer.proposals.map(({ kind, title, dueAt, taskId }) => ({
      kind,
      params: { title, dueAt: dueAt?.toISOString() ?? null, taskId },
    })),
    now,
  );
  return { question: toMessageOutput(stored.question, []), answer: toMessageOutput(stored.answer, stored.actions) };
}

/** The conversation so far, for the endpoint: the user's own earlier messages and the answers they got. */
async function promptHistory(userId: string): Promise<AiMessage[]> {
  const rows = await recentChatMessages(userId, PROMPT_HISTORY_MAX);
  return rows.filter((row) => row.content).map((row) => ({ role: row.role, content: row.content }));
}

/** The built-in assistant's answer; with a reason when it stands in for an unusable one of the endpoint. */
function builtInAnswer(message: string, facts: Facts, locale: Locale, fallbackReason: string | null = null): Answer {
  return { ...builtInChat(message, facts, locale), answeredBy: BUILT_IN, fallbackReason };
}

const EMPTY_ANSWER = "The AI service gave an empty answer";

/** Asks the assistant and stores the exchange; the whole answer at once. */
export async function chat(actor: Actor, input: ChatInput): Promise<ChatAnswerOutput> {
  const now = nowDate();
  const locale = localeOf(actor, input.lang);
  const facts = await gatherFacts(actor.userId, actor.timeZone, now);
  if (!aiEndpointConfigured()) {
    return storeExchange(actor, input.message, builtInAnswer(input.message, facts, locale), now);
  }
  const messages = chatPrompt(facts, locale, await promptHistory(actor.userId), input.message);
  const completion = await complete({ userId: actor.userId, purpose: "chat", messages });
  const reader = new AnswerReader();
  reader.push(completion.text);
  const read = reader.finish(facts);
  const answer: Answer =
    read.text || read.proposals.length
      ? { ...read, answeredBy: completion.answeredBy, fallbackReason: null }
      : builtInAnswer(input.message, facts, locale, EMPTY_ANSWER);
  return storeExchange(actor, input.message, answer, now);
}

/** What a streamed answer sends, in order: who answers, the text in pieces, the proposed actions, the stored exchange. */
export type ChatEvent =
  | { event: "answeredBy"; data: { answeredBy: AnsweredBy; fallbackReason: string | null } }
  | { event: "delta"; data: { text: string } }
  | { event: "actions"; data: { items: ChatActionOutput[] } }
  | { event: "done"; data: ChatAnswerOutput };

/** A whole answer sent as a stream, a few words at a time (the built-in one, which has no stream of its own). */
function* pieces(text: string): Generator<ChatEvent> {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  for (let at = 0; at < words.length; at += CHUNK_WORDS)
    yield { event: "delta", data: { text: words.slice(at, at + CHUNK_WORDS).join("") } };
}

async function* finishStream(actor: Actor, question: string, answer: Answer, now: Date): AsyncGenerator<ChatEvent> {
  const exchange = await storeExchange(actor, question, answer, now);
  yield { event: "actions", data: { items: exchange.answer.actions } };
  yield { event: "done", data: exchange };
}

/**
 * Asks the assistant for a streamed answer. Resolves once the answer has begun (so that a refused or failed
 * request is still an ordinary problem answer); the events then follow. An endpoint failing midway throws from
 * the events, and nothing is stored.
 */
export async function chatStream(actor: Actor, input: ChatInput, signal?: AbortSignal): Promise<AsyncGenerator<ChatEvent>> {
  const now = nowDate();
  const locale = localeOf(actor, input.lang);
  const facts = await gatherFacts(actor.userId, actor.timeZone, now);
  if (!aiEndpointConfigured()) {
    const answer = builtInAnswer(input.message, facts, locale);
    return (async function* () {
      yield { event: "answeredBy", data: { answeredBy: BUILT_IN, fallbackReason: null } } satisfies ChatEvent;
      yield* pieces(answer.text);
      yield* finishStream(actor, input.message, answer, now);
    })();
  }
  const messages = chatPrompt(facts, locale, await promptHistory(actor.userId), input.message);
  const stream = await completeStream({ userId: actor.userId, purpose: "chat", messages, signal });
  return (async function* () {
    yield { event: "answeredBy", data: { answeredBy: stream.answeredBy, fallbackReason: null } } satisfies ChatEvent;
    const reader = new AnswerReader();
    for await (const chunk of stream.chunks) {
      const text = reader.push(chunk);
      if (text) yield { event: "delta", data: { text } } satisfies ChatEvent;
    }
    const read = reader.finish(facts);
    if (read.text || read.proposals.length) {
      yield* finishStream(actor, input.message, { ...read, answeredBy: stream.answeredBy, fallbackReason: null }, now);
      return;
    }
    const answer = builtInAnswer(input.message, facts, locale, EMPTY_ANSWER);
    yield { event: "answeredBy", data: { answeredBy: BUILT_IN, fallbackReason: EMPTY_ANSWER } } satisfies ChatEvent;
    yield* pieces(answer.text);
    yield* finishStream(actor, input.message, answer, now);
  })();
}

export async function listMessages(actor: Actor, query: ListChatMessagesQuery): Promise<ChatMessageListOutput> {
  const { messages, actions } = await listChatMessages(actor.userId, query.limit + 1, query.before ?? null);
  const items = messages.slice(0, query.limit).map((row) => toMessageOutput(row, actions));
  return { items, nextCursor: messages.length > query.limit ? items.at(-1)!.id : null };
}

export async function clearMessages(actor: Actor): Promise<{ deleted: number }> {
  return { deleted: await deleteChatMessages(actor.userId) };
}

// Proposed actions

/** Decides an action once: 404 when it is not the caller's, 409 when it was decided already. */
async function decide(actor: Actor, id: string, state: "confirmed" | "dismissed"): Promise<ChatActionRow> {
  const decided = await decideChatAction(actor.userId, id, state, nowDate());
  if (decided) return decided;
  const action = await findChatAction(actor.userId, id);
  if (!action) throw new AppError("not_found", "No such proposed action");
  throw new AppError("conflict", `This action was ${action.state} already`);
}

/** Gives one of the caller's tasks a new due time: 404 for a task they cannot see or may not change. */
async function reschedule(actor: Actor, taskId: string | null, dueAt: string | null): Promise<TaskOutput> {
  const gone = () => new AppError("not_found", "No such task, or you may not change it");
  if (!taskId) throw gone();
  const task = await getVisibleTask(actor, taskId);
  if (!mayOnTask(actor.userId, task, "edit")) throw gone();
  return updateTask(actor, taskId, { dueAt });
}

export async function confirmAction(actor: Actor, id: string): Promise<{ action: ChatActionOutput; task: TaskOutput }> {
  const action = await decide(actor, id, "confirmed");
  const params = toActionOutput(action);
  try {
    const task =
      action.kind === "create_task"
        ? await createTask(actor, { title: params.title, dueAt: params.dueAt })
        : await reschedule(actor, params.taskId, params.dueAt);
    return { action: toActionOutput(await setChatActionTask(action.id, task.id)), task };
  } catch (error) {
    await reopenChatAction(action.id);
    throw error;
  }
}

export async function dismissAction(actor: Actor, id: string): Promise<ChatActionOutput> {
  return toActionOutput(await decide(actor, id, "dismissed"));
}

// The daily briefing

export interface BriefingData extends BriefingFacts {
  timeZone: string;
  now: Date;
  /** The spaced-repetition cards due by the end of the day; null while the module is off. */
  reviews: DueSummary | null;
}

/** What the briefing of a day lists (default today, in the caller's time zone): without its narrative. */
export async function briefingFacts(actor: Actor, date?: string): Promise<BriefingData> {
  const now = nowDate();
  const day = date ?? localDateOf(now, actor.timeZone);
  const { start, end } = dayRange(day, actor.timeZone);
  // Overdue: due before the day began, or before now for a day still to come; today's list has the rest.
  const overdueBefore = start < now ? start : now;
  return {
    date: day,
    timeZone: actor.timeZone,
    now,
    today: await findOpenTasks(actor.userId, { dueFrom: start, dueBefore: end }, 100),
    overdue: await findOpenTasks(actor.userId, { dueBefore: overdueBefore }, 100),
    goals: await findGoals(actor.userId, ["active"]),
    reviews: await dueSummary(actor.userId, end),
  };
}

/** The briefing's few sentences: from the AI endpoint when configured (the built-in ones if it fails), else built in. */
export async function briefingNarrative(actor: Actor, briefing: BriefingData, lang?: Locale): Promise<Narrative> {
  const locale = localeOf(actor, lang);
  const calendar = { now: briefing.now, timeZone: briefing.timeZone, today: localDateOf(briefing.now, briefing.timeZone) };
  return narrate(
    actor.userId,
    "briefing",
    () => briefingPrompt(briefing, calendar, locale),
    () => builtInBriefing(briefing, calendar, locale),
  );
}

export type BriefingLists = Omit<BriefingOutput, "narrative" | "answeredBy" | "fallbackReason">;

/** The briefing's lists as the API shows them; no reviews, and `reviewsAvailable: false`, while spaced repetition is off. */
export function briefingLists(briefing: BriefingData): BriefingLists {
  return {
    date: briefing.date,
    timeZone: briefing.timeZone,
    today: briefing.today.map(toFactTaskOutput),
    overdue: briefing.overdue.map(toFactTaskOutput),
    goals: briefing.goals,
    reviews: briefing.reviews?.items ?? [],
    reviewsDue: briefing.reviews?.total ?? 0,
    reviewsAvailable: briefing.reviews !== null,
  };
}

export async function getBriefing(actor: Actor, query: BriefingQuery): Promise<BriefingOutput> {
  const briefing = await briefingFacts(actor, query.date);
  const narrative = await briefingNarrative(actor, briefing, query.lang);
  return {
    ...briefingLists(briefing),
    narrative: narrative.text,
    answeredBy: narrative.answeredBy,
    fallbackReason: narrative.fallbackReason,
  };
}
