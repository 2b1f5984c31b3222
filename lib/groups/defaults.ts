import type { Locale } from "../i18n/locales";
import { inEveryLocale } from "../i18n/server-messages";

const KEYS = ["personal", "work", "family", "home", "shopping", "health", "study", "finance"] as const;
export type DefaultGroupKey = (typeof KEYS)[number];

/**
 * The groups every user has from registration, in their first order, each with its name in every language (the
 * DefaultGroups namespace of messages/<locale>.json: they are stored with the group, and the user may rename them).
 * db/migrations/0001_tasks.sql gives users who registered before groups existed the same rows (defaults.test.ts
 * checks the names agree).
 */
export const DEFAULT_GROUPS: readonly { key: DefaultGroupKey; names: Record<Locale, string> }[] = KEYS.map((key) => ({
  key,
  names: inEveryLocale((messages) => messages.DefaultGroups[key]),
}));

/** The most groups one user may hold, archived ones included. */
export const MAX_GROUPS = 100;
/** Per group: the most time zones and GPS locations its schedule may list. */
export const MAX_TIME_ZONES = 10;
export const MAX_LOCATIONS = 20;
