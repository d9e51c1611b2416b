/**
 * The per-client limit of the payment surface (PAYMENT_RATE_LIMIT_PER_MINUTE, default 30), separate from the
 * free-route limit: every POST to a payment route (buy-credits, trial-credits, confirm) and every request on a
 * premium or payment route that presents a bearer token the ledger does not know, and every x402 retry (a
 * confirm by another door: X-Payment-Tx on a premium route), costs one point. Known
 * tokens are remembered (bounded) so paying clients pay no extra lookup; unknown ones are never remembered.
 */
import type { RateDecision, RateLimiter } from "./rate-limit.ts";
import { createRateLimiter } from "./rate-limit.ts";

/** Options for {@link createPaymentThrottle}. */
export interface PaymentThrottleOptions {
  /** Points per client per minute; 0 turns the throttle off. */
  perMinute: number;
  /** True when the ledger knows the token (expired trials included). */
  isKnownBearer?: (token: string) => Promise<boolean>;
  /** Known tokens remembered (default 10 000). */
  rememberTokens?: number;
}

/** The throttle; `check` returns null when the request is not metered. */
export interface PaymentThrottle {
  readonly limiter: RateLimiter;
  check(request: { method: string; tier: string; authorization: string | null; paymentRetry?: boolean }, clientIp: string): Promise<RateDecision | null>;
}

const BEARER = /^Bearer\s+(\S{1,512})\s*$/i;

/** Build the throttle, or null when `perMinute` is 0. */
export function createPaymentThrottle(options: PaymentThrottleOptions): PaymentThrottle | null {
  const limiter = createRateLimiter(options.perMinute);
  if (!limiter) return null;
  const known = new Set<string>();
  const inFlight = new Map<string, Promise<boolean>>();
  const remember = options.rememberTokens ?? 10_000;
  const unknownBearer = async (authorization: string | null): Promise<boolean> => {
    if (!authorization || !options.isKnownBearer) return false;
    const token = BEARER.exec(authorization)?.[1];
    if (!token) return true; // a malformed credential is an unknown one
    if (known.has(token)) return false;
    // Concurrent first calls of one token share one lookup (a burst of 1,000 calls costs one query).
    let lookup = inFlight.get(token);
    if (!lookup) {
      lookup = options.isKnownBearer(token).finally(() => inFlight.delete(token));
      inFlight.set(token, lookup);
    }
    if (!(await lookup)) return true;
    if (!known.has(token)) {
      if (known.size >= remember) known.delete(known.values().next().value!);
      known.add(token);
    }
    return false;
  };
  return {
    limiter,
    async check(request, clientIp) {
      if (request.tier !== "payment" && request.tier !== "premium") return null;
      const metered =
        (request.tier === "payment" && request.method === "POST") || Boolean(request.paymentRetry) || (await unknownBearer(request.authorization));
      return metered ? limiter.check(`payment ${clientIp}`) : null;
    },
  };
}
