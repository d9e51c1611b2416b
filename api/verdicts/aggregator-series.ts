/**
 * The aggregator catalog series (GET /api/premium/aggregator/series): one point per UTC day of the window from
 * the per-day figures and changes that the route reads from warehouse table aggregator_models_daily. A day
 * without a capture has `has_data: false` and null figures, never an invented zero; added / removed /
 * price_changes compare a day with the previous captured day and are null when there is none.
 */
import { daysOf, type DayRange } from "./history-range.ts";

/** Model ids shown per day in added_sample and removed_sample. */
export const SAMPLE_SIZE = 5;

/** One captured day, aggregated over its models. */
export interface AggregatorDay {
  date: string;
  /** The previous captured day (possibly before the window), or null when there is none. */
  prev: string | null;
  total_models: number;
  /** Lowest input price above zero, USD per 1M tokens (free models are counted in free_tier_count instead). */
  cheapest_input: number | null;
  cheapest_output: number | null;
  /** Models whose input and output prices are both exactly 0. */
  free_tier_count: number;
  namespace_count: number;
  /** Namespace listing the most models that day (ties: alphabetical first). */
  top_namespace: string | null;
}

/** One change between a captured day and its previous captured day; `n` counts all changes of that kind that day. */
export interface AggregatorChange {
  date: string;
  change: "added" | "removed" | "price";
  model_id: string;
  n: number;
}

export interface AggregatorSeriesInput {
  range: DayRange;
  /** Captured days; those outside the range are ignored. */
  days: readonly AggregatorDay[];
  /** Changes of captured days (at most a few sample ids per day and kind, each row carrying the full count). */
  changes: readonly AggregatorChange[];
}

/** One day of the series. */
export interface AggregatorPoint {
  date: string;
  total_models: number | null;
  cheapest_input_usd_per_m: number | null;
  cheapest_output_usd_per_m: number | null;
  free_tier_count: number | null;
  namespace_count: number | null;
  top_namespace: string | null;
  added: number | null;
  removed: number | null;
  price_changes: number | null;
  added_sample: string[];
  removed_sample: string[];
  has_data: boolean;
}

/** First and last captured day of the window compared. */
export interface AggregatorWindowDelta {
  start_total: number | null;
  end_total: number | null;
  net: number | null;
  cheapest_input_start: number | null;
  cheapest_input_end: number | null;
  cheapest_output_start: number | null;
  cheapest_output_end: number | null;
}

export interface AggregatorSeries {
  ok: true;
  from: string;
  to: string;
  days: number;
  points: AggregatorPoint[];
  delta_in_window: AggregatorWindowDelta;
  notes: string[];
}

/** Build the series over every day of the range. */
export function aggregatorSeries(input: AggregatorSeriesInput): AggregatorSeries {
  const dates = daysOf(input.range);
  const byDate = new Map(input.days.map((d) => [d.date, d]));
  const changes = groupChanges(input.changes);
  const points = dates.map((date): AggregatorPoint => {
    const day = byDate.get(date);
    if (!day) return emptyPoint(date);
    const compared = day.prev !== null;
    const c = changes.get(date);
    return {
      date,
      total_models: day.total_models,
      cheapest_input_usd_per_m: day.cheapest_input,
      cheapest_output_usd_per_m: day.cheapest_output,
      free_tier_count: day.free_tier_count,
      namespace_count: day.namespace_count,
      top_namespace: day.top_namespace,
      added: compared ? (c?.added.n ?? 0) : null,
      removed: compared ? (c?.removed.n ?? 0) : null,
      price_changes: compared ? (c?.price.n ?? 0) : null,
      added_sample: compared ? (c?.added.ids ?? []) : [],
      removed_sample: compared ? (c?.removed.ids ?? []) : [],
      has_data: true,
    };
  });
  const captured = dates.map((d) => byDate.get(d)).filter((d): d is AggregatorDay => d !== undefined);
  const first = captured[0];
  const last = captured.at(-1);
  return {
    ok: true,
    from: input.range.from,
    to: input.range.to,
    days: dates.length,
    points,
    delta_in_window: {
      start_total: first?.total_models ?? null,
      end_total: last?.total_models ?? null,
      net: first && last ? last.total_models - first.total_models : null,
      cheapest_input_start: first?.cheapest_input ?? null,
      cheapest_input_end: last?.cheapest_input ?? null,
      cheapest_output_start: first?.cheapest_output ?? null,
      cheapest_output_end: last?.cheapest_output ?? null,
    },
    notes: notesFor(dates.length, captured),
  };
}

function emptyPoint(date: string): AggregatorPoint {
  return {
    date,
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
  };
}

interface DayChanges {
  added: { n: number; ids: string[] };
  removed: { n: number; ids: string[] };
  price: { n: number; ids: string[] };
}

/** Changes by day: the count of each kind and up to SAMPLE_SIZE ids, alphabetical. */
function groupChanges(rows: readonly AggregatorChange[]): Map<string, DayChanges> {
  const out = new Map<string, DayChanges>();
  for (const row of rows) {
    let day = out.get(row.date);
    if (!day) {
      day = { added: { n: 0, ids: [] }, removed: { n: 0, ids: [] }, price: { n: 0, ids: [] } };
      out.set(row.date, day);
    }
    const entry = day[row.change];
    entry.n = Math.max(entry.n, row.n);
    entry.ids.push(row.model_id);
  }
  for (const day of out.values()) {
    for (const entry of [day.added, day.removed, day.price]) {
      entry.ids = [...new Set(entry.ids)].sort().slice(0, SAMPLE_SIZE);
      entry.n = Math.max(entry.n, entry.ids.length);
    }
  }
  return out;
}

function notesFor(days: number, captured: AggregatorDay[]): string[] {
  const notes = [
    "cheapest_*_usd_per_m are the lowest prices above zero, USD per 1M tokens; models priced 0/0 are counted in free_tier_count; unpriced (variable-price) models count in total_models only.",
    "added, removed and price_changes compare each day with the previous captured day (which may be earlier than the day before); price_changes counts models listed on both days whose input or output price differs.",
  ];
  if (captured.length === 0) return [...notes, "No day in the window has a capture of the aggregator catalog."];
  const missing = days - captured.length;
  if (missing > 0) notes.push(`${missing} of ${days} days have no capture: has_data is false and their figures are null.`);
  const uncompared = captured.filter((d) => d.prev === null).map((d) => d.date);
  if (uncompared.length > 0) notes.push(`added, removed and price_changes are null on ${uncompared.join(", ")}: no earlier capture to compare with.`);
  notes.push(`delta_in_window compares the first captured day of the window (${captured[0]!.date}) with the last (${captured.at(-1)!.date}).`);
  return notes;
}
