/**
 * digest watches: one delivery per cadence period with the pricing changes summary of the contract's digest
 * match, whether or not anything changed. A daily period runs from 00:00 UTC to the next 00:00 UTC; a weekly
 * one from Monday 00:00 UTC to the next Monday. A period is delivered at the first evaluation after it ends
 * once the pricing feed has succeeded in a run started after that end (at most 3 hours later: schedule.ts).
 */
import type { DigestSpec } from "./spec.ts";
import type { ModelPrices } from "./values.ts";
import { deltaPct, type Evaluation } from "./evaluation.ts";

const DAY_MS = 86_400_000;

/** What a digest watch remembers: the end of the last period delivered (or of the period it was registered in). */
export interface DigestSeen {
  period_to: string;
}

/** A closed cadence period, ISO timestamps. */
export interface Period {
  from: string;
  to: string;
}

/** The last period of `cadence` that ended at or before `now`. */
export function lastClosedPeriod(cadence: DigestSpec["cadence"], now: Date): Period {
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (cadence === "daily") return { from: new Date(midnight - DAY_MS).toISOString(), to: new Date(midnight).toISOString() };
  // 1970-01-01 was a Thursday: days since the epoch + 3, mod 7, is days since Monday.
  const sinceMonday = (Math.floor(midnight / DAY_MS) + 3) % 7;
  const monday = midnight - sinceMonday * DAY_MS;
  return { from: new Date(monday - 7 * DAY_MS).toISOString(), to: new Date(monday).toISOString() };
}

/** One price change of the summary. */
export interface PriceChange {
  model: string;
  provider: string;
  field: "inputPrice" | "outputPrice";
  from: number;
  to: number;
  delta_pct: number | null;
}

/** The pricing summary between two price maps (null when a side is unknown: an empty summary with a note). */
export function pricingSummary(start: Map<string, ModelPrices> | null, end: Map<string, ModelPrices> | null) {
  if (!start || !end) {
    return {
      changed: [] as PriceChange[],
      added: [] as { model: string; provider: string }[],
      removed: [] as { model: string; provider: string }[],
      total_changes: 0,
      note: "no dated pricing snapshot covers " + (start ? "the end" : "the start") + " of the period; changes cannot be computed",
    };
  }
  const changed: PriceChange[] = [];
  const added: { model: string; provider: string }[] = [];
  const removed: { model: string; provider: string }[] = [];
  for (const [model, now] of [...end].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const was = start.get(model);
    if (!was) {
      added.push({ model, provider: now.provider });
      continue;
    }
    for (const field of ["inputPrice", "outputPrice"] as const) {
      if (was[field] !== now[field]) changed.push({ model, provider: now.provider, field, from: was[field], to: now[field], delta_pct: deltaPct(was[field], now[field]) });
    }
  }
  for (const [model, was] of [...start].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (!end.has(model)) removed.push({ model, provider: was.provider });
  return { changed, added, removed, total_changes: changed.length + added.length + removed.length };
}

/** Evaluate one digest watch: it fires when `period` ends after the last period it delivered. */
export function evaluateDigest(
  spec: DigestSpec,
  last: DigestSeen | null,
  period: Period,
  pricing: ReturnType<typeof pricingSummary>,
): Evaluation<DigestSeen> {
  const seen = { period_to: period.to };
  if (last && Date.parse(last.period_to) >= Date.parse(period.to)) return { seen: last, match: null };
  return { seen, match: { type: "digest", cadence: spec.cadence, period, pricing } };
}
