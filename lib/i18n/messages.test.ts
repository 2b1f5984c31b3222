import { readFileSync } from "node:fs";
import path from "node:path";
import IntlMessageFormat from "intl-messageformat";
import { describe, expect, test } from "vitest";
import { DEFAULT_LOCALE, LOCALES, type Locale, languageTag } from "./locales";

type Messages = { [key: string]: string | Messages };

function loadMessages(locale: Locale): Messages {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "../../messages", `${locale}.json`), "utf8"));
}

/** Every message as `Namespace.key` → text; throws on anything that is neither text nor a namespace. */
function flatten(messages: Messages, prefix = ""): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") flat.set(id, value);
    else if (value && typeof value === "object" && !Array.isArray(value)) flatten(value, id).forEach((v, k) => flat.set(k, v));
    else throw new Error(`${id} is neither a message nor a namespace`);
  }
  return flat;
}

/** The parts of intl-messageformat's AST that these checks read (element types from @formatjs). */
interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  pluralType?: "cardinal" | "ordinal";
  children?: Element[];
}
const PLURAL = 6;
const LITERAL = 0;
const POUND = 7;

function walk(elements: Element[], visit: (element: Element) => void) {
  for (const element of elements) {
    visit(element);
    Object.values(element.options ?? {}).forEach((option) => walk(option.value, visit));
    walk(element.children ?? [], visit);
  }
}

function parse(message: string, locale: Locale): Element[] {
  return new IntlMessageFormat(message, languageTag(locale)).getAst() as unknown as Element[];
}

/** The names of a message's arguments (`{count}`, `{days, plural, …}`), sorted. */
function argumentNames(elements: Element[]): string[] {
  const names = new Set<string>();
  walk(elements, (element) => {
    if (element.type !== LITERAL && element.type !== POUND && element.value !== undefined) names.add(element.value);
  });
  return [...names].sort();
}

const english = flatten(loadMessages(DEFAULT_LOCALE));
/**
 * Messages that may read as in English: the product's name, the caption printed on the Enter key, lines that are
 * only their values and punctuation (the task lines of e-mails, notifications and the assistant), and a word two languages
 * share (the default group "Finance" is "Finance" in Czech).
 */
const SAME_IN_EVERY_LANGUAGE = new Set([
  "Common.appName",
  "Shortcuts.enterKey",
  "Email.common.item",
  "Assistant.taskLine",
  "Assistant.taskLineNoDue",
  "Assistant.goalLine",
  "Notifications.taskLine",
  "DefaultGroups.finance",
]);

describe.each(LOCALES)("messages/%s.json", (locale) => {
  const messages = flatten(loadMessages(locale));

  test("has exactly the English keys", () => {
    expect([...messages.keys()].sort()).toEqual([...english.keys()].sort());
  });

  test("every message is a valid ICU message with the English arguments", () => {
    for (const [id, text] of messages) {
      const englishText = english.get(id);
      if (englishText === undefined) continue;
      let ast: Element[];
      try {
        ast = parse(text, locale);
      } catch (error) {
        throw new Error(`${locale} ${id} does not parse: ${String(error)}`);
      }
      expect(argumentNames(ast), `${locale} ${id}`).toEqual(argumentNames(parse(englishText, DEFAULT_LOCALE)));
    }
  });

  test("plural messages have a form for every whole number", () => {
    for (const [id, text] of messages) {
      walk(parse(text, locale), (element) => {
        if (element.type !== PLURAL || !element.options) return;
        const rules = new Intl.PluralRules(languageTag(locale), { type: element.pluralType ?? "cardinal" });
        const missing = new Set<string>();
        for (let n = 0; n <= 1000; n++) {
          const category = rules.select(n);
          if (!(`=${n}` in element.options) && !(category in element.options)) missing.add(category);
        }
        expect([...missing], `${locale} ${id} lacks plural forms`).toEqual([]);
      });
    }
  });

  test.skipIf(locale === DEFAULT_LOCALE)("is translated, not copied from English", () => {
    const copied = [...messages].filter(([id, text]) => !SAME_IN_EVERY_LANGUAGE.has(id) && english.get(id) === text);
    expect(copied.map(([id]) => id)).toEqual([]);
  });

  test("formats its plural messages", () => {
    const format = (id: string, values: Record<string, number>) =>
      new IntlMessageFormat(messages.get(id) ?? "", languageTag(locale)).format(values);
    expect(format("Common.languageCount", { count: LOCALES.length })).toContain(String(LOCALES.length));
  });
});

describe("messages for values the API defines", () => {
  test("every webhook event type has a name on the webhook settings page, in every language", async () => {
    const { WEBHOOK_EVENT_TYPES } = await import("../webhooks/schema");
    for (const locale of LOCALES) {
      const flat = flatten(loadMessages(locale));
      const missing = Object.keys(WEBHOOK_EVENT_TYPES).filter(
        (type) => !flat.has(`WebhookSettings.eventNames.${type.replaceAll(".", "_")}`),
      );
      expect(missing, locale).toEqual([]);
    }
  });
});
