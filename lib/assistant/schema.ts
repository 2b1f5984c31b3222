import { z } from "@hono/zod-openapi";
import { answeredBySchema } from "../ai/schema";
import { CHAT_ACTION_KINDS, CHAT_ACTION_STATES } from "../db/schema/assistant";
import { GOAL_STATUSES } from "../db/schema/goals";
import { LOCALES } from "../i18n/locales";
import { PRIORITIES, TASK_STATUSES } from "../tasks/vocabulary";

export const CHAT_MESSAGE_MAX = 2000;
export const CHAT_LIMIT_MAX = 100;
const LANGUAGES = LOCALES.join(", ");

const localDate = z.iso.date("must be a date such as 2026-03-23");
const langSchema = z
  .enum(LOCALES, { message: `must be one of ${LANGUAGES}` })
  .optional()
  .openapi({
    description: `The language of the assistant's words: one of ${LANGUAGES}. Default: your profile locale.`,
  });

const fallbackReason = z.string().nullable().openapi({
  description:
    "Set when the AI endpoint's answer was unusable (or it failed where that is allowed) and the built-in assistant answered instead: why",
});

// Chat

export const chatInput = z
  .strictObject({
    message: z
      .string({ message: "must be text" })
      .trim()
      .min(1, "must not be empty")
      .max(CHAT_MESSAGE_MAX, `must be at most ${CHAT_MESSAGE_MAX} characters`)
      .openapi({ description: `Your message, 1-${CHAT_MESSAGE_MAX} characters` }),
    lang: langSchema,
  })
  .openapi("ChatInput");
export type ChatInput = z.infer<typeof chatInput>;

export const chatActionOutput = z
  .object({
    id: z.uuid(),
    kind: z
      .enum(CHAT_ACTION_KINDS)
      .openapi({ description: "`create_task`: add a task; `reschedule_task`: give one of your tasks a new due time" }),
    state: z.enum(CHAT_ACTION_STATES).openapi({ description: "`proposed` until you confirm or dismiss it (once)" }),
    title: z.string().openapi({ description: "The new task's title, or the title of the task to reschedule" }),
    dueAt: z.iso.datetime().nullable().openapi({ description: "The (new) due time; null: a task without one" }),
    taskId: z
      .uuid()
      .nullable()
      .openapi({ description: "The task to reschedule; once a create_task is confirmed, the task it created" }),
    createdAt: z.iso.datetime(),
    decidedAt: z.iso.datetime().nullable(),
  })
  .openapi("ChatAction");
export type ChatActionOutput = z.infer<typeof chatActionOutput>;

export const chatMessageOutput = z
  .object({
    id: z.number().int().openapi({ description: "Increases with every message of yours" }),
    role: z.enum(["user", "assistant"]),
    content: z.string(),
    answeredBy: answeredBySchema.nullable().openapi({ description: "Which assistant wrote it (assistant messages)" }),
    fallbackReason,
    actions: z.array(chatActionOutput).openapi({ description: "What the assistant proposed in this message" }),
    createdAt: z.iso.datetime(),
  })
  .openapi("ChatMessage");
export type ChatMessageOutput = z.infer<typeof chatMessageOutput>;

export const chatAnswerOutput = z
  .object({
    question: chatMessageOutput.openapi({ description: "Your message, as stored" }),
    answer: chatMessageOutput.openapi({ description: "The assistant's answer, with any proposed actions" }),
  })
  .openapi("ChatAnswer");
export type ChatAnswerOutput = z.infer<typeof chatAnswerOutput>;

export const listChatMessagesQuery = z
  .strictObject({
    limit: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(CHAT_LIMIT_MAX, `must be at most ${CHAT_LIMIT_MAX}`)
      .default(50)
      .openapi({ description: `Messages per page, 1-${CHAT_LIMIT_MAX} (default 50)` }),
    before: z.coerce
      .number({ message: "must be a message id" })
      .int("must be a message id")
      .positive("must be a message id")
      .optional()
      .openapi({ description: "`nextCursor` of the previous page: messages older than this id" }),
  })
  .openapi("ListChatMessagesQuery");
export type ListChatMessagesQuery = z.infer<typeof listChatMessagesQuery>;

export const chatMessageListOutput = z
  .object({
    items: z.array(chatMessageOutput).openapi({ description: "Newest first" }),
    nextCursor: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Pass as `before` for older messages; null on the last page" }),
  })
  .openapi("ChatMessageList");
export type ChatMessageListOutput = z.infer<typeof chatMessageListOutput>;

export const clearChatOutput = z
  .object({ deleted: z.number().int().openapi({ description: "Messages deleted" }) })
  .openapi("ClearChat");

export const actionIdParams = z.object({ id: z.uuid("must be an action id") });

// The facts the assistant answers from (also in the briefing)

export const factTaskOutput = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: z.enum(TASK_STATUSES),
    priority: z.enum(PRIORITIES),
    dueAt: z.iso.datetime().nullable(),
  })
  .openapi("BriefingTask");
export type FactTaskOutput = z.infer<typeof factTaskOutput>;

export const factGoalOutput = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: z.enum(GOAL_STATUSES),
    progress: z.number().int().min(0).max(100),
    progressMode: z.enum(["manual", "tasks"]).openapi({
      description:
        "`tasks`: the share of its linked tasks that are done (cancelled ones left out); `manual`: the value set by hand",
    }),
    targetDate: localDate.nullable(),
  })
  .openapi("BriefingGoal");
export type FactGoalOutput = z.infer<typeof factGoalOutput>;

// The daily briefing

export const briefingQuery = z
  .strictObject({
    date: localDate.optional().openapi({ description: "The day (YYYY-MM-DD, your time zone); default: today" }),
    lang: langSchema,
  })
  .openapi("BriefingQuery");
export type BriefingQuery = z.infer<typeof briefingQuery>;

export const briefingOutput = z
  .object({
    date: localDate.openapi({ description: "The day the briefing is for, in your time zone" }),
    timeZone: z.string(),
    today: z.array(factTaskOutput).openapi({ description: "Your open tasks due that day, soonest first" }),
    overdue: z.array(factTaskOutput).openapi({ description: "Your open tasks due before that day, oldest first" }),
    goals: z.array(factGoalOutput).openapi({ description: "Your active goals, nearest target date first" }),
    reviews: z
      .array(
        z
          .object({
            id: z.uuid(),
            front: z.string().openapi({ description: "The card's question side" }),
            deck: z.string().nullable(),
            dueAt: z.iso.datetime(),
          })
          .openapi("BriefingReview"),
      )
      .openapi({
        description:
          "The first 5 spaced-repetition cards due by the end of that day, the longest due first; empty while the module is off",
      }),
    reviewsDue: z
      .number()
      .int()
      .openapi({ description: "How many cards are due by the end of that day in all (0 while the module is off)" }),
    reviewsAvailable: z
      .boolean()
      .openapi({ description: "Whether the spaced-repetition module is on: false means `reviews` is empty because it is off" }),
    narrative: z.string().openapi({ description: "A few sentences about the day" }),
    answeredBy: answeredBySchema,
    fallbackReason,
  })
  .openapi("Briefing");
export type BriefingOutput = z.infer<typeof briefingOutput>;
