/**
 * What every GPU marketplace source shares: the strict normalized offer row, the meta a source receives
 * (a callback told about GPU names the alias table does not know), price rounding and the tolerant
 * body-parsing helpers.
 */
import { z } from "zod";
import { resolveGpu, type GpuId } from "../contract/vocabularies/gpu-models.ts";
import { sanitize } from "../lib/sanitize.ts";

export { gpuOffer, type GpuOffer, MARKETPLACE_IDS, marketplaceId, type MarketplaceId, offerType, type OfferType } from "../contract/snapshots/gpu-pricing.ts";

/** What the feed hands a GPU source. */
export interface GpuMeta {
  /** Told about each upstream GPU name the alias table cannot map (the offer is dropped). */
  onUnmapped?: (name: string) => void;
}

/** Round a USD price to 4 decimals. */
export function roundUsd(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Price of one GPU-hour from a price for `count` GPUs, rounded to 4 decimals. */
export function perGpu(totalPerHour: number, count: number): number {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`perGpu: gpu count must be a positive integer, got ${count}`);
  return roundUsd(totalPerHour / count);
}

/** Resolve a marketplace GPU name, telling the meta about names that cannot be mapped. */
export function mapGpu(meta: GpuMeta, name: string, vramGb?: number | null): GpuId | undefined {
  const id = resolveGpu(name, vramGb);
  if (id === undefined) meta.onUnmapped?.(cleanText(name));
  return id;
}

/** Clean an upstream label (locations, names) with the shared sanitizer; null when empty. */
export function cleanText(raw: string | null | undefined, maxLength = 120): string {
  return raw ? sanitize(raw, { maxLength }) : "";
}

/** cleanText, or null when nothing is left. */
export function cleanOrNull(raw: string | null | undefined): string | null {
  const text = cleanText(raw);
  return text === "" ? null : text;
}

/** A marketplace body that does not have the shape its API promises. */
export class GpuSourceParseError extends Error {
  override name = "GpuSourceParseError";
}

/** Parse a JSON body or throw a GpuSourceParseError naming the source. */
export function parseJsonBody(sourceId: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (cause) {
    throw new GpuSourceParseError(`${sourceId}: body is not JSON (starts ${JSON.stringify(body.slice(0, 40))})`, { cause });
  }
}

/** Throw a GpuSourceParseError with the first zod issues of a failed tolerant parse. */
export function parseWith<T>(sourceId: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new GpuSourceParseError(`${sourceId}: unexpected body shape: ${issues.join("; ")}`, { cause: result.error });
  }
  return result.data;
}

/** True for a finite price above zero. */
export function isPrice(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
