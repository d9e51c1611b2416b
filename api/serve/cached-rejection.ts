/**
 * A 4xx answer to a cacheable GET (invalid parameters, an id the data does not hold) or to a GET no route serves,
 * kept like a rendered body so that an agent repeating the same bad URL in a loop costs a lookup, not a
 * validation and a render each time.
 * Only errors that follow from the URL and the data generation are kept (see app.ts); the complete header block
 * is built once, as the fast path's `writeHead` takes it.
 */
import type { CacheEntry } from "./response-cache.ts";

/** Most rejections held, apart from the answers cache so that junk URLs never evict real answers. */
export const MAX_CACHED_REJECTIONS = 256;

/** One rejected URL's answer: status, JSON bytes and headers, for one data generation. */
export class CachedRejection implements CacheEntry {
  readonly status: number;
  readonly bytes: Buffer;
  /** Every header but the per-request ones (rate limit), as the flat `[name, value, …]` list `writeHead` takes. */
  readonly headerBlock: readonly string[];
  readonly generation: number;
  readonly createdAt: number;
  /** True when serving it counts against the per-IP limit, as its route's answers do. */
  readonly limited: boolean;

  constructor(status: number, bytes: Buffer, headerBlock: readonly string[], generation: number, options: { limited: boolean }) {
    this.status = status;
    this.bytes = bytes;
    this.headerBlock = headerBlock;
    this.generation = generation;
    this.createdAt = Date.now();
    this.limited = options.limited;
  }
}
