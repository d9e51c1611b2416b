import { describe, expect, it } from "vitest";
import { benchmarksHistory, type ScoreRow } from "./history-benchmarks.ts";

const range = { from: "2026-01-01", to: "2026-01-03", days: 3 };
const row = (date: string, benchmark: string, score: number): ScoreRow => ({ date, benchmark, score, source: "https://example.test", reported_date: "2025-12-01" });

describe("benchmarksHistory()", () => {
  it("one series per benchmark, sorted, a point per day with has_data", () => {
    const h = benchmarksHistory({ model: "m", benchmark: null, range, rows: [row("2026-01-03", "mmlu-pro", 70), row("2026-01-01", "gpqa", 50), row("2026-01-03", "gpqa", 55)] });
    expect(h.series.map((s) => s.benchmark)).toEqual(["gpqa", "mmlu-pro"]);
    expect(h.series[0]!.points.map((p) => p.score)).toEqual([50, null, 55]);
    expect(h.series[0]!.points[1]).toEqual({ date: "2026-01-02", has_data: false, score: null, reported_date: null, source: null });
    expect(h.series[0]!.summary).toEqual({ first: { date: "2026-01-01", score: 50 }, latest: { date: "2026-01-03", score: 55 }, delta: 5, changes_detected: 1, days_with_data: 2, days_missing: 1 });
    expect(h.summary).toEqual({ benchmarks: 2, days_with_data: 2, days_missing: 1 });
  });

  it("a benchmark asked for without any score in the range is an empty series, and the whole answer says so", () => {
    const h = benchmarksHistory({ model: "m", benchmark: "gpqa", range, rows: [] });
    expect(h.series).toHaveLength(1);
    expect(h.series[0]!.points.every((p) => !p.has_data && p.score === null)).toBe(true);
    expect(h.series[0]!.summary).toMatchObject({ first: null, latest: null, delta: null, days_with_data: 0, days_missing: 3 });
    expect(h.summary.days_with_data).toBe(0);
    expect(h.notes[0]).toMatch(/no benchmark score of m on gpqa/);
  });
});
