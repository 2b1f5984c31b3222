import type { Locale } from "../i18n/locales";
import { inEveryLocale, serverMessages, type ServerMessages } from "../i18n/server-messages";
import type { Priority } from "../tasks/vocabulary";

/*
 * The three built-in templates every user sees: read-only, with fixed ids, every text in the five languages.
 * The texts are the BuiltInTemplates namespace of messages/<locale>.json, by template key, then task and subtask
 * number (from 1); lib/i18n/messages.test.ts checks that every language has them all. Here are the rest: ids, order,
 * priorities and due offsets. `dueAfter` is days after the apply date at a wall-clock time in the user's time zone
 * (so across a DST change 18:00 stays 18:00).
 */

type Texts = Record<Locale, string>;

export interface BuiltInTask {
  title: Texts;
  priority: Priority;
  dueAfter: { days: number; hours: number; minutes: number } | null;
  subtasks: Texts[];
}

export interface BuiltInTemplate {
  id: string;
  key: string;
  name: Texts;
  description: Texts;
  tasks: BuiltInTask[];
}

type TemplateKey = keyof ServerMessages["BuiltInTemplates"];
type TaskTexts = { title: string; subtasks: Record<string, string> };

const due = (days: number, hours: number, minutes = 0) => ({ days, hours, minutes });

/** A template with its texts from the messages: its tasks in order, each with the subtasks the messages list. */
function builtIn(id: string, key: TemplateKey, tasks: Pick<BuiltInTask, "priority" | "dueAfter">[]): BuiltInTemplate {
  const texts = (messages: ServerMessages) => messages.BuiltInTemplates[key];
  const task = (messages: ServerMessages, number: number) =>
    (texts(messages).tasks as Record<string, TaskTexts>)[String(number)]!;
  return {
    id,
    key,
    name: inEveryLocale((messages) => texts(messages).name),
    description: inEveryLocale((messages) => texts(messages).description),
    tasks: tasks.map(({ priority, dueAfter }, index) => ({
      title: inEveryLocale((messages) => task(messages, index + 1).title),
      priority,
      dueAfter,
      subtasks: Object.keys(task(serverMessages("en"), index + 1).subtasks).map((number) =>
        inEveryLocale((messages) => task(messages, index + 1).subtasks[number]!),
      ),
    })),
  };
}

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  builtIn("7e3c2a10-0001-4000-8000-000000000001", "moving-house", [
    { priority: "high", dueAfter: due(1, 18) },
    { priority: "normal", dueAfter: due(10, 20) },
    { priority: "normal", dueAfter: due(14, 12) },
    { priority: "urgent", dueAfter: due(21, 9) },
  ]),
  builtIn("7e3c2a10-0002-4000-8000-000000000002", "weekly-review", [
    { priority: "normal", dueAfter: due(0, 10) },
    { priority: "normal", dueAfter: due(0, 11) },
    { priority: "high", dueAfter: due(0, 12) },
  ]),
  builtIn("7e3c2a10-0003-4000-8000-000000000003", "onboarding", [
    { priority: "high", dueAfter: due(0, 17) },
    { priority: "normal", dueAfter: due(1, 9) },
    { priority: "normal", dueAfter: due(3, 15) },
    { priority: "normal", dueAfter: due(14, 14) },
  ]),
];

export function findBuiltInTemplate(id: string): BuiltInTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((template) => template.id === id);
}
