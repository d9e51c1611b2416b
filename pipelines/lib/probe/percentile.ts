/**
 * Percentiles for latency summaries, by the nearest-rank method: the p-th percentile of n samples is the
 * smallest sample with at least p % of the samples at or below it (rank ⌈p/100 · n⌉). Every result is a
 * value that was really observed; no interpolation.
 */

/** Nearest-rank percentile `p` (0 < p ≤ 100) of `values` (any order); null for an empty list. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!Number.isFinite(p) || p <= 0 || p > 100) throw new RangeError(`percentile: p must be in (0, 100], got ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
