/**
 * The cookie that remembers a browser's language: next-intl's proxy reads it to send `/` (and any path without a
 * locale) to that language, its language switcher writes it, and the API sets it to the profile's language on
 * every sign-in and when the profile's language changes. It holds a language tag (`uk`, not `ua`), like every
 * locale next-intl handles, and must stay readable by scripts (the switcher writes it through document.cookie).
 */
export const LOCALE_COOKIE = {
  name: "NEXT_LOCALE",
  /** A year: a preference, not a session, so it outlives the browser session as the sign-in does. */
  maxAge: 365 * 24 * 60 * 60,
} as const;
