import type { Context, MiddlewareHandler } from "hono";
import { AppError, type FieldError } from "./app-error";
import type { ApiEnv } from "./env";
import { requestHeader } from "./request-header";

/*
 * What no field of any request may hold, decided here once for every route (apiRoute adds `inputGuard` just before
 * the route's own validators), whatever its schema says:
 * - NUL (U+0000): PostgreSQL's text types cannot store it;
 * - a lone UTF-16 surrogate (`"\ud800"` in JSON): not Unicode text, refused by PostgreSQL's JSON types;
 * - a date or date-time in ISO 8601 form outside the years 0001 to 9999 (UTC): year 0 does not exist in
 *   PostgreSQL's calendar, and no task is due in year 10000;
 * - JSON nested deeper than MAX_DEPTH.
 * Each is a 400 `validation_failed` whose `errors` name the field (`in` and a JSON Pointer), for the body, the
 * query, the path and the headers the service stores (User-Agent). Keys of JSON objects count as strings too.
 */

export const MAX_DEPTH = 32;
/** At most this many problems are listed: one hostile array must not make a huge answer. */
const MAX_PROBLEMS = 20;

// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** A whole string in ISO 8601 calendar form: a date, or a date-time with an optional offset. */
const ISO_DATE = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;
const FIRST_INSTANT = Date.UTC(1, 0, 1) - 14 * 3600_000; // 0001-01-01 in the farthest time zone
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 14 * 3600_000;

/** Why a string is refused, or null. */
export function stringProblem(value: string): string | null {
  if (NUL.test(value)) return "must not contain NUL (U+0000) characters";
  if (LONE_SURROGATE.test(value)) return "must be valid Unicode text (it holds a lone surrogate)";
  const date = ISO_DATE.exec(value);
  if (date) {
    const year = Number(date[1]);
    if (year < 1 || year > 9999) return "is out of range: dates must be in the years 0001 to 9999";
    const instant = Date.parse(date[4] === undefined ? `${date[0]}T00:00:00Z` : date[0]);
    if (!Number.isNaN(instant) && (instant < FIRST_INSTANT || instant > LAST_INSTANT)) {
      return "is out of range: dates must be in the years 0001 to 9999";
    }
  }
  return null;
}

const pointerPart = (key: string | number) => `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/**
 * Every problem in a parsed JSON value, walked without recursion (a hostile body may be nested thousands deep).
 * `location` is where the value came from; pointers start at `base`.
 */
export function jsonProblems(value: unknown, location: FieldError["in"], base = ""): FieldError[] {
  const problems: FieldError[] = [];
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer: base, depth: 0 }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const { value: item, pointer, depth } = stack.pop()!;
    if (typeof item === "string") {
      const problem = stringProblem(item);
      if (problem) problems.push({ in: location, pointer, detail: problem });
    } else if (item !== null && typeof item === "object") {
      if (depth >= MAX_DEPTH) {
        problems.push({ in: location, pointer, detail: `is nested too deeply (at most ${MAX_DEPTH} levels)` });
        continue;
      }
      const entries = Array.isArray(item) ? item.map((entry, index) => [index, entry] as const) : Object.entries(item);
      for (let at = entries.length - 1; at >= 0; at--) {
        const [key, entry] = entries[at]!;
        const here = pointer + pointerPart(key);
        if (typeof key === "string") {
          const problem = stringProblem(key);
          if (problem) problems.push({ in: location, pointer: here, detail: `the field name ${problem}` });
        }
        stack.push({ value: entry, pointer: here, depth: depth + 1 });
      }
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}

/** The problems of a query string's parameters (names and values as Hono decodes them). */
export function queryProblems(params: Record<string, string[]>): FieldError[] {
  const problems: FieldError[] = [];
  for (const [name, values] of Object.entries(params)) {
    const nameProblem = stringProblem(name);
    if (nameProblem) problems.push({ in: "query", pointer: pointerPart(name), detail: `the parameter name ${nameProblem}` });
    for (const value of values) {
      const problem = stringProblem(value);
      if (problem) problems.push({ in: "query", pointer: pointerPart(name), detail: problem });
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}

function refuse(problems: FieldError[]): never {
  const summary = problems.map((problem) => `${problem.pointer.slice(1) || problem.in}: ${problem.detail}`).join("; ");
  throw new AppError("validation_failed", summary, { errors: problems });
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
/** Request headers that a route may store (sessions, error reports): checked like any other input. */
const STORED_HEADERS = ["user-agent"] as const;

/** Whether the request carries a JSON body (an empty one is the validator's business). */
function hasJsonBody(c: Context<ApiEnv>): boolean {
  const length = requestHeader(c, "content-length");
  const sent = (length !== undefined && length !== "0") || requestHeader(c, "transfer-encoding") !== undefined;
  return sent && JSON_TYPE.test(requestHeader(c, "content-type") ?? "");
}

/**
 * The middleware: checks the path parameters, the query, the stored headers and (when the route takes a JSON body)
 * the body. A body that is not JSON at all is left to the route's validator (400 `bad_request`).
 */
export function inputGuard(options: { jsonBody: boolean }): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const problems: FieldError[] = [];
    for (const [name, value] of Object.entries(c.req.param() as Record<string, string>)) {
      const problem = typeof value === "string" ? stringProblem(value) : null;
      if (problem) problems.push({ in: "path", pointer: pointerPart(name), detail: problem });
    }
    problems.push(...queryProblems(c.req.queries()));
    for (const name of STORED_HEADERS) {
      const value = requestHeader(c, name);
      const problem = value === undefined ? null : stringProblem(value);
      if (problem) problems.push({ in: "header", pointer: pointerPart(name), detail: problem });
    }
    if (options.jsonBody && hasJsonBody(c)) {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        body = undefined; // not JSON: the validator answers it
      }
      problems.push(...jsonProblems(body, "body"));
    }
    if (problems.length > 0) refuse(problems.slice(0, MAX_PROBLEMS));
    await next();
  };
}
