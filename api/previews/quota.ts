/**
 * Free preview quotas: calls per client per UTC day per preview, counted in Postgres (`preview_usage`,
 * migration 0170) so every server process shares one count. A call is one atomic statement —
 * INSERT … ON CONFLICT DO UPDATE SET count = count + 1 WHERE count < limit RETURNING count — so concurrent calls
 * from any number of processes admit exactly `limit` per day; a refused call writes nothing. Over the limit:
 * 429 `preview_limit_reached` with Retry-After until the next UTC midnight and where to buy credits. A lost
 * database: 503 `state_unavailable`, like the paid paths.
 */
import { randomBytes } from "node:crypto";
import { ApiError } from "../registry/types.ts";
import type { Sql } from "../state/types.ts";
import { stateUnavailable } from "../state/unavailable.ts";
import { BUY_CREDITS_PATH, PAYMENT_INFO_PATH, type PreviewSpec } from "./catalog.ts";
import { clientHash } from "./client-key.ts";

/** What `rate_limit.scope` says: one count per client address (an IPv6 /64) per UTC day. */
export const PREVIEW_SCOPE = "ip_per_utc_day";

/** The outcome of an admitted preview call. */
export interface PreviewAllowance {
  route: string;
  limit: number;
  /** Calls made today including this one. */
  used: number;
  remaining: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** The next UTC midnight, when the count starts again. */
  resetsAt: Date;
  /** Whole seconds until `resetsAt` (at least 1). */
  resetSeconds: number;
}

/** The UTC day of an instant, YYYY-MM-DD. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The next UTC midnight after `now`. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Whole seconds from `now` to the next UTC midnight, rounded up, at least 1. */
export function secondsUntilUtcMidnight(now: Date): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
}

/** Options of a PreviewQuota. */
export interface PreviewQuotaOptions {
  /** The clock (default: the current time); tests fix it. */
  now?: () => Date;
  /** The 32-byte hash key (default: the one stored in `preview_settings`, created by the first process). */
  key?: Uint8Array;
}

/** The RateLimit-Policy of a preview's quota: its calls per UTC day (the window in seconds; it resets at midnight). */
export function previewPolicy(limit: number): string {
  return `${limit};w=86400`;
}

/** The 429 for a client over a preview's daily limit. */
export function previewLimitReached(preview: PreviewSpec, now: Date): ApiError {
  const retryAfter = secondsUntilUtcMidnight(now);
  const resetsAt = nextUtcMidnight(now).toISOString();
  return new ApiError(
    429,
    "preview_limit_reached",
    `the free preview ${preview.route} allows ${preview.limit} calls per IP per UTC day and they are used; it resets at ${resetsAt} (in ${retryAfter} s). ` +
      `The full answer is ${preview.premiumEndpoint}, paid in credits: see ${PAYMENT_INFO_PATH}, buy with POST ${BUY_CREDITS_PATH}.`,
    {
      rate_limit: { limit: preview.limit, remaining: 0, scope: PREVIEW_SCOPE },
      resets_at: resetsAt,
      retry_after_seconds: retryAfter,
      upgrade: upgradeHint(preview),
    },
    {
      "Retry-After": String(retryAfter),
      "RateLimit-Limit": String(preview.limit),
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": String(retryAfter),
      // The daily quota's policy, not the per-minute limiter's that the app's headers would otherwise leave here.
      "RateLimit-Policy": previewPolicy(preview.limit),
    },
  );
}

/** Where a preview's full answer is and how to pay for it. */
export function upgradeHint(preview: PreviewSpec): { premium_endpoint: string; payment_info: string; buy_credits: string; preview_shows: string } {
  return { premium_endpoint: preview.premiumEndpoint, payment_info: PAYMENT_INFO_PATH, buy_credits: BUY_CREDITS_PATH, preview_shows: preview.shows };
}

/** The preview counters of one database. */
export class PreviewQuota {
  readonly #db: Sql;
  readonly #now: () => Date;
  #key: Promise<Uint8Array> | undefined;

