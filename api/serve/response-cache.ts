/**
 * Static-first cache of rendered free responses: the serialized bytes, a strong ETag, and gzip/brotli copies
 * made on first demand. Entries are keyed by route and normalized input, carry the data generation (snapshots
 * and warehouse: data-generation.ts) they were rendered from, and live at most `ttlMs` (fields computed
 * against the clock, such as `stale`, stay honest). Bounded: the least recently used entry goes first.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { etagOf, type Encoding } from "../http/encoding.ts";

/** Bodies smaller than this are sent uncompressed. */
const MIN_COMPRESS_BYTES = 256;

/**
 * Brotli quality of the cached copies. Compression runs on the event loop at a body's first miss after each
 * data change; measured on this service's bodies, quality 6 takes a quarter to a sixteenth of quality 9's time
 * for output 0.1 to 3 % larger (`/api/news` 1.4 ms against 22.6, `/api/meta` 8.6 against 50,
 * `/openapi.json` 20 against 78).
 */
const BROTLI_QUALITY = 6;

/** One rendered response body and its encoded variants. */
export class CachedBody {
  readonly bytes: Uint8Array;
  readonly etag: string;
  readonly contentType: string;
  readonly generation: number;
  readonly createdAt: number;
  /** True when serving it counts against the per-IP limit (free, discovery and preview tiers). */
  readonly limited: boolean;
  /** Response headers already built for this body, by encoding, max-age and status (answers without per-request headers). */
  readonly replyHeaders = new Map<string, Readonly<Record<string, string>>>();
  /** The Node fast path's complete header blocks, by encoding and status (see nodeHeaderBlock in app.ts). */
  readonly nodeHeaders: ({ maxAge: number; block: readonly string[] } | undefined)[] = [];
  #br: Uint8Array | undefined;
  #gzip: Uint8Array | undefined;

  constructor(bytes: Uint8Array, contentType: string, generation: number, options: { limited?: boolean; now?: number } = {}) {
    const now = options.now ?? Date.now();
    this.limited = options.limited ?? true;
    this.bytes = bytes;
    this.contentType = contentType;
    this.generation = generation;
    this.createdAt = now;
    this.etag = etagOf(bytes);
  }

  /**
   * Take over the compressed copies of `earlier` when it holds exactly these bytes: an entry rendered again
   * after its 30 s mostly renders the same bytes, and compressing is the costly part of such a miss.
   */
  adoptEncodings(earlier: CachedBody): void {
    if (earlier === this || earlier.etag !== this.etag || Buffer.compare(earlier.bytes, this.bytes) !== 0) return;
    this.#br ??= earlier.#br;
    this.#gzip ??= earlier.#gzip;
  }

  /** The body in `encoding`, or null when the body is too small to be worth compressing. */
  encoded(encoding: Encoding): Uint8Array | null {
    if (this.bytes.byteLength < MIN_COMPRESS_BYTES) return null;
    if (encoding === "br") {
      this.#br ??= brotliCompressSync(this.bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: this.bytes.byteLength,
        },
      });
      return this.#br;
    }
    this.#gzip ??= gzipSync(this.bytes, { level: 9 });
    return this.#gzip;
  }
}

/** Options for {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** Most entries held (default 500). */
  maxEntries?: number;
  /** Longest life of an entry in ms (default 30 000). */
  ttlMs?: number;
}

/** What the cache holds: an answer rendered from one data generation at one time. */
export interface CacheEntry {
  readonly generation: number;
  readonly createdAt: number;
}

/** An entry and its place in the recency order: the insertion count when it was last (re)inserted. */
interface Slot<T> {
  body: T;
  seq: number;
}

/**
 * LRU map of cache key → entry (a CachedBody unless typed otherwise), valid for one data generation. Recency is
 * kept coarsely: a hit moves its entry to the newest end only once the entry has aged past half the bound
 * (maxEntries / 2 insertions since it was last placed). An entry that recent cannot be the next evicted, so an
 * entry hit at least once every maxEntries / 2 insertions is never evicted, as in an exact LRU, while a hit on a
 * settled cache costs one lookup instead of a delete and a re-insert (the free fast path's only per-request cache
 * work).
 */
export class ResponseCache<T extends CacheEntry = CachedBody> {
  readonly maxEntries: number;
  readonly ttlMs: number;
  #map = new Map<string, Slot<T>>();
  /** Insertions so far (each set, and each hit that moved its entry). */
  #seq = 0;
  readonly #refreshAfter: number;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 500;
    this.ttlMs = options.ttlMs ?? 30_000;
    this.#refreshAfter = Math.max(1, Math.floor(this.maxEntries / 2));
  }

  get size(): number {
    return this.#map.size;
  }

  /**
   * The live entry for `key` rendered from `generation`, kept among the recently used. An entry of another
   * generation or past its TTL is a miss but stays until it is replaced or evicted, so the render that replaces
   * it can reuse its compressed copies ({@link peek}, {@link CachedBody.adoptEncodings}).
   */
  get(key: string, generation: number, now = Date.now()): T | undefined {
    const slot = this.#map.get(key);
    if (slot === undefined) return undefined;
    const hit = slot.body;
    if (hit.generation !== generation || now - hit.createdAt > this.ttlMs) return undefined;
    if (this.#seq - slot.seq >= this.#refreshAfter) {
      this.#map.delete(key);
      slot.seq = ++this.#seq;
      this.#map.set(key, slot);
    }
    return hit;
  }

  /** The entry held for `key`, live or not, without refreshing it. */
  peek(key: string): T | undefined {
    return this.#map.get(key)?.body;
  }

  /** Store an entry as the most recently used, evicting the least recently used ones past the bound. */
  set(key: string, body: T): void {
    this.#map.delete(key);
    this.#map.set(key, { body, seq: ++this.#seq });
    while (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.#map.delete(oldest.value);
    }
  }

  /** Drop everything (on snapshot reload). */
  clear(): void {
    this.#map.clear();
  }
}
