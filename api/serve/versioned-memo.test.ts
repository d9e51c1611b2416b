import { describe, expect, it } from "vitest";
import { VersionedMemo } from "./versioned-memo.ts";

describe("VersionedMemo", () => {
  it("renders once per key and data version, and drops everything when the version changes", async () => {
    const cache = new VersionedMemo<{ n: number }>(10);
    let renders = 0;
    const render = async () => ({ n: ++renders });
    expect(await cache.get("1:0", "k", render)).toEqual({ n: 1 });
    expect(await cache.get("1:0", "k", render)).toEqual({ n: 1 });
    expect(await cache.get("1:0", "other", render)).toEqual({ n: 2 });
    expect(await cache.get("2:0", "k", render)).toEqual({ n: 3 });
    expect(await cache.get("2:1", "k", render)).toEqual({ n: 4 });
  });

  it("computes once for callers that ask for the same key and version at the same time", async () => {
    const cache = new VersionedMemo<{ n: number }>(10);
    let renders = 0;
    let open!: () => void;
    const render = async () => {
      const n = ++renders;
      await new Promise<void>((resolve) => (open = resolve));
      return { n };
    };
    const waiting = Array.from({ length: 20 }, () => cache.get("v1", "k", render));
    await expect.poll(() => renders).toBe(1);
    open();
    const values = await Promise.all(waiting);
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toEqual({ n: 1 });
    // Another version is another computation, even for the same key.
    const next = cache.get("v2", "k", render);
    await expect.poll(() => renders).toBe(2);
    open();
    expect(await next).toEqual({ n: 2 });
  });

  it("holds at most its bound, evicting the oldest entry", async () => {
    const cache = new VersionedMemo<{ n: number }>(2);
    let renders = 0;
    const render = async () => ({ n: ++renders });
    await cache.get("v", "a", render);
    await cache.get("v", "b", render);
    await cache.get("v", "c", render);
    expect(await cache.get("v", "b", render)).toEqual({ n: 2 });
    expect(await cache.get("v", "a", render)).toEqual({ n: 4 });
  });
});

describe("VersionedMemo failures", () => {
  it("keeps nothing of a computation that throws, and refuses a bound below 1", async () => {
    const memo = new VersionedMemo<number>(4);
    await expect(memo.get("v", "k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(memo.size).toBe(0);
    expect(await memo.get("v", "k", async () => 7)).toBe(7);
    expect(() => new VersionedMemo(0)).toThrow(RangeError);
  });
});
