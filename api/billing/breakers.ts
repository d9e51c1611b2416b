/**
 * Per-token circuit breakers, in memory (per API process): they stop a runaway client loop from spending its
 * credits. Tripped calls answer 429 `breaker_open` with Retry-After and are never charged. Rejected calls do
 * not count towards the windows, so a client that waits Retry-After seconds always gets through.
 */

/** The documented thresholds (also published in /.well-known/agent-fair-trade.json). */
export const BREAKER_THRESHOLDS = {
  /** The same token sending the same request hash more than `max` times within `windowSeconds`. */
  identical_request: { max: 5, windowSeconds: 10 },
  /** More than `max` charged calls for one token within `windowSeconds`. */
  burn_rate: { max: 60, windowSeconds: 60 },
} as const;

/** Thresholds a breaker set runs with. */
export interface BreakerThresholds {
  identical_request: { max: number; windowSeconds: number };
  burn_rate: { max: number; windowSeconds: number };
}

/**
 * Thresholds from the environment: BREAKER_IDENTICAL_MAX / BREAKER_IDENTICAL_WINDOW_SECONDS and
 * BREAKER_BURN_MAX / BREAKER_BURN_WINDOW_SECONDS override the documented defaults (positive integers; load
 * tests raise them, since a benchmark is exactly the runaway loop the breakers stop).
 */
export function breakerThresholdsFromEnv(env: Record<string, string | undefined> = process.env): BreakerThresholds {
  const read = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^[1-9]\d{0,9}$/.test(raw)) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  return {
    identical_request: {
      max: read("BREAKER_IDENTICAL_MAX", BREAKER_THRESHOLDS.identical_request.max),
      windowSeconds: read("BREAKER_IDENTICAL_WINDOW_SECONDS", BREAKER_THRESHOLDS.identical_request.windowSeconds),
    },
    burn_rate: {
      max: read("BREAKER_BURN_MAX", BREAKER_THRESHOLDS.burn_rate.max),
      windowSeconds: read("BREAKER_BURN_WINDOW_SECONDS", BREAKER_THRESHOLDS.burn_rate.windowSeconds),
    },
  };
}

/** A breaker decision. */
export type BreakerDecision =
  | { open: false }
  | { open: true; breaker: "identical_request" | "burn_rate"; retryAfterSeconds: number; message: string };

/** Timestamps (ms) kept for one key, oldest first. */
class Window {
  readonly times: number[] = [];
  prune(now: number, windowMs: number): void {
    while (this.times.length > 0 && this.times[0]! <= now - windowMs) this.times.shift();
  }
}

/** The two breakers for every token. */
export class Breakers {
  readonly thresholds: BreakerThresholds;
  private readonly identical = new Map<string, Window>();
  private readonly charged = new Map<string, Window>();
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(options: { thresholds?: BreakerThresholds; now?: () => number } = {}) {
    this.thresholds = options.thresholds ?? BREAKER_THRESHOLDS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Check both breakers before a paid call and, when both are closed, count the call towards the
   * identical-request window.
   */
  admit(tokenId: string, requestHash: string): BreakerDecision {
    const now = this.now();
    this.sweep(now);
    const { identical_request: idT, burn_rate: burnT } = this.thresholds;
    const burn = this.charged.get(tokenId);
    burn?.prune(now, burnT.windowSeconds * 1000);
    if (burn && burn.times.length >= burnT.max) {
      return {
        open: true,
        breaker: "burn_rate",
        retryAfterSeconds: retryAfter(burn.times[0]!, burnT.windowSeconds, now),
        message: `burn-rate breaker open: more than ${burnT.max} charged calls within ${burnT.windowSeconds} s for this token; nothing was charged`,
      };
    }
    const key = `${tokenId} ${requestHash}`;
    const same = this.identical.get(key) ?? new Window();
    same.prune(now, idT.windowSeconds * 1000);
    if (same.times.length >= idT.max) {
      return {
        open: true,
        breaker: "identical_request",
        retryAfterSeconds: retryAfter(same.times[0]!, idT.windowSeconds, now),
        message: `identical-request breaker open: the same request more than ${idT.max} times within ${idT.windowSeconds} s for this token; nothing was charged`,
      };
    }
    same.times.push(now);
    this.identical.set(key, same);
    return { open: false };
  }

  /** Count one charged call towards the burn-rate window. */
  recordCharge(tokenId: string): void {
    const now = this.now();
    const w = this.charged.get(tokenId) ?? new Window();
    w.prune(now, this.thresholds.burn_rate.windowSeconds * 1000);
    w.times.push(now);
    this.charged.set(tokenId, w);
  }

  /** Drop empty windows now and then so memory follows active tokens only. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const longest = Math.max(this.thresholds.identical_request.windowSeconds, this.thresholds.burn_rate.windowSeconds) * 1000;
    for (const map of [this.identical, this.charged]) {
      for (const [key, w] of map) {
        w.prune(now, longest);
        if (w.times.length === 0) map.delete(key);
      }
    }
  }
}

function retryAfter(oldest: number, windowSeconds: number, now: number): number {
  return Math.max(1, Math.ceil((oldest + windowSeconds * 1000 - now) / 1000));
}
