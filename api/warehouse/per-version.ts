/**
 * A value computed once per warehouse version (lists of known model ids, providers …): recomputed after the
 * reader rebuilds its views over a changed set of day files, shared by every request in between.
 */
import type { WarehouseReader } from "./reader-contract.ts";

const caches = new WeakMap<WarehouseReader, Map<string, { version: number; value: Promise<unknown> }>>();

/** `compute()` once per reader version and `key`; a failed computation is tried again on the next call. */
export function perVersion<T>(reader: WarehouseReader, key: string, compute: () => Promise<T>): Promise<T> {
  let cache = caches.get(reader);
  if (!cache) {
    cache = new Map();
    caches.set(reader, cache);
  }
  const version = reader.version;
  const hit = cache.get(key);
  if (hit && hit.version === version) return hit.value as Promise<T>;
  const value = compute();
  const entry = { version, value };
  cache.set(key, entry);
  value.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return value;
}
