/**
 * The conditional-request cache: per URL (and request headers) the last 200 body with its ETag and
 * Last-Modified, stored as one JSON file written atomically (temp file + rename).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** One cached response. */
export interface CacheEntry {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  etag?: string;
  lastModified?: string;
}

/** File name of the cache entry for a URL and the caller's request headers. */
export function cacheFileFor(dir: string, url: string, headers: Record<string, string>): string {
  const normalized = Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash("sha256").update(JSON.stringify([url, normalized])).digest("hex");
  return join(dir, hash.slice(0, 2), `${hash}.json`);
}

/** The stored entry at `file`, or undefined when there is none or it cannot be read. */
export async function readCacheEntry(file: string, url: string): Promise<CacheEntry | undefined> {
  let raw: string;
  try {
    raw = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const entry = JSON.parse(raw) as CacheEntry;
    // A hash collision or a hand-edited file is a miss, never someone else's body.
    if (entry.url !== url || typeof entry.body !== "string") return undefined;
    if (entry.etag === undefined && entry.lastModified === undefined) return undefined;
    return entry;
  } catch {
    return undefined;
  }
}

/** Store `entry` at `file` atomically: write a temp file beside it, then rename over. */
export async function writeCacheEntry(file: string, entry: CacheEntry): Promise<void> {
  const dir = join(file, "..");
  await mkdir(dir, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(entry), "utf8");
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new Error(`http cache: writing ${file} for ${entry.url} failed`, { cause: error });
  }
}

/** Request headers that make a request conditional on the cached entry. */
export function conditionalHeaders(entry: CacheEntry | undefined): Record<string, string> {
  if (!entry) return {};
  const headers: Record<string, string> = {};
  if (entry.etag !== undefined) headers["if-none-match"] = entry.etag;
  if (entry.lastModified !== undefined) headers["if-modified-since"] = entry.lastModified;
  return headers;
}
