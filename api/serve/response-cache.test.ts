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
});

describe("CachedBody.encoded()", () => {
  it("compresses large bodies once and leaves small ones alone", () => {
    const big = body("x".repeat(5000));
    expect(big.encoded("gzip")!.byteLength).toBeLessThan(200);
    expect(big.encoded("br")).toBe(big.encoded("br"));
    expect(body("{}").encoded("br")).toBeNull();
  });
});
