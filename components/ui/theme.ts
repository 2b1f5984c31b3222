/**
 * The colour themes a visitor can pick in the header. Without a choice the pages follow the system's
 * (prefers-color-scheme, see app/globals.css). The choice lives in a cookie rather than in localStorage so that
 * the server renders `<html data-theme>` with the page: the first paint already has the right colours.
 * A plain module of constants: the layout (server) and the switcher (browser) both use it.
 */
export const THEMES = ["light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
/** What the switcher offers: a theme, or following the system. */
export type ThemeChoice = Theme | "system";

export const THEME_COOKIE = { name: "spolu_theme", maxAge: 365 * 24 * 60 * 60 } as const;

/** The theme a cookie value names, or null (no choice, or an unknown value). */
export function themeOf(value: string | undefined): Theme | null {
  return THEMES.find((theme) => theme === value) ?? null;
}
