import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/**
 * An instant as the ISO text JavaScript writes (`toISOString`: UTC, milliseconds, `Z`), computed by PostgreSQL, so
 * that a read can answer it without a `Date` in between. Null stays null. Milliseconds are cut, not rounded, as
 * JavaScript cuts the microseconds PostgreSQL keeps.
 */
export const isoText = (column: SQLWrapper): SQL<string> =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
