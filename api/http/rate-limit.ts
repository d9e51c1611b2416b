/**
 * Per-IP limit on free routes (rate-limiter-flexible, in memory, fixed 60 s windows). Headers follow the
 * IETF RateLimit draft in its separate-field form: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset
 * (seconds until the window resets) and RateLimit-Policy (`<limit>;w=60`); a refusal adds Retry-After.
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/** Outcome of one request against the limit. */
export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

/** A limiter for `perMinute` requests per key; `check` consumes one point. */
export interface RateLimiter {
  readonly perMinute: number;
  check(key: string): Promise<RateDecision>;
  /** The headers of `key`'s current window without consuming a point (null when it has none). */
  peek(key: string): Promise<Record<string, string> | null>;
}

/**
 * The RateLimit-* headers of a call under two limits at once (a preview's daily quota and the per-IP minute):
 * Limit, Remaining and Reset of the one with fewer calls left, the one a client runs into first, and both
 * policies in RateLimit-Policy, as the draft lists several quota policies. Other headers of `first` are kept.
 */
export function combineRateHeaders(first: Record<string, string>, second: Record<string, string>): Record<string, string> {
  const left = (h: Record<string, string>) => Number(h["RateLimit-Remaining"] ?? Number.POSITIVE_INFINITY);
  if (second["RateLimit-Remaining"] === undefined) return first;
  const closest = left(second) < left(first) ? second : first;
  const policies = [first["RateLimit-Policy"], second["RateLimit-Policy"]].filter((p): p is string => Boolean(p));
  return {
    ...first,
    "RateLimit-Limit": closest["RateLimit-Limit"]!,
    "RateLimit-Remaining": closest["RateLimit-Remaining"]!,
    "RateLimit-Reset": closest["RateLimit-Reset"]!,
    ...(policies.length > 0 ? { "RateLimit-Policy": policies.join(", ") } : {}),
  };
}

/** Build the limiter, or null when `perMinute` is 0 (limiting off). */
export function createRateLimiter(perMinute: number): RateLimiter | null {
  if (perMinute <= 0) return null;
  const limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  const headersFor = (res: RateLimiterRes): Record<string, string> => ({
    "RateLimit-Limit": String(perMinute),
    "RateLimit-Remaining": String(Math.max(0, res.remainingPoints)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))),
    "RateLimit-Policy": `${perMinute};w=60`,
  });
  return {
    perMinute,
    async check(key) {
      try {
        const res = await limiter.consume(key);
        return { allowed: true, headers: headersFor(res), retryAfterSeconds: 0 };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retry = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        return {
          allowed: false,
          headers: { ...headersFor(rejection), "Retry-After": String(retry) },
          retryAfterSeconds: retry,
        };
      }
    },
    async peek(key) {
      const res = await limiter.get(key);
      return res ? headersFor(res) : null;
    },
  };
}
