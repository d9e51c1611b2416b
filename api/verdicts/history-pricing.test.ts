import { describe, expect, it } from "vitest";
import { pricingSeries, type PriceRow } from "./history-pricing.ts";

const range = { from: "2026-01-01", to: "2026-01-05", days: 5 };
const row = (date: string, input: number | null, output: number | null, source = "curated", observed_at: string | null = null): PriceRow => ({
  date, provider: "openai", input_per_1m: input, output_per_1m: output, source, observed_at,
});

describe("pricingSeries()", () => {
  it("has_data false and null figures on days without a price, never a zero", () => {
    const s = pricingSeries({ model: "m", provider: null, range, rows: [row("2026-01-02", 2, 8)] });
    expect(s.points.map((p) => p.has_data)).toEqual([false, true, false, false, false]);
    expect(s.points[0]).toEqual({ date: "2026-01-01", has_data: false, input: null, output: null, blended: null, source: null, observed_at: null });
    expect(s.points[1]).toMatchObject({ input: 2, output: 8, blended: 3.5 });
    expect(s.summary).toMatchObject({ days_with_data: 1, days_missing: 4, changes_detected: 0, delta_pct_blended: 0 });
    expect(s.provider).toBe("openai");
  });

  it("serves the newest observation of a day and says when sources disagree", () => {
    const s = pricingSeries({
      model: "o3",
      provider: null,
      range,
      rows: [row("2026-01-01", 10, 40, "curated", "2025-05-23T00:00:00.000Z"), row("2026-01-01", 2, 8, "aggregator", "2026-01-01T03:00:00.000Z")],
    });
    expect(s.points[0]).toMatchObject({ input: 2, output: 8, source: "aggregator", observed_at: "2026-01-01T03:00:00.000Z" });
    expect(s.notes.join(" ")).toMatch(/1 day\(s\) the sources stated different prices/);
  });

  it("a missing observed_at is the oldest; equal times go to the curated price", () => {
    const undated = pricingSeries({ model: "m", provider: null, range, rows: [row("2026-01-01", 1, 1, "curated", null), row("2026-01-01", 3, 3, "aggregator", "2025-01-01T00:00:00Z")] });
    expect(undated.points[0]!.source).toBe("aggregator");
    const tie = pricingSeries({ model: "m", provider: null, range, rows: [row("2026-01-01", 3, 3, "aggregator"), row("2026-01-01", 1, 1, "curated")] });
    expect(tie.points[0]!.source).toBe("curated");
  });

  it("ignores rows without both prices", () => {
    const s = pricingSeries({ model: "m", provider: null, range, rows: [row("2026-01-01", null, 5), row("2026-01-02", 4, null)] });
    expect(s.summary.days_with_data).toBe(0);
    expect(s.summary).toMatchObject({ first: null, latest: null, min_blended: null, max_blended: null, delta_pct_blended: null });
    expect(s.notes[0]).toMatch(/no price of m was captured/);
  });

  it("summary: first, latest, min, max, % change and changes between data days", () => {
    const s = pricingSeries({
      model: "m",
      provider: null,
      range,
      rows: [row("2026-01-01", 4, 4), row("2026-01-02", 4, 4), row("2026-01-04", 2, 2), row("2026-01-05", 3, 3)],
    });
    expect(s.summary).toEqual({
      first: { date: "2026-01-01", blended: 4 },
      latest: { date: "2026-01-05", blended: 3 },
      min_blended: 2,
      max_blended: 4,
      delta_pct_blended: -25,
      changes_detected: 2,
      days_with_data: 4,
      days_missing: 1,
    });
  });

  it("delta_pct_blended is null when the first price is free", () => {
    const s = pricingSeries({ model: "m", provider: null, range, rows: [row("2026-01-01", 0, 0), row("2026-01-02", 1, 1)] });
    expect(s.summary.delta_pct_blended).toBeNull();
    expect(s.summary.changes_detected).toBe(1);
  });
});
