import { z } from "@hono/zod-openapi";
import { LOCALES } from "../i18n/locales";
import { recurrenceSchema } from "../tasks/schema";
import { PRIORITIES } from "../tasks/vocabulary";
import { NOTE_CODES, QUICK_ADD_TEXT_MAX, SPAN_KINDS } from "./parse";

const LANGUAGES = LOCALES.join(", ");
const MAX_LITERAL = 50;

const range = {
  start: z.number().int().min(0).openapi({ description: "First UTF-16 code unit (as JavaScript strings count)" }),
  end: z.number().int().min(0).openapi({ description: "One past the last UTF-16 code unit" }),
};

export const parseQuickAddInput = z
  .strictObject({
    text: z
      .string()
      .max(QUICK_ADD_TEXT_MAX, `must be at most ${QUICK_ADD_TEXT_MAX} characters`)
      .refine((text) => text.trim().length > 0, "must not be empty")
      .openapi({ description: "What the user typed into quick add" }),
    locale: z
      .enum(LOCALES, { message: `must be one of ${LANGUAGES}` })
      .optional()
      .openapi({ description: `The language to read it in (${LANGUAGES}). Default: your profile locale` }),
    literal: z
      .array(z.strictObject(range).refine((r) => r.end > r.start, { message: "end must be after start", path: ["end"] }))
      .max(MAX_LITERAL, `at most ${MAX_LITERAL} ranges`)
      .optional()
      .openapi({ description: "Ranges the user undid: they are never recognised and stay in the title" }),
  })
  .openapi("ParseQuickAddInput", {
    example: { text: "Buy groceries tomorrow at 9 !high #home +Shopping", locale: "en" },
  });
export type ParseQuickAddInput = z.infer<typeof parseQuickAddInput>;

const span = z
  .object({
    ...range,
    kind: z.enum(SPAN_KINDS).openapi({
      description:
        "`due`: the due date or time; `start`: the start; `recurrence`: the repeat rule; `priority`; `tag`; " +
        "`group`, `project`: `+name` of one of yours",
    }),
    text: z.string().openapi({ description: "The span's text, as typed" }),
  })
  .openapi("QuickAddSpan");

const note = z
  .object({
    ...range,
    code: z.enum(NOTE_CODES).openapi({
      description:
        "`recurrence_unsupported`: a repeat rule tasks cannot store (several weekdays, weekdays only, hourly): it " +
        "stays in the title, nothing repeats; `list_not_found`: `+name` is none of your groups or projects",
    }),
    text: z.string(),
    detail: z.string().openapi({ description: "Why, in English" }),
  })
  .openapi("QuickAddNote");

export const quickAddOutput = z
  .object({
    title: z.string().openapi({ description: "The text without what was recognised (may be empty)" }),
    dueAt: z.iso.datetime().optional().openapi({ description: "A date without a time is due at 23:59 your time" }),
    startAt: z.iso.datetime().optional(),
    startDate: z.iso.date().optional().openapi({ description: "startAt's date in your time zone, as tasks keep it" }),
    priority: z.enum(PRIORITIES).optional(),
    tags: z.array(z.string()),
    recurrence: recurrenceSchema.optional(),
    groupId: z.uuid().optional(),
    projectId: z.uuid().optional(),
    spans: z.array(span).openapi({ description: "What each recognised stretch of the text set, in text order" }),
    notes: z.array(note).openapi({ description: "What was noticed but not applied" }),
  })
  .openapi("QuickAdd", {
    description:
      "Fields for `POST /tasks` (title, dueAt, startDate, priority, tags, recurrence, groupId, projectId), and where " +
      "each came from in the text.",
    example: {
      title: "Buy groceries",
      dueAt: "2026-03-26T08:00:00.000Z",
      priority: "high",
      tags: ["home"],
      groupId: "0b9f3a64-5a2e-4f7e-9f0e-4b7f1b2c3d4e",
      spans: [
        { start: 14, end: 27, kind: "due", text: "tomorrow at 9" },
        { start: 28, end: 33, kind: "priority", text: "!high" },
        { start: 34, end: 39, kind: "tag", text: "#home" },
        { start: 40, end: 49, kind: "group", text: "+Shopping" },
      ],
      notes: [],
    },
  });
export type QuickAddOutput = z.infer<typeof quickAddOutput>;
