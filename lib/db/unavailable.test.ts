import { describe, expect, test } from "vitest";
import { isDatabaseUnavailable } from "./client";

/** Errors as pg, pg-pool and Drizzle (which wraps the driver's error as `cause`) throw them. */
const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });

describe("isDatabaseUnavailable", () => {
  test.each([
    ["no free connection in time", new Error("timeout exceeded when trying to connect")],
    ["a connection that could not open in time", new Error("Connection terminated due to connection timeout")],
    ["a lost connection", new Error("Connection terminated unexpectedly")],
    ["no answer to a statement", new Error("Query read timeout")],
    ["refused", withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["statement_timeout", withCode("57014", "canceling statement due to statement timeout")],
    ["lock_timeout", withCode("55P03", "canceling statement due to lock timeout")],
    ["too many connections", withCode("53300")],
    ["the server shutting down", withCode("57P01")],
    ["wrapped by Drizzle", wrapped(new Error("Query read timeout"))],
  ])("%s: yes (503)", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each([
    ["a unique violation", withCode("23505", "duplicate key value violates unique constraint")],
    ["a syntax error", withCode("42601")],
    ["a programming error", new TypeError("Cannot read properties of undefined")],
    ["nothing", undefined],
    ["wrapped by Drizzle", wrapped(withCode("23503"))],
  ])("%s: no", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