  constructor(db: Sql, options: PreviewQuotaOptions = {}) {
    this.#db = db;
    this.#now = options.now ?? (() => new Date());
    if (options.key !== undefined) {
      if (options.key.length !== 32) throw new RangeError(`preview quota: the hash key must be 32 bytes, got ${options.key.length}`);
      this.#key = Promise.resolve(options.key);
    }
  }

  /**
   * Count one call of `preview` by the client at `address`: resolves to the allowance when it is within the
   * day's limit; throws ApiError 429 `preview_limit_reached` when it is not, 503 `state_unavailable` when the
   * database cannot be reached.
   */
  async consume(preview: PreviewSpec, address: string): Promise<PreviewAllowance> {
    if (!Number.isInteger(preview.limit) || preview.limit < 1) throw new RangeError(`preview ${preview.route}: limit must be a positive integer, got ${preview.limit}`);
    const now = this.#now();
    const day = utcDay(now);
    try {
      const hash = clientHash(await this.#hashKey(), day, address);
      const { rows } = await this.#db.query<{ count: number }>(
        `INSERT INTO preview_usage (day, ip_hash, route, count) VALUES ($1, $2, $3, 1)
         ON CONFLICT (day, ip_hash, route) DO UPDATE SET count = preview_usage.count + 1
         WHERE preview_usage.count < $4
         RETURNING count`,
        [day, hash, preview.route, preview.limit],
      );
      const used = rows[0]?.count;
      if (used === undefined) throw previewLimitReached(preview, now);
      return allowance(preview, used, now);
    } catch (error) {
      throw stateUnavailable(error) ?? error;
    }
  }

  /**
   * The client's allowance of `preview` today without counting a call (a HEAD: the headers a GET would get,
   * no data, so none of the quota is used): `used` is the calls made so far. Throws ApiError 429
   * `preview_limit_reached` when none is left, as the GET would, and 503 `state_unavailable` when the database
   * cannot be reached.
   */
  async peek(preview: PreviewSpec, address: string): Promise<PreviewAllowance> {
    const now = this.#now();
    const day = utcDay(now);
    try {
      const hash = clientHash(await this.#hashKey(), day, address);
      const { rows } = await this.#db.query<{ count: number }>(`SELECT count FROM preview_usage WHERE day = $1 AND ip_hash = $2 AND route = $3`, [day, hash, preview.route]);
      const used = rows[0]?.count ?? 0;
      if (used >= preview.limit) throw previewLimitReached(preview, now);
      return allowance(preview, used, now);
    } catch (error) {
      throw stateUnavailable(error) ?? error;
    }
  }

  /** The shared hash key: read from `preview_settings`, written there first by whichever process needs it first. */
  #hashKey(): Promise<Uint8Array> {
    this.#key ??= loadHashKey(this.#db).catch((error: unknown) => {
      this.#key = undefined;
      throw error;
    });
    return this.#key;
  }
}

/** The allowance of a client who has made `used` calls of `preview` today. */
function allowance(preview: PreviewSpec, used: number, now: Date): PreviewAllowance {
  return {
    route: preview.route,
    limit: preview.limit,
    used,
    remaining: Math.max(0, preview.limit - used),
    day: utcDay(now),
    resetsAt: nextUtcMidnight(now),
    resetSeconds: secondsUntilUtcMidnight(now),
  };
}

/** Read the stored key, creating it (32 random bytes) when absent; every process ends up with the same one. */
async function loadHashKey(db: Sql): Promise<Uint8Array> {
  await db.query(`INSERT INTO preview_settings (id, ip_hash_key) VALUES (true, $1) ON CONFLICT (id) DO NOTHING`, [randomBytes(32)]);
  const { rows } = await db.query<{ ip_hash_key: Buffer }>(`SELECT ip_hash_key FROM preview_settings WHERE id`);
  const key = rows[0]?.ip_hash_key;
  if (!key || key.length !== 32) throw new Error("preview quota: preview_settings holds no 32-byte key");
  return new Uint8Array(key);
}
