import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { AppError, type RateLimitState } from "../api/app-error";
import { config } from "../config";
import { redis } from "../redis/client";

export type LimitState = RateLimitState;

/**
 * A fixed-window counter per key: in Redis when REDIS_URL is set (all processes share it, with this
 * process's memory as insurance while Redis is down), otherwise in memory.
 */
export class Limiter {
  private readonly store: RateLimiterAbstract;

  constructor(
    readonly name: string,
    readonly points: number,
    readonly windowSeconds: number,
  ) {
    const memory = new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix: name });
    const client = redis();
    this.store = client
      ? new RateLimiterRedis({
          storeClient: client,
          points,
          duration: windowSeconds,
          keyPrefix: `${config().REDIS_PREFIX}rl:${name}`,
          insuranceLimiter: memory,
        })
      : memory;
  }

  /** Counts one request for `key`; throws a `rate_limited` AppError once the window's points are used. */
  async consume(key: string): Promise<LimitState> {
    try {
      return this.state(await this.store.consume(key));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw this.limited(rejection);
    }
  }

  /** Throws `rate_limited` when `key` has no points left, without counting anything. */
  async check(key: string): Promise<void> {
    const res = await this.store.get(key);
    if (res && res.consumedPoints >= this.points) throw this.limited(res);
  }

  /** How many requests `key` has made in the current window, those over the limit included. */
  async used(key: string): Promise<number> {
    return (await this.store.get(key))?.consumedPoints ?? 0;
  }

  /** Counts a failure against `key` (for example a wrong password) without ever throwing. */
  async penalise(key: string): Promise<void> {
    await this.store.penalty(key, 1);
  }

  async reset(key: string): Promise<void> {
    await this.store.delete(key);
  }

  private state(res: RateLimiterRes): LimitState {
    return {
      limit: this.points,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    };
  }

  private limited(res: RateLimiterRes): AppError {
    const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new AppError("rate_limited", `Too many requests; try again in ${retryAfterSeconds} s`, {
      retryAfterSeconds,
      rateLimit: { limit: this.points, remaining: 0, resetSeconds: retryAfterSeconds },
    });
  }
}

const LIMITERS = Symbol.for("spolu.limiters");
type Holder = { [LIMITERS]?: { settings: ReturnType<typeof config>; limiters: Map<string, Limiter> } };

/** Every limiter by name, and its points and window (seconds) from the configuration. docs/security.md explains each. */
const LIMITS = {
  /** Every API request, per user (or address when signed out). */
  general: (c) => [c.RATE_LIMIT_POINTS, c.RATE_LIMIT_WINDOW_SECONDS],
  /** Registration, verify/accept endpoints, per endpoint and user (or address). */
  strict: (c) => [c.AUTH_RATE_LIMIT_POINTS, c.AUTH_RATE_LIMIT_WINDOW_SECONDS],
  /** Client error reports, per address whoever is signed in. */
  "error-report": (c) => [c.ERROR_REPORT_LIMIT_POINTS, c.ERROR_REPORT_LIMIT_WINDOW_SECONDS],
  /** Failed sign-ins to one account from one address: a short lockout. */
  "login-account-address": (c) => [c.LOGIN_FAILURE_LIMIT, c.LOGIN_FAILURE_WINDOW_SECONDS],
  /** Failed sign-ins to one account from one address over a day: the longer lockout. */
  "login-account-address-day": (c) => [c.LOGIN_LOCKOUT_FAILURES, c.LOGIN_LOCKOUT_SECONDS],
  /** Failed sign-ins from one address to any accounts (password spraying), per hour. */
  "login-address": (c) => [c.LOGIN_ADDRESS_FAILURES_PER_HOUR, 3600],
  /** Failed sign-ins to one account from any addresses (a distributed guess), per hour. */
  "login-account": (c) => [c.LOGIN_ACCOUNT_FAILURES_PER_HOUR, 3600],
  /** Password-reset requests from one client address, per hour. */
  "password-reset-address": (c) => [c.PASSWORD_RESET_ADDRESS_PER_HOUR, 3600],
  /** Password-reset requests for one email address (whether or not it has an account), per hour. */
  "password-reset-email": (c) => [c.PASSWORD_RESET_EMAIL_PER_HOUR, 3600],
  /** Verification emails a signed-in user asks for again, per hour. */
  "verify-email-resend": (c) => [c.VERIFY_EMAIL_RESEND_PER_HOUR, 3600],
} satisfies Record<string, (c: ReturnType<typeof config>) => [number, number]>;

export type LimiterName = keyof typeof LIMITS;

/**
 * The process-wide limiter of each name (created on first use from the configured numbers; made anew when the
 * configuration is loaded again, as a test that starts a second server with other numbers does).
 */
export function limiter(name: LimiterName): Limiter {
  const holder = globalThis as Holder;
  const settings = config();
  if (holder[LIMITERS]?.settings !== settings) holder[LIMITERS] = { settings, limiters: new Map() };
  const { limiters } = holder[LIMITERS];
  let found = limiters.get(name);
  if (!found) {
    const [points, windowSeconds] = LIMITS[name](settings);
    found = new Limiter(name, points, windowSeconds);
    limiters.set(name, found);
  }
  return found;
}

/** Forgets every limiter (after closing Redis, so that a restart in the same process starts clean). */
export function resetLimiters(): void {
  delete (globalThis as Holder)[LIMITERS];
}
