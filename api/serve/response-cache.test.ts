import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CachedBody, ResponseCache } from "./response-cache.ts";

const body = (text: string, gen = 1, at = 0) => new CachedBody(new TextEncoder().encode(text), "application/json", gen, { now: at });

describe("ResponseCache", () => {
  it("get() misses on another generation or past the TTL", () => {
    const c = new ResponseCache({ ttlMs: 100 });
    c.set("k", body("a", 1, 0));
    expect(c.get("k", 1, 50)).toBeDefined();
    expect(c.get("k", 2, 50)).toBeUndefined();
    c.set("k", body("a", 1, 0));
    expect(c.get("k", 1, 500)).toBeUndefined();
  });

  it("keeps a missed entry for peek() until it is replaced", () => {
    const c = new ResponseCache({ ttlMs: 100 });
    const old = body("a", 1, 0);
    c.set("k", old);
    expect(c.get("k", 1, 500)).toBeUndefined();
    expect(c.get("k", 2, 50)).toBeUndefined();
    expect(c.peek("k")).toBe(old);
    const fresh = body("a", 1, 500);
    c.set("k", fresh);
    expect(c.get("k", 1, 550)).toBe(fresh);
    expect(c.size).toBe(1);
  });

  it("set() evicts the least recently used entry past maxEntries", () => {
    const c = new ResponseCache({ maxEntries: 2, ttlMs: 1e9 });
    c.set("a", body("a"));
    c.set("b", body("b"));
    c.get("a", 1, 0);
    c.set("c", body("c"));
    expect(c.get("b", 1, 0)).toBeUndefined();
    expect(c.get("a", 1, 0)).toBeDefined();
    expect(c.size).toBe(2);
  });

  it("never evicts an entry hit at least once every maxEntries / 2 insertions, and evicts one that is not", () => {
    const c = new ResponseCache({ maxEntries: 10, ttlMs: 1e9 });
    c.set("hot", body("hot"));
    c.set("cold", body("cold"));
    for (let i = 0; i < 100; i++) {
      c.set(`k${i}`, body(`k${i}`));
      if (i % 5 === 4) expect(c.get("hot", 1, 0)).toBeDefined();
    }
    expect(c.peek("hot")).toBeDefined();
    expect(c.peek("cold")).toBeUndefined();
    expect(c.size).toBe(10);
  });

  it("moves a hit only once it has aged past half the bound: the entries evicted next are the oldest placed", () => {
    const c = new ResponseCache({ maxEntries: 4, ttlMs: 1e9 });
    for (const k of ["a", "b", "c", "d"]) c.set(k, body(k));
    // "d" was placed last (0 insertions since): a hit leaves it where it is. "a" has aged 3 insertions, past 2: a
    // hit moves it to the newest end, so "b" and then "c" go first.
    c.get("d", 1, 0);
    c.get("a", 1, 0);
    c.set("e", body("e"));
    c.set("f", body("f"));
    expect([..."abcdef"].filter((k) => c.peek(k) !== undefined)).toEqual(["a", "d", "e", "f"]);
  });
});

describe("CachedBody.encoded()", () => {
  it("compresses large bodies once and leaves small ones alone", () => {
    const big = body("x".repeat(5000));
    expect(big.encoded("gzip")!.byteLength).toBeLessThan(200);
    expect(big.encoded("br")).toBe(big.encoded("br"));
    expect(body("{}").encoded("br")).toBeNull();
  });

  it("reuses the compressed copies of an earlier body only when its bytes are the same", () => {
    const text = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ i, name: `item ${i}` })) });
    const earlier = body(text, 1, 0);
    const br = earlier.encoded("br")!;
    const gzip = earlier.encoded("gzip")!;
    const again = body(text, 2, 30_000);
    again.adoptEncodings(earlier);
    expect(again.encoded("br")).toBe(br);
    expect(again.encoded("gzip")).toBe(gzip);
    // One byte changed: the copies are made anew, and decode to the new bytes.
    const changed = body(text.replace("item 299", "item 298"), 2, 30_000);
    changed.adoptEncodings(earlier);
    expect(changed.encoded("br")).not.toBe(br);
    expect(brotliDecompressSync(changed.encoded("br")!).toString()).toBe(text.replace("item 299", "item 298"));
  });
});
