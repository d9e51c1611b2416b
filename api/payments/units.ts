/**
 * USDC amounts as integers of base units (6 decimals). A JSON number is turned into units through its exact
 * decimal string, never by multiplying floats; more than 6 decimals is refused.
 */

/** USDC decimals. */
export const USDC_DECIMALS = 6;
/** Base units in one USD (1 USDC). */
export const UNITS_PER_USD = 1_000_000n;

/** A decimal amount that cannot be turned into whole USDC base units. */
export class AmountError extends Error {
  override name = "AmountError";
}

/** Units from a decimal string ("5", "5.25", "1e-3"); throws AmountError on signs, junk or > 6 decimals. */
export function decimalToUnits(text: string): bigint {
  const m = /^(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/.exec(text.trim());
  if (!m) throw new AmountError(`amount "${text}" is not a plain non-negative decimal number`);
  const fraction = m[2] ?? "";
  // value = digits × 10^-scale
  const digits = BigInt(`${m[1]}${fraction}`);
  const scale = fraction.length - Number(m[3] ?? "0");
  if (scale <= USDC_DECIMALS) return digits * 10n ** BigInt(USDC_DECIMALS - scale);
  const divisor = 10n ** BigInt(scale - USDC_DECIMALS);
  if (digits % divisor !== 0n) throw new AmountError(`amount "${text}" has more than ${USDC_DECIMALS} decimals`);
  return digits / divisor;
}

/** Units from a JSON number via its shortest round-trip decimal string (0.1 → "0.1" → 100000). */
export function numberToUnits(value: number): bigint {
  if (!Number.isFinite(value) || value < 0) throw new AmountError(`amount ${value} is not a finite non-negative number`);
  return decimalToUnits(String(value));
}

/** Decimal USD string with at least 2 decimals and no trailing zeros beyond them: 5000000n → "5.00". */
export function unitsToUsd(units: bigint): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const whole = abs / UNITS_PER_USD;
  let frac = (abs % UNITS_PER_USD).toString().padStart(USDC_DECIMALS, "0").replace(/0+$/, "");
  if (frac.length < 2) frac = frac.padEnd(2, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}

/** The USD amount as a JSON number for display (exact for every 6-decimal amount below 2^53 units). */
export function unitsToUsdNumber(units: bigint): number {
  return Number(unitsToUsd(units));
}
