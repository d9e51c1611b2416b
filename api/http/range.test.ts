import { randomBytes } from "node:crypto";
import { mkdtemp, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileEtag, fileResponse, ifNoneMatchHits } from "./range.ts";

let dir = "";
let path = "";
/** 200 KB: more than three 64 KB reads. */
const content = randomBytes(200 * 1024);
const file = () => ({ path, contentType: "application/vnd.apache.parquet", cacheControl: "public, max-age=60" });
const get = (headers: Record<string, string> = {}, method = "GET") => fileResponse(new Request("http://x/f", { method, headers }), file());
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-range-"));
  path = join(dir, "2026-01-01.parquet");
  await writeFile(path, content);
  await utimes(path, new Date("2026-01-02T03:04:05Z"), new Date("2026-01-02T03:04:05Z"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("fileResponse()", () => {
  it("answers 200 with the whole file, its length, type, strong ETag, Last-Modified and Accept-Ranges", async () => {
    const res = (await get())!;
    expect(res.status).toBe(200);
    expect(res.statusText).toBe("OK");
    expect(res.headers.get("content-length")).toBe(String(content.length));
    expect(res.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toBe(fileEtag(await stat(path)));
    expect(res.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(res.headers.get("last-modified")).toBe("Fri, 02 Jan 2026 03:04:05 GMT");
    expect(res.headers.get("content-range")).toBeNull();
    expect((await bytes(res)).equals(content)).toBe(true);
  });

  it("streams the body in reads of at most 64 KB, pulled by the reader", async () => {
    const reader = (await get())!.body!.getReader();
    const sizes: number[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) sizes.push(r.value.byteLength);
    expect(sizes.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(content.length);
  });

  it("answers one byte range with 206 and Content-Range: bytes a-b, an open end and a suffix", async () => {
    const mid = (await get({ range: "bytes=100-199" }))!;
    expect(mid.status).toBe(206);
    expect(mid.statusText).toBe("Partial Content");
    expect(mid.headers.get("content-range")).toBe(`bytes 100-199/${content.length}`);
    expect(mid.headers.get("content-length")).toBe("100");
    expect((await bytes(mid)).equals(content.subarray(100, 200))).toBe(true);

    const tail = (await get({ range: `bytes=${content.length - 10}-` }))!;
    expect(tail.headers.get("content-range")).toBe(`bytes ${content.length - 10}-${content.length - 1}/${content.length}`);
    expect((await bytes(tail)).equals(content.subarray(content.length - 10))).toBe(true);

    const suffix = (await get({ range: "bytes=-8" }))!;
    expect(suffix.status).toBe(206);
    expect((await bytes(suffix)).equals(content.subarray(content.length - 8))).toBe(true);

    const past = (await get({ range: `bytes=0-${content.length * 2}` }))!;
    expect(past.status).toBe(206);
    expect(past.headers.get("content-range")).toBe(`bytes 0-${content.length - 1}/${content.length}`);
  });

  it("answers a range past the end with 416, Content-Range: bytes */size and a JSON error", async () => {
    const res = (await get({ range: `bytes=${content.length}-` }))!;
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${content.length}`);
    expect(await res.json()).toMatchObject({ ok: false, error: "range_not_satisfiable" });
  });

  it("answers the whole file (200) for a malformed or invalid Range (last before first), another unit, several ranges or an overlong header", async () => {
    for (const range of ["bytes=abc", "items=0-5", "bytes=0-1,10-11", `bytes=${"0-1,".repeat(100)}0-1`, "bytes=10-5", "bytes=0-1, 9-3"]) {
      const res = (await get({ range }))!;
      expect(res.status, range).toBe(200);
      expect(res.headers.get("content-length"), range).toBe(String(content.length));
      await res.body?.cancel();
    }
    const combined = (await get({ range: "bytes=0-9,10-19" }))!;
    expect(combined.status).toBe(206);
    expect(combined.headers.get("content-range")).toBe(`bytes 0-19/${content.length}`);
  });

  it("honours If-Range: the current ETag or Last-Modified keeps the range, a stale one sends the whole file", async () => {
    const etag = (await get({}, "HEAD"))!.headers.get("etag")!;
    expect((await get({ range: "bytes=0-9", "if-range": etag }))!.status).toBe(206);
    expect((await get({ range: "bytes=0-9", "if-range": "Fri, 02 Jan 2026 03:04:05 GMT" }))!.status).toBe(206);
    const stale = (await get({ range: "bytes=0-9", "if-range": '"old-etag"' }))!;
    expect(stale.status).toBe(200);
    expect((await bytes(stale)).length).toBe(content.length);
    expect((await get({ range: "bytes=0-9", "if-range": "Thu, 01 Jan 2026 00:00:00 GMT" }))!.status).toBe(200);
    expect((await get({ range: "bytes=0-9", "if-range": `W/${etag}` }))!.status).toBe(200);
  });

  it("answers 304 to a matching If-None-Match (before any Range) or a not-older If-Modified-Since", async () => {
    const etag = (await get({}, "HEAD"))!.headers.get("etag")!;
    const res = (await get({ "if-none-match": `"other", ${etag}`, range: "bytes=0-1" }))!;
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(etag);
    expect(await res.text()).toBe("");
    expect((await get({ "if-none-match": '"other"' }))!.status).toBe(200);
    expect((await get({ "if-modified-since": "Fri, 02 Jan 2026 03:04:05 GMT" }))!.status).toBe(304);
    expect((await get({ "if-modified-since": "Fri, 02 Jan 2026 03:04:04 GMT" }))!.status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect((await get({ "if-none-match": '"other"', "if-modified-since": "Fri, 02 Jan 2026 03:04:05 GMT" }))!.status).toBe(200);
  });

  it("answers HEAD with the headers of the GET and no body", async () => {
    const head = (await get({ range: "bytes=5-14" }, "HEAD"))!;
    expect(head.status).toBe(206);
    expect(head.headers.get("content-length")).toBe("10");
    expect(head.body).toBeNull();
  });

  it("changes the ETag when the file is replaced, and resolves null for a missing file or a folder", async () => {
    const before = (await get({}, "HEAD"))!.headers.get("etag");
    const other = join(dir, "other.parquet");
    await writeFile(other, content);
    await rename(other, path);
    expect((await get({}, "HEAD"))!.headers.get("etag")).not.toBe(before);
    expect(await fileResponse(new Request("http://x/"), { ...file(), path: join(dir, "missing.parquet") })).toBeNull();
    expect(await fileResponse(new Request("http://x/"), { ...file(), path: dir })).toBeNull();
    expect(await fileResponse(new Request("http://x/"), { ...file(), path: join(path, "below") })).toBeNull();
  });
});

describe("ifNoneMatchHits()", () => {
  it("compares weakly, in a list, and * matches any", () => {
    expect(ifNoneMatchHits('"a", W/"b"', '"b"')).toBe(true);
    expect(ifNoneMatchHits("*", '"b"')).toBe(true);
    expect(ifNoneMatchHits('"a"', '"b"')).toBe(false);
    expect(ifNoneMatchHits(null, '"b"')).toBe(false);
  });
});
