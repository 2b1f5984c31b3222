import { createTranslator, type NamespaceKeys, type NestedKeyOf } from "use-intl/core";
import cs from "../../messages/cs.json";
import en from "../../messages/en.json";
import he from "../../messages/he.json";
import ru from "../../messages/ru.json";
import ua from "../../messages/ua.json";
import { LOCALES, languageTag, localeOrDefault, type Locale } from "./locales";

/*
 * The one way server-side code speaks the user's language: the messages of messages/<locale>.json (the pages'
 * catalogue, checked by lib/i18n/messages.test.ts for missing keys, arguments and plural forms) through use-intl's
 * translator. E-mails, notifications, the built-in assistant and the other texts the server writes each read their
 * own namespace. A locale Spolu does not speak falls back to the default one, as the pages do.
 *
 * Server-only: this module holds every language's catalogue. Pages hand the browser only the namespaces their client
 * components read (components/i18n/client-messages.ts), so the server's namespaces never reach it.
 */

export type ServerMessages = typeof en;

/**
 * The namespaces only the server reads: e-mails, the built-in assistant, notifications, the default groups' names and
 * the built-in templates' texts. No page hands them to the browser (server-messages.test.ts checks that no page or
 * client component names one).
 */
export const SERVER_NAMESPACES = ["Email", "Assistant", "Notifications", "DefaultGroups", "BuiltInTemplates"] as const;
/** A namespace of the catalogue (`Email`) or a part of one (`Goals.planner`). */
export type ServerNamespace = NamespaceKeys<ServerMessages, NestedKeyOf<ServerMessages>>;

/** What `serverTranslator` gives: `t(key, values)` with the keys of its namespace. */
export type ServerTranslator<Namespace extends ServerNamespace> = ReturnType<typeof createTranslator<ServerMessages, Namespace>>;

const CATALOGUES: Readonly<Record<Locale, ServerMessages>> = { en, cs, he, ru, ua };

/** Every message of a locale (the default locale's when Spolu does not speak it). */
export function serverMessages(locale: string): ServerMessages {
  return CATALOGUES[localeOrDefault(locale)];
}

/**
 * A translator for one namespace in a user's language. `timeZone` is the zone dates in messages are formatted in
 * (use-intl's default otherwise).
 */
export function serverTranslator<const Namespace extends ServerNamespace>(
  locale: string,
  namespace: Namespace,
  options: { timeZone?: string } = {},
): ServerTranslator<Namespace> {
  const code = localeOrDefault(locale);
  return createTranslator({
    locale: languageTag(code),
    messages: CATALOGUES[code],
    namespace,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  });
}

/**
 * One text in every language, for data that keeps all five (a default group's names, a built-in template's texts):
 * `pick` finds it in a locale's messages.
 */
export function inEveryLocale(pick: (messages: ServerMessages) => string): Record<Locale, string> {
  return Object.fromEntries(LOCALES.map((locale) => [locale, pick(CATALOGUES[locale])])) as Record<Locale, string>;
}
