/** Every error code the API answers with, and its HTTP status. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  /** A cookie-authenticated request that changes something, sent from another site (lib/api/same-origin.ts). */
  cross_origin_request: 403,
  /** Signing in to an account an administrator disabled (lib/admin), by any method. */
  account_disabled: 403,
  /** A personal access token without the `write` scope, sent with anything but GET, HEAD or OPTIONS. */
  insufficient_scope: 403,
  /** An action that needs a sign-in (a session), tried with a personal access token. */
  session_required: 403,
  not_found: 404,
  /** A route of a feature module that is switched off (lib/modules): the problem names the module. */
  module_disabled: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** Applying a study plan would replace a goal's progress that was set by hand (lib/goals/study-plan.ts). */
  progress_set_by_hand: 409,
  /** A request with the `Idempotency-Key` of one that has not answered yet (lib/api/idempotency.ts). */
  idempotency_in_progress: 409,
  gone: 410,
  /** `If-Match` names a version that is no longer the current one (lib/api/conditional.ts). */
  precondition_failed: 412,
  /** An invitation link that was accepted already (they work once), withdrawn, or older than 7 days. */
  invitation_used: 410,
  invitation_revoked: 410,
  invitation_declined: 410,
  invitation_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** An `Idempotency-Key` sent again with another request (another body, method or path). */
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One invalid input: where it was (`body`, `query`, `path`, `header`) and a JSON Pointer to the field. */
export interface FieldError {
  in: "body" | "query" | "path" | "header";
  pointer: string;
  detail: string;
}

/** A rate limiter's window as the `RateLimit-*` headers tell it (lib/rate-limit/limiter.ts). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface AppErrorExtra {
  errors?: FieldError[];
  /** Sent as Retry-After with `rate_limited` and `unavailable`. */
  retryAfterSeconds?: number;
  /** Sent as `RateLimit-Limit`, `-Remaining` and `-Reset` with `rate_limited`, like every other answer carries them. */
  rateLimit?: RateLimitState;
  /** Sent as `Allow` with `method_not_allowed` (RFC 9110 §15.5.6). */
  allow?: string[];
  /** Sent as `ETag` with `precondition_failed`: the resource's current tag. */
  etag?: string;
}

/**
 * The one error type domain code throws. The API turns it into an RFC 9457 problem; services never
 * build HTTP responses themselves. Another user's resource is `not_found`, never `forbidden`.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: AppErrorExtra = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): (typeof ERROR_STATUS)[ErrorCode] {
    return ERROR_STATUS[this.code];
  }
}

/** PostgreSQL's unique_violation, for repo.ts files that turn it into `conflict`. */
export function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return (error as { code?: string })?.code === "23505" || cause?.code === "23505";
}

/** A 400 for one field that only the domain can judge (a group that is not yours, a date out of order). */
export function invalidField(location: FieldError["in"], pointer: string, detail: string): AppError {
  return new AppError("validation_failed", `${pointer.slice(1).replace(/\//g, ".")}: ${detail}`, {
    errors: [{ in: location, pointer, detail }],
  });
}
