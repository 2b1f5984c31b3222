import type { Locale } from "../i18n/locales";

/**
 * The groups every user has from registration, in their first order. db/migrations/0001_tasks.sql gives
 * users who registered before groups existed the same rows (defaults.test.ts checks the names agree).
 */
export const DEFAULT_GROUPS = [
  { key: "personal", names: { en: "Personal", cs: "Osobní", he: "אישי", ru: "Личное", ua: "Особисте" } },
  { key: "work", names: { en: "Work", cs: "Práce", he: "עבודה", ru: "Работа", ua: "Робота" } },
  { key: "family", names: { en: "Family", cs: "Rodina", he: "משפחה", ru: "Семья", ua: "Сім’я" } },
  { key: "home", names: { en: "Home", cs: "Domácnost", he: "בית", ru: "Дом", ua: "Дім" } },
  { key: "shopping", names: { en: "Shopping", cs: "Nákupy", he: "קניות", ru: "Покупки", ua: "Покупки" } },
  { key: "health", names: { en: "Health", cs: "Zdraví", he: "בריאות", ru: "Здоровье", ua: "Здоров’я" } },
  { key: "study", names: { en: "Study", cs: "Studium", he: "לימודים", ru: "Учёба", ua: "Навчання" } },
  { key: "finance", names: { en: "Finance", cs: "Finance", he: "כספים", ru: "Финансы", ua: "Фінанси" } },
] as const satisfies readonly { key: string; names: Record<Locale, string> }[];

export type DefaultGroupKey = (typeof DEFAULT_GROUPS)[number]["key"];

/** The most groups one user may hold, archived ones included. */
export const MAX_GROUPS = 100;
/** Per group: the most time zones and GPS locations its schedule may list. */
export const MAX_TIME_ZONES = 10;
export const MAX_LOCATIONS = 20;
