import { describe, expect, it } from "vitest";
import { aggregatorSeries, SAMPLE_SIZE, type AggregatorChange, type AggregatorDay } from "./aggregator-series.ts";
import { resolveRange } from "./history-range.ts";

const range = (from: string, to: string) => resolveRange({ from, to }, new Date(`${to}T12:00:00Z`));

const day = (date: string, prev: string | null, over: Partial<AggregatorDay> = {}): AggregatorDay => ({
  date,
  prev,
  total_models: 100,
  cheapest_input: 0.1,
  cheapest_output: 0.4,
  free_tier_count: 3,
  namespace_count: 20,
  top_namespace: "openai",
  ...over,
});
const change = (date: string, kind: AggregatorChange["change"], model_id: string, n: number): AggregatorChange => ({ date, change: kind, model_id, n });

describe("aggregatorSeries()", () => {
  it("aggregatorSeries() gives one point per day; a day without capture has has_data false and null figures", () => {
    const s = aggregatorSeries({ range: range("2026-03-01", "2026-03-04"), days: [day("2026-03-01", "2026-02-27"), day("2026-03-03", "2026-03-01")], changes: [] });
    expect(s.days).toBe(4);
    expect(s.points.map((p) => [p.date, p.has_data])).toEqual([
      ["2026-03-01", true],
      ["2026-03-02", false],
      ["2026-03-03", true],
      ["2026-03-04", false],
    ]);
    expect(s.points[1]).toEqual({
      date: "2026-03-02",
      total_models: null,
      cheapest_input_usd_per_m: null,
      cheapest_output_usd_per_m: null,
      free_tier_count: null,
      namespace_count: null,
      top_namespace: null,
      added: null,
      removed: null,
      price_changes: null,
      added_sample: [],
      removed_sample: [],
      has_data: false,
    });
    // Compared with a captured day and nothing changed: true zeros.
    expect(s.points[2]).toMatchObject({ total_models: 100, free_tier_count: 3, top_namespace: "openai", added: 0, removed: 0, price_changes: 0 });
    expect(s.notes).toContain("2 of 4 days have no capture: has_data is false and their figures are null.");
  });

  it("aggregatorSeries() leaves added/removed/price_changes null on a day without an earlier capture", () => {
    const s = aggregatorSeries({ range: range("2026-03-01", "2026-03-02"), days: [day("2026-03-01", null), day("2026-03-02", "2026-03-01", { total_models: 102 })], changes: [change("2026-03-02", "added", "a/x", 2), change("2026-03-02", "added", "a/y", 2)] });
    expect(s.points[0]).toMatchObject({ has_data: true, total_models: 100, added: null, removed: null, price_changes: null, added_sample: [], removed_sample: [] });
    expect(s.points[1]).toMatchObject({ added: 2, removed: 0, price_changes: 0, added_sample: ["a/x", "a/y"], removed_sample: [] });
    expect(s.notes.some((n) => n.includes("null on 2026-03-01: no earlier capture"))).toBe(true);
  });

  it("aggregatorSeries() keeps the full change counts and a sorted, bounded sample of ids", () => {
    const ids = ["m/g", "m/f", "m/e", "m/d", "m/c", "m/b", "m/a"];
    const s = aggregatorSeries({
      range: range("2026-03-02", "2026-03-02"),
      days: [day("2026-03-02", "2026-02-20")],
      changes: [...ids.map((id) => change("2026-03-02", "removed", id, 40)), change("2026-03-02", "price", "p/q", 3)],
    });
    expect(s.points[0]).toMatchObject({ added: 0, removed: 40, price_changes: 3, removed_sample: ["m/a", "m/b", "m/c", "m/d", "m/e"] });
    expect(s.points[0]!.removed_sample).toHaveLength(SAMPLE_SIZE);
  });

  it("aggregatorSeries() ignores days outside the window (the prior capture before `from`)", () => {
    const s = aggregatorSeries({ range: range("2026-03-02", "2026-03-03"), days: [day("2026-02-28", null, { total_models: 1 }), day("2026-03-03", "2026-02-28")], changes: [] });
    expect(s.points.map((p) => p.has_data)).toEqual([false, true]);
    expect(s.delta_in_window.start_total).toBe(100);
  });

  it("aggregatorSeries() compares the first and last captured days of the window in delta_in_window", () => {
    const s = aggregatorSeries({
      range: range("2026-03-01", "2026-03-05"),
      days: [day("2026-03-02", null, { total_models: 90, cheapest_input: 0.2, cheapest_output: null }), day("2026-03-04", "2026-03-02", { total_models: 95, cheapest_input: 0.05, cheapest_output: 0.3 })],
      changes: [],
    });
    expect(s.delta_in_window).toEqual({ start_total: 90, end_total: 95, net: 5, cheapest_input_start: 0.2, cheapest_input_end: 0.05, cheapest_output_start: null, cheapest_output_end: 0.3 });
  });

  it("aggregatorSeries() over a window without any capture has every figure null and says so", () => {
    const s = aggregatorSeries({ range: range("2026-03-01", "2026-03-03"), days: [], changes: [] });
    expect(s.points.every((p) => !p.has_data && p.total_models === null)).toBe(true);
    expect(s.delta_in_window).toEqual({ start_total: null, end_total: null, net: null, cheapest_input_start: null, cheapest_input_end: null, cheapest_output_start: null, cheapest_output_end: null });
    expect(s.notes.at(-1)).toBe("No day in the window has a capture of the aggregator catalog.");
  });
});
