/**
 * Recently seen bearer tokens of this process, so a paid call in a loop does not look its token up on every
 * request. Safe because nothing here decides money: the group commit re-reads the balance and the expiry
 * under the token's row lock. A cached balance only lets a call skip the early 402; a cached balance too low
 * to pay is never trusted (the caller reads the ledger again). Bounded (least recently used goes first) and
 * short-lived.
 */
import type { TokenInfo } from "../state/types.ts";

/** Options of {@link TokenCache}. */
export interface TokenCacheOptions {
  /** Most tokens held (default 10,000). */
  maxEntries?: number;
  /** Longest life of an entry in ms (default 5,000). */
  ttlMs?: number;
}

/** bearer token → what the ledger said about it, and when. */
export class TokenCache {
  readonly #map = new Map<string, { info: TokenInfo; at: number }>();
  readonly #max: number;
  readonly #ttl: number;

  constructor(options: TokenCacheOptions = {}) {
    this.#max = options.maxEntries ?? 10_000;
    this.#ttl = options.ttlMs ?? 5_000;
  }

  /** The cached token, or undefined when absent or too old. */
  get(bearer: string, now = Date.now()): TokenInfo | undefined {
    const hit = this.#map.get(bearer);
    if (!hit) return undefined;
    this.#map.delete(bearer);
    if (now - hit.at > this.#ttl) return undefined;
    this.#map.set(bearer, hit);
    return hit.info;
  }

  /** Remember a token as the ledger just gave it. */
  set(bearer: string, info: TokenInfo, now = Date.now()): void {
    this.#map.delete(bearer);
    this.#map.set(bearer, { info, at: now });
    while (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.#map.delete(oldest.value);
    }
  }

  /** Record the balance a settled call left (the entry keeps its age). */
  updateBalance(bearer: string, balance: number): void {
    const hit = this.#map.get(bearer);
    if (hit) hit.info = { ...hit.info, balance };
  }

  /** Drop a token (its cached balance was too low to trust). */
  delete(bearer: string): void {
    this.#map.delete(bearer);
  }
}
