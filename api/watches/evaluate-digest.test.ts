import { describe, expect, it } from "vitest";
import { evaluateDigest, lastClosedPeriod, pricingSummary } from "./evaluate-digest.ts";
import type { ModelPrices } from "./values.ts";

const p = (provider: string, input: number, output: number): ModelPrices => ({ provider, inputPrice: input, outputPrice: output, blended: (3 * input + output) / 4 });

describe("lastClosedPeriod", () => {
  it("daily: yesterday 00:00 UTC to today 00:00 UTC", () => {
    expect(lastClosedPeriod("daily", new Date("2026-11-23T21:40:00Z"))).toEqual({ from: "2026-11-22T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" });
  });

  it("weekly: the last full Monday-to-Monday week (2026-11-23 is a Monday)", () => {
    expect(lastClosedPeriod("weekly", new Date("2026-11-23T00:00:00Z"))).toEqual({ from: "2026-11-16T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" });
    expect(lastClosedPeriod("weekly", new Date("2026-11-29T23:59:59Z"))).toEqual({ from: "2026-11-16T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" });
  });
});

describe("pricingSummary", () => {
  it("lists changed fields with delta_pct, added and removed models, and the total", () => {
    const start = new Map([["a", p("x", 1, 2)], ["b", p("y", 4, 8)], ["gone", p("z", 1, 1)]]);
    const end = new Map([["a", p("x", 1, 3)], ["b", p("y", 2, 8)], ["new", p("z", 5, 5)]]);
    expect(pricingSummary(start, end)).toEqual({
      changed: [
        { model: "a", provider: "x", field: "outputPrice", from: 2, to: 3, delta_pct: 50 },
        { model: "b", provider: "y", field: "inputPrice", from: 4, to: 2, delta_pct: -50 },
      ],
      added: [{ model: "new", provider: "z" }],
      removed: [{ model: "gone", provider: "z" }],
      total_changes: 4,
    });
  });

  it("an unchanged catalog gives an empty summary; a missing side says so in a note", () => {
    const same = new Map([["a", p("x", 1, 2)]]);
    expect(pricingSummary(same, same)).toEqual({ changed: [], added: [], removed: [], total_changes: 0 });
    expect(pricingSummary(null, same)).toMatchObject({ total_changes: 0, note: expect.stringContaining("start") });
  });
});

describe("evaluateDigest", () => {
  const period = { from: "2026-11-22T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" };
  const pricing = pricingSummary(new Map(), new Map());
  it("fires once per period, whether or not prices changed", () => {
    const r = evaluateDigest({ type: "digest", cadence: "daily" }, { period_to: "2026-11-22T00:00:00.000Z" }, period, pricing);
    expect(r).toEqual({ seen: { period_to: period.to }, match: { type: "digest", cadence: "daily", period, pricing } });
    expect(evaluateDigest({ type: "digest", cadence: "daily" }, r.seen, period, pricing).match).toBeNull();
  });
});
