import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { AppError } from "../api/app-error";
import { config } from "../config";
import { redis } from "../redis/client";

export interface LimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

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
    });
  }
}

const LIMITERS = Symbol.for("spolu.limiters");
type Holder = { [LIMITERS]?: Map<string, Limiter> };

/** The process-wide limiter of each name (created on first use from the configured numbers). */
export function limiter(name: "general" | "strict" | "login-account"): Limiter {
  const holder = globalThis as Holder;
  const limiters = (holder[LIMITERS] ??= new Map());
  let found = limiters.get(name);
  if (!found) {
    const c = config();
    found =
      name === "general"
        ? new Limiter(name, c.RATE_LIMIT_POINTS, c.RATE_LIMIT_WINDOW_SECONDS)
        : new Limiter(name, c.AUTH_RATE_LIMIT_POINTS, c.AUTH_RATE_LIMIT_WINDOW_SECONDS);
    limiters.set(name, found);
  }
  return found;
}

/** Forgets every limiter (after closing Redis, so that a restart in the same process starts clean). */
export function resetLimiters(): void {
  delete (globalThis as Holder)[LIMITERS];
}
