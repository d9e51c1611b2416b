/**
 * Rounding of the figures answers publish. A figure is first taken back to the decimal it stands for (15
 * significant digits, which drops the binary noise of its arithmetic: (3 × 0.075 + 0.3) / 4 computes as
 * 0.13124999999999998), then rounded half away from zero at `places` decimals, as DuckDB's `round` does on a
 * DECIMAL: 0.13125 → 0.1313, −2.5 → −3. Sums and ratios are computed unrounded first; only the published
 * figure is rounded.
 */
export function round(x: number, places = 4): number {
  if (!Number.isFinite(x)) return x;
  const factor = 10 ** places;
  const scaled = Number((Math.abs(Number(x.toPrecision(15))) * factor).toPrecision(15));
  const rounded = Math.round(scaled) / factor;
  return x < 0 && rounded !== 0 ? -rounded : rounded;
}
