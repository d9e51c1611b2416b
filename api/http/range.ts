/**
 * One file on disk as an HTTP answer, the way static file servers answer it: a strong ETag (inode, size and
 * mtime of the open file), Last-Modified, If-None-Match / If-Modified-Since → 304, `Range: bytes=…` → 206 with
 * Content-Range (range-parser, the parser of `send` and Express), If-Range, 416 with `Content-Range: bytes
 * *\/<size>` for a range past the end, HEAD without a body, and a body streamed from the open file descriptor
 * in 64 KB reads pulled by the client (never the whole file in memory). The file is opened once per request:
 * a file renamed over it meanwhile (an atomic rebuild) changes nothing for a download in progress.
 */
import { open, type FileHandle } from "node:fs/promises";
import { STATUS_CODES } from "node:http";
import rangeParser from "range-parser";
import { errorBody } from "./errors.ts";
import { JSON_TYPE, respond } from "./respond.ts";

/** What to serve and how to label it. */
export interface FileToServe {
  path: string;
  contentType: string;
  /** Cache-Control of the 200/206/304 answers. */
  cacheControl: string;
}

/** Bytes per read of the body stream. */
const CHUNK_BYTES = 64 * 1024;
/** A Range header longer than this is not a single byte range (the only kind answered with 206). */
const MAX_RANGE_HEADER = 200;

/** The strong validator of a file: inode, size and mtime (ms), so an atomic replacement always changes it. */
export function fileEtag(stats: { ino: number; size: number; mtimeMs: number }): string {
  return `"${stats.ino.toString(36)}-${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}"`;
}

/** Whether an If-None-Match list names `etag` (weak comparison, as RFC 9110 asks for this header). */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === opaque);
}

/**
 * The answer for `request` (GET or HEAD) from the file at `file.path`; null when there is no regular file
 * there (the caller answers 404).
 */
export async function fileResponse(request: Request, file: FileToServe): Promise<Response | null> {
  let handle: FileHandle;
  try {
    handle = await open(file.path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
    throw error;
  }
  let streaming = false;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return null;
    const size = stats.size;
    const etag = fileEtag(stats);
    const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000);
    const headers = new Headers({
      "Content-Type": file.contentType,
      "Accept-Ranges": "bytes",
      ETag: etag,
      "Last-Modified": lastModified.toUTCString(),
      "Cache-Control": file.cacheControl,
    });
    if (notModified(request.headers, etag, lastModified)) return respond(null, 304, headers);

    const range = wantedRange(request.headers, size, etag, lastModified);
    if (range === "unsatisfiable") {
      const error = new Headers({ "Content-Type": JSON_TYPE, "Content-Range": `bytes */${size}`, "Cache-Control": "no-store" });
      const body = errorBody("range_not_satisfiable", `the Range header names no byte of this ${size}-byte file; ask for bytes 0-${Math.max(0, size - 1)}`);
      return respond(JSON.stringify(body), 416, error);
    }
    const [start, end] = range ?? [0, size - 1];
    const length = size === 0 ? 0 : end - start + 1;
    headers.set("Content-Length", String(length));
    if (range) headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
    const status = range ? 206 : 200;
    if (request.method === "HEAD" || length === 0) return respond(null, status, headers);
    streaming = true;
    return new Response(fileStream(handle, start, length), { status, statusText: STATUS_CODES[status], headers });
  } finally {
    if (!streaming) await handle.close();
  }
}

/** True when a conditional GET may answer 304: If-None-Match hits, or (without it) If-Modified-Since is not older than the file. */
function notModified(headers: Headers, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) return ifNoneMatchHits(ifNoneMatch, etag);
  const since = headers.get("if-modified-since");
  if (!since) return false;
  const t = Date.parse(since);
  return !Number.isNaN(t) && lastModified.getTime() <= t;
}

/**
 * The one byte range to send: null for the whole file (no Range, a Range that is malformed, not in bytes or
 * names several ranges, or an If-Range that no longer matches), `[start, end]` inclusive, or "unsatisfiable".
 */
function wantedRange(headers: Headers, size: number, etag: string, lastModified: Date): [number, number] | null | "unsatisfiable" {
  const header = headers.get("range");
  if (!header || header.length > MAX_RANGE_HEADER) return null;
  const ifRange = headers.get("if-range");
  if (ifRange !== null && !ifRangeHolds(ifRange.trim(), etag, lastModified)) return null;
  if (hasInvalidSpec(header)) return null;
  const parsed = rangeParser(size, header, { combine: true });
  if (parsed === -1) return "unsatisfiable";
  if (parsed === -2 || parsed.type !== "bytes" || parsed.length !== 1) return null;
  const only = parsed[0]!;
  return [only.start, only.end];
}

/**
 * True when a byte range names a last position before its first (`bytes=10-5`): an invalid range (RFC 9110
 * §14.1.1), which the header's parser would report as unsatisfiable (416); like any malformed Range it gets the
 * whole file.
 */
function hasInvalidSpec(header: string): boolean {
  const eq = header.indexOf("=");
  if (eq < 0) return false;
  return header
    .slice(eq + 1)
    .split(",")
    .some((spec) => {
      const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(spec);
      return m !== null && Number(m[2]) < Number(m[1]);
    });
}

/** If-Range holds when it is this file's strong ETag, or exactly its Last-Modified date (RFC 9110 §13.1.5). */
function ifRangeHolds(value: string, etag: string, lastModified: Date): boolean {
  if (value.startsWith('"') || value.startsWith("W/")) return value === etag;
  const t = Date.parse(value);
  return !Number.isNaN(t) && t === lastModified.getTime();
}

/** `length` bytes from `start`, read from the open file as the client pulls them; the handle closes at the end, on cancel or on error. */
function fileStream(handle: FileHandle, start: number, length: number): ReadableStream<Uint8Array> {
  let position = start;
  const end = start + length;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const want = Math.min(CHUNK_BYTES, end - position);
        const buffer = Buffer.allocUnsafe(want);
        const { bytesRead } = await handle.read(buffer, 0, want, position);
        if (bytesRead === 0) throw new Error(`the file ended at byte ${position}, before the ${end} bytes its size promised`);
        position += bytesRead;
        controller.enqueue(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead));
        if (position >= end) {
          await close();
          controller.close();
        }
      } catch (error) {
        await close();
        controller.error(error);
      }
    },
    async cancel() {
      await close();
    },
  });
}
