/**
 * The daily benchmark scores of one model (GET /api/premium/history/benchmarks/series), decided from the
 * warehouse's benchmark_scores rows of the range: one series per benchmark the model has a score on in the
 * range (or the one benchmark asked for), each with a point per day. A day without a score has has_data false
 * and null figures. changes_detected counts data days whose score differs from the previous data day's;
 * delta is latest − first score in the benchmark's own unit.
 */
import { daysOf, type DayRange } from "./history-range.ts";
import { round } from "./round.ts";

/** One benchmark_scores row as the series reads it. */
export interface ScoreRow {
  date: string;
  benchmark: string;
  score: number;
  source: string;
  reported_date: string;
}

export interface ScorePoint {
  date: string;
  has_data: boolean;
  score: number | null;
  /** The day the source reported the score. */
  reported_date: string | null;
  source: string | null;
}

export interface BenchmarkSeries {
  benchmark: string;
  points: ScorePoint[];
  summary: {
    first: { date: string; score: number } | null;
    latest: { date: string; score: number } | null;
    delta: number | null;
    changes_detected: number;
    days_with_data: number;
    days_missing: number;
  };
}

export interface BenchmarksHistory {
  ok: true;
  model: string;
  benchmark: string | null;
  range: DayRange;
  series: BenchmarkSeries[];
  summary: { benchmarks: number; days_with_data: number; days_missing: number };
  notes: string[];
}

/** Build the series of `model` over `range` from its benchmark_scores rows (any order). */
export function benchmarksHistory(input: { model: string; benchmark: string | null; range: DayRange; rows: readonly ScoreRow[] }): BenchmarksHistory {
  const byBenchmark = new Map<string, Map<string, ScoreRow>>();
  for (const row of input.rows) {
    const days = byBenchmark.get(row.benchmark) ?? new Map<string, ScoreRow>();
    days.set(row.date, row);
    byBenchmark.set(row.benchmark, days);
  }
  if (input.benchmark !== null && !byBenchmark.has(input.benchmark)) byBenchmark.set(input.benchmark, new Map());
  const days = daysOf(input.range);
  const series = [...byBenchmark.keys()].sort().map((benchmark): BenchmarkSeries => {
    const byDay = byBenchmark.get(benchmark)!;
    const points = days.map((date): ScorePoint => {
      const row = byDay.get(date);
      return row
        ? { date, has_data: true, score: row.score, reported_date: row.reported_date, source: row.source }
        : { date, has_data: false, score: null, reported_date: null, source: null };
    });
    const data = points.filter((p) => p.has_data);
    let changes = 0;
    for (let i = 1; i < data.length; i++) if (data[i]!.score !== data[i - 1]!.score) changes++;
    const first = data[0];
    const latest = data[data.length - 1];
    return {
      benchmark,
      points,
      summary: {
        first: first ? { date: first.date, score: first.score! } : null,
        latest: latest ? { date: latest.date, score: latest.score! } : null,
        delta: first && latest ? round(latest.score! - first.score!) : null,
        changes_detected: changes,
        days_with_data: data.length,
        days_missing: points.length - data.length,
      },
    };
  });
  const withData = new Set(input.rows.map((r) => r.date));
  const notes: string[] = [];
  if (withData.size === 0) {
    notes.push(`no benchmark score of ${input.model}${input.benchmark ? ` on ${input.benchmark}` : ""} was captured between ${input.range.from} and ${input.range.to}`);
  } else if (withData.size < days.length) {
    notes.push(`${days.length - withData.size} day(s) without any captured score: has_data false and null figures on those days`);
  }
  notes.push("scores are as the curated benchmark catalog stated them on each day; reported_date is when the source reported the score");
  return {
    ok: true,
    model: input.model,
    benchmark: input.benchmark,
    range: input.range,
    series,
    summary: { benchmarks: series.length, days_with_data: withData.size, days_missing: days.length - withData.size },
    notes,
  };
}
