/**
 * Credit pricing: 50 credits per USD at the base rate, volume tiers from 5, 30 and 200 USD, and the amount
 * tolerance that decides whether a payment earns its quote's credits. All arithmetic on integers.
 */
import { UNITS_PER_USD, unitsToUsdNumber } from "./units.ts";

/** Credits per USD at the base rate. */
export const BASE_RATE = 50;
/** Extra credits on a sender wallet's first successful payment. */
export const FIRST_PAYMENT_BONUS = 50;
/** A payment within this many base units (USD 0.01) of its quote earns the quote's credits. */
export const AMOUNT_TOLERANCE_UNITS = 10_000n;
/** Smallest and largest quotable amounts, in base units (USD 0.50 and 10000). */
export const MIN_AMOUNT_UNITS = 500_000n;
export const MAX_AMOUNT_UNITS = 10_000_000_000n;

/** One volume bundle: an exact amount and the credits it buys. */
export interface Bundle {
  units: bigint;
  credits: number;
  discountPct: number;
}

/**
 * The bundle table: 1 → 50 (base), 5 → 275 (10 % off), 30 → 1950 (25 % off), 200 → 16000 (40 % off). Each
 * discounted bundle starts a volume tier: any amount from it up to the next gets its credits per USD.
 */
export const BUNDLES: readonly Bundle[] = [
  { units: 1n * UNITS_PER_USD, credits: 50, discountPct: 0 },
  { units: 5n * UNITS_PER_USD, credits: 275, discountPct: 10 },
  { units: 30n * UNITS_PER_USD, credits: 1950, discountPct: 25 },
  { units: 200n * UNITS_PER_USD, credits: 16000, discountPct: 40 },
];

/** Credits for an amount at the base rate: floor(units × 50 / 10^6). */
export function baseCredits(units: bigint): number {
  return Number((units * BigInt(BASE_RATE)) / UNITS_PER_USD);
}

/**
 * Credits a quote for `units` promises: the volume tier of the largest bundle amount it reaches, at that bundle's
 * credits per USD (5 → 275 is 55 per USD, so 6 → 330), floored; below 5 USD the base rate. The bundles are the
 * tiers' exact amounts, so paying more never buys fewer credits.
 */
export function quoteCredits(units: bigint): { credits: number; rate: "bundle" | "quote" } {
  let tier: Bundle | undefined;
  for (const bundle of BUNDLES) if (units >= bundle.units) tier = bundle;
  if (!tier || tier.discountPct === 0) return { credits: baseCredits(units), rate: "quote" };
  return { credits: Number((units * BigInt(tier.credits)) / tier.units), rate: "bundle" };
}

/**
 * Credits for a received amount against its quote: the quote's within the tolerance, else the base rate. `rate`
 * says which rate the credits were counted at: `bundle` for a discounted bundle, `base` whenever the base rate
 * applied (an amount outside the tolerance, a quote at the base rate, and the 1.00 USD bundle, which is the
 * base rate).
 */
export function creditsForPayment(
  received: bigint,
  quote: { units: bigint; credits: number; rate: "bundle" | "quote" },
): { credits: number; rate: "base" | "bundle" } {
  const diff = received > quote.units ? received - quote.units : quote.units - received;
  if (diff > AMOUNT_TOLERANCE_UNITS) return { credits: baseCredits(received), rate: "base" };
  return { credits: quote.credits, rate: quote.credits > baseCredits(quote.units) ? "bundle" : "base" };
}

/** The bundle table as /api/payment/info shows it. */
export function bundleTable(): { usd: number; credits: number; discount_pct: number }[] {
  return BUNDLES.map((b) => ({ usd: unitsToUsdNumber(b.units), credits: b.credits, discount_pct: b.discountPct }));
}
