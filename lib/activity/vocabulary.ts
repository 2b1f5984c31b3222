/**
 * The activity monitor's vocabulary and limits, shared by the API's schemas and the pages (plain constants: safe to
 * import in the browser bundle, unlike schema.ts which pulls in zod).
 */

/**
 * The categories a client files an app under. A fixed set, so that summaries add up the same way for every client;
 * anything else is refused (clients map their platform's categories onto these, `other` when none fits).
 */
export const ACTIVITY_CATEGORIES = [
  "social",
  "communication",
  "games",
  "video",
  "music",
  "reading",
  "news",
  "education",
  "productivity",
  "shopping",
  "health",
  "other",
] as const;
export type ActivityCategory = (typeof ACTIVITY_CATEGORIES)[number];

/** Categories whose time the built-in analysis suggests moving to focus blocks (not work, learning or health). */
export const LEISURE_CATEGORIES: readonly ActivityCategory[] = ["social", "games", "video", "music", "news", "shopping"];

/** Records in one `POST /activity/records`. */
export const BATCH_MAX = 500;
export const CLIENT_ID_MAX = 100;
export const APP_MAX = 200;
/** The longest time range one record may cover. */
export const RECORD_RANGE_MAX_HOURS = 24;
/** How far a record may end after the server's clock (phones' clocks drift). */
export const CLOCK_SKEW_SECONDS = 300;
/** The most days a summary or an analysis may cover. */
export const WINDOW_DAYS_MAX = 366;
/** Days the summary and the analysis cover by default: the last seven, today included. */
export const DEFAULT_WINDOW_DAYS = 7;
/** Late-night use: from 23:00 to 05:00 on the user's wall clock. */
export const LATE_NIGHT_FROM_HOUR = 23;
export const LATE_NIGHT_UNTIL_HOUR = 5;
/** Apps named as the top ones in a summary. */
export const TOP_APPS = 5;
