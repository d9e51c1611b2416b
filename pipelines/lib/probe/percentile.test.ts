import { describe, expect, it } from "vitest";
import { percentile } from "./percentile.ts";

describe("percentile", () => {
  it("percentile() picks the nearest-rank value of an unsorted list", () => {
    const values = [15, 20, 35, 40, 50];
    expect(percentile(values, 5)).toBe(15);
    expect(percentile(values, 30)).toBe(20);
    expect(percentile(values, 40)).toBe(20);
    expect(percentile(values, 50)).toBe(35);
    expect(percentile(values, 100)).toBe(50);
    expect(percentile([50, 15, 40, 35, 20], 50)).toBe(35);
  });

  it("percentile() of 1..100 gives p itself, and p99 of 1..1000 is 990", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    const thousand = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    expect(percentile(thousand, 99)).toBe(990);
  });

  it("percentile() of one value is that value; of none is null", () => {
    expect(percentile([7.5], 50)).toBe(7.5);
    expect(percentile([7.5], 99)).toBe(7.5);
    expect(percentile([], 50)).toBeNull();
  });

  it("percentile() leaves its input unsorted and rejects p outside (0, 100]", () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
    expect(() => percentile(values, 0)).toThrow(RangeError);
    expect(() => percentile(values, 101)).toThrow(/got 101/);
    expect(() => percentile(values, Number.NaN)).toThrow(RangeError);
  });
});
