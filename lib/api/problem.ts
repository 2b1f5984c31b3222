import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "@hono/zod-openapi";
import { isDatabaseUnavailable } from "../db/client";
import { AppError, ERROR_STATUS, type ErrorCode, type FieldError } from "./app-error";

const TITLES: Record<ErrorCode, string> = {
  bad_request: "Bad request",
  validation_failed: "Invalid input",
  unauthenticated: "Sign-in required",
  forbidden: "Not allowed",
  cross_origin_request: "Cross-origin request refused",
  account_disabled: "Account disabled",
  insufficient_scope: "Token scope too narrow",
  session_required: "Sign-in required, not a token",
  not_found: "Not found",
  module_disabled: "Module switched off",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  progress_set_by_hand: "Progress set by hand",
  idempotency_in_progress: "Same request still in progress",
  gone: "Gone",
  precondition_failed: "Changed since you read it",
  invitation_used: "Invitation already used",
  invitation_revoked: "Invitation withdrawn",
  invitation_declined: "Invitation declined",
  invitation_expired: "Invitation expired",
  payload_too_large: "Request body too large",
  idempotency_key_reused: "Idempotency key used for another request",
  unsupported_media_type: "Unsupported media type",
  rate_limited: "Too many requests",
  internal: "Internal server error",
  not_implemented: "Not implemented",
  unavailable: "Service unavailable",
};

/** The RFC 9457 body every error answer carries (`application/problem+json`). */
export const problemSchema = z
  .object({
    type: z.string().openapi({ example: "urn:spolu:problem:validation_failed" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().openapi({ description: "The request path" }),
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    requestId: z.string().optional(),
    errors: z
      .array(
        z.object({
          in: z.enum(["body", "query", "path", "header"]),
          pointer: z.string().openapi({ description: "JSON Pointer (RFC 6901) to the field", example: "/email" }),
          detail: z.string(),
        }),
      )
      .optional()
      .openapi({ description: "Present on validation_failed: one entry per invalid field" }),
  })
  .openapi("Problem");

export type Problem = z.infer<typeof problemSchema>;

const TARGET_LOCATION: Record<string, FieldError["in"]> = {
  json: "body",
  query: "query",
  param: "path",
  header: "header",
};

function pointer(path: readonly PropertyKey[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** A zod failure on one request part as `validation_failed`, with one entry per bad field. */
export function validationError(error: z.ZodError, target: string): AppError {
  const location = TARGET_LOCATION[target] ?? "body";
  const errors: FieldError[] = error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ in: location, pointer: pointer([...issue.path, key]), detail: "Unknown field" }))
      : [{ in: location, pointer: pointer(issue.path), detail: issue.message }],
  );
  const summary = errors.map((e) => `${e.pointer.slice(1) || location}: ${e.detail}`).join("; ");
  return new AppError("validation_failed", summary, { errors });
}

/** How long a client is asked to wait when the database is unreachable, silent or full (503). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's "data exception" class (SQLSTATE 22xxx: a value out of range, text it cannot store, a date outside
 * its calendar). Requests are checked before they reach the database (input-guard.ts, each route's schema): this is
 * the net under those checks, so that a value they missed is the client's 400, not a 500.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === "string" && code.startsWith("22");
}

/** Any thrown value as the AppError the client may see. Unknown errors reveal nothing. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    return new AppError("unavailable", "The database is not answering right now; try again in a few seconds", {
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    });
  }
  if (isDataException(error)) {
    return new AppError("bad_request", "A value in the request is out of range or is not text the service can store");
  }
  if (error instanceof HTTPException) {
    if (error.status === 400) return new AppError("bad_request", error.message || "Bad request");
    if (error.status === 413) return new AppError("payload_too_large", "The request body is too large");
    const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((key) => ERROR_STATUS[key] === error.status);
    if (code && error.status < 500) return new AppError(code, error.message || TITLES[code]);
  }
  return new AppError("internal", "Something went wrong on our side; it has been logged");
}

/** The problem body for an error (also sent inside a stream that fails midway). */
export function problemBody(c: Context, error: AppError): Problem {
  return {
    type: `urn:spolu:problem:${error.code}`,
    title: TITLES[error.code],
    status: error.status,
    detail: error.message,
    instance: c.req.path,
    code: error.code,
    requestId: c.get("requestId"),
    ...(error.extra.errors && { errors: error.extra.errors }),
  };
}

export function problemResponse(c: Context, error: AppError): Response {
  const body = problemBody(c, error);
  const headers: Record<string, string> = { "Content-Type": "application/problem+json; charset=utf-8" };
  if (error.extra.retryAfterSeconds !== undefined) headers["Retry-After"] = String(error.extra.retryAfterSeconds);
  const window = error.extra.rateLimit;
  if (window) {
    headers["RateLimit-Limit"] = String(window.limit);
    headers["RateLimit-Remaining"] = String(window.remaining);
    headers["RateLimit-Reset"] = String(window.resetSeconds);
  }
  if (error.extra.allow) headers.Allow = error.extra.allow.join(", ");
  if (error.extra.etag) headers.ETag = error.extra.etag;
  return c.body(JSON.stringify(body), error.status, headers);
}
