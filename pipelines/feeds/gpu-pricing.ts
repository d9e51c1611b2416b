/**
 * The `gpu-pricing` snapshot: current GPU rental offers from several marketplaces (Vast.ai, TensorDock,
 * Lambda, Shadeform), each read by its source, normalized to one price per GPU-hour and aggregated per
 * canonical GPU (pipelines/contract/vocabularies/gpu-models.ts).
 *
 * - One request per marketplace per run. A marketplace that needs a key (Lambda, Shadeform) is skipped
 *   with a notice when its env var is unset, except in replay, where recorded answers need no key; a
 *   marketplace that fails is reported in source health and a notice, and its offers are left out (prices are current offers, never carried over). The run fails
 *   only when every marketplace it tried failed.
 * - Upstream GPU names the alias table cannot map are dropped, with one notice per marketplace listing them.
 * - Per GPU and type: min, median (mean of the two middle prices for an even count) and max over all
 *   offers, and the 3 cheapest offers (ties: marketplace, offer id, location). Prices are rounded to 4
 *   decimals. GPUs are listed in catalog order; only GPUs with at least one offer appear.
 * - Warehouse: one `gpu_prices` row per (date, gpu, marketplace, type).
 */
import { GPU_IDS, gpuModel, type GpuId } from "../contract/vocabularies/gpu-models.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { withSourceHealth } from "../lib/types.ts";
import { type GpuMeta, roundUsd } from "../sources/gpu-common.ts";
import { LAMBDA_KEY_ENV, LAMBDA_URL, lambdaSource } from "../sources/gpu-lambda.ts";
import { SHADEFORM_KEY_ENV, SHADEFORM_URL, shadeformSource } from "../sources/gpu-shadeform.ts";
import { TENSORDOCK_URL, tensordockSource } from "../sources/gpu-tensordock.ts";
import { VASTAI_URL, vastaiSource } from "../sources/gpu-vastai.ts";
import { catalogIndex, CHEAPEST_COUNT, type CheapOffer, gpuOffer, type GpuOffer, type GpuPriceEntry, gpuPricingSnapshot, type GpuPricingSnapshot, gpuPricingSnapshotType, type MarketplaceId, type OfferType, type PriceStats } from "../contract/snapshots/gpu-pricing.ts";

export { CHEAPEST_COUNT, cheapOffer, type CheapOffer, gpuPriceEntry, type GpuPriceEntry, gpuPricingSnapshot, type GpuPricingSnapshot, marketplaceEntry, priceStats, type PriceStats } from "../contract/snapshots/gpu-pricing.ts";

/** One marketplace the feed reads. */
export interface Marketplace {
  id: MarketplaceId;
  name: string;
  /** The marketplace's home page. */
  url: string;
  /** The one upstream URL requested per run. */
  endpoint: string;
  /** Env var holding the API key, for marketplaces that need one. */
  keyEnv?: string;
  /** Request headers carrying the key. */
  authHeaders?: (key: string) => Record<string, string>;
  /** Body → normalized offers, through the marketplace's source. */
  read(body: string, url: string, now: Date, meta: GpuMeta): GpuOffer[];
}

function reader<P>(source: {
  parse(body: string): P;
  normalize(parsed: P, ctx: { url: string; now: Date; meta: GpuMeta }): GpuOffer[];
}): Marketplace["read"] {
  return (body, url, now, meta) => source.normalize(source.parse(body), { url, now, meta });
}

/** Every marketplace, by id. */
export const MARKETPLACES: readonly Marketplace[] = [
  {
    id: "lambda",
    name: "Lambda",
    url: "https://lambda.ai",
    endpoint: LAMBDA_URL,
    keyEnv: LAMBDA_KEY_ENV,
    authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
    read: reader(lambdaSource),
  },
  {
    id: "shadeform",
    name: "Shadeform",
    url: "https://www.shadeform.ai",
    endpoint: SHADEFORM_URL,
    keyEnv: SHADEFORM_KEY_ENV,
    authHeaders: (key) => ({ "x-api-key": key }),
    read: reader(shadeformSource),
  },
  { id: "tensordock", name: "TensorDock", url: "https://tensordock.com", endpoint: TENSORDOCK_URL, read: reader(tensordockSource) },
  { id: "vastai", name: "Vast.ai", url: "https://vast.ai", endpoint: VASTAI_URL, read: reader(vastaiSource) },
];

/** Median of prices (mean of the two middle values for an even count), rounded to 4 decimals. */
export function median(values: number[]): number {
  if (values.length === 0) throw new RangeError("median: no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return roundUsd(value);
}

/** min / median / max / count of a list of offers; null for an empty list. */
export function statsOf(offers: GpuOffer[]): PriceStats | null {
  if (offers.length === 0) return null;
  const prices = offers.map((o) => o.price_per_gpu_hour_usd);
  return { min: roundUsd(Math.min(...prices)), median: median(prices), max: roundUsd(Math.max(...prices)), offers: offers.length };
}

/** Stable order of offers: price, then marketplace, offer id, location, gpu count. */
export function compareOffers(a: GpuOffer, b: GpuOffer): number {
  return (
    a.price_per_gpu_hour_usd - b.price_per_gpu_hour_usd ||
    a.marketplace.localeCompare(b.marketplace) ||
    (a.offer_id ?? "").localeCompare(b.offer_id ?? "") ||
    (a.location ?? "").localeCompare(b.location ?? "") ||
    a.gpu_count - b.gpu_count
  );
}

function cheapest(offers: GpuOffer[]): CheapOffer[] {
  return [...offers]
    .sort(compareOffers)
    .slice(0, CHEAPEST_COUNT)
    .map(({ gpu: _gpu, type: _type, ...rest }) => rest);
}

/** Aggregate normalized offers into the snapshot's per-GPU entries (catalog order). */
export function aggregateGpus(offers: GpuOffer[]): GpuPriceEntry[] {
  const byGpu = new Map<GpuId, GpuOffer[]>();
  for (const o of offers) byGpu.set(o.gpu, [...(byGpu.get(o.gpu) ?? []), o]);
  return GPU_IDS.filter((id) => byGpu.has(id)).map((id) => {
    const list = byGpu.get(id)!;
    const onDemand = list.filter((o) => o.type === "on_demand");
    const spot = list.filter((o) => o.type === "spot");
    const model = gpuModel(id);
    return {
      id,
      name: model.name,
      vram_gb: model.vram_gb,
      on_demand: statsOf(onDemand),
      spot: statsOf(spot),
      cheapest: { on_demand: cheapest(onDemand), spot: cheapest(spot) },
    };
  });
}

/** `gpu_prices` warehouse rows: one per (date, gpu, marketplace, type). */
export function warehouseRows(date: string, offers: GpuOffer[]): WarehouseBatch {
  const groups = new Map<string, { gpu: GpuId; marketplace: MarketplaceId; type: OfferType; list: GpuOffer[] }>();
  for (const o of offers) {
    const key = `${o.gpu}\u0000${o.marketplace}\u0000${o.type}`;
    const g = groups.get(key) ?? { gpu: o.gpu, marketplace: o.marketplace, type: o.type, list: [] };
    g.list.push(o);
    groups.set(key, g);
  }
  const rows = [...groups.values()]
    .sort((a, b) => catalogIndex(a.gpu) - catalogIndex(b.gpu) || a.marketplace.localeCompare(b.marketplace) || a.type.localeCompare(b.type))
    .map((g) => {
      const s = statsOf(g.list)!;
      return { date, gpu: g.gpu, marketplace: g.marketplace, type: g.type, min_usd: s.min, median_usd: s.median, max_usd: s.max, offers: s.offers };
    });
  return { table: "gpu_prices", key: ["date", "gpu", "marketplace", "type"], rows };
}

/** Every marketplace this run tried failed (or none could be tried): nothing trustworthy to write. */
export class GpuPricingFeedError extends Error {
  override name = "GpuPricingFeedError";
}

/** Options of a gpu-pricing run. */
export interface GpuPricingOptions {
  /** Where API keys are read (default process.env). */
  env?: Record<string, string | undefined>;
  /** The marketplaces to read (default MARKETPLACES). */
  marketplaces?: readonly Marketplace[];
}

interface MarketplaceResult {
  offers: GpuOffer[];
  health: SourceHealth;
  attempted: boolean;
}

async function readMarketplace(ctx: FeedContext, m: Marketplace, env: Record<string, string | undefined>): Promise<MarketplaceResult> {
  const key = m.keyEnv ? env[m.keyEnv]?.trim() : undefined;
  // Recorded answers need no credential: a replay run reads every marketplace, keyed or not.
  if (m.keyEnv && !key && ctx.provenance !== "replay") {
    ctx.notice(`gpu-pricing: ${m.id} skipped: ${m.keyEnv} is not set`);
    return { offers: [], health: { id: m.id, ok: false, error: `skipped: ${m.keyEnv} is not set`, rows: 0 }, attempted: false };
  }
  const unmapped = new Set<string>();
  try {
    const headers = { accept: "application/json", ...(key && m.authHeaders ? m.authHeaders(key) : {}) };
    const res = await ctx.http.getText(m.endpoint, { headers });
    if (res.status < 200 || res.status >= 300) throw new Error(`GET ${m.endpoint} failed: ${res.status}`);
    const offers = m.read(res.body, m.endpoint, ctx.now, { onUnmapped: (name) => unmapped.add(name) }).map((o) => gpuOffer.parse(o));
    if (unmapped.size > 0) ctx.notice(`gpu-pricing: ${m.id} dropped offers of unmapped GPUs: ${[...unmapped].sort().join(", ")}`);
    return { offers, health: { id: m.id, ok: true, rows: offers.length }, attempted: true };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.notice(`gpu-pricing: ${m.id} failed: ${message}`);
    return { offers: [], health: { id: m.id, ok: false, error: message }, attempted: true };
  }
}

/** Build the gpu-pricing snapshot and its warehouse rows. */
export async function runGpuPricing(ctx: FeedContext, options: GpuPricingOptions = {}): Promise<FeedOutput<GpuPricingSnapshot>> {
  const env = options.env ?? process.env;
  const marketplaces = [...(options.marketplaces ?? MARKETPLACES)].sort((a, b) => a.id.localeCompare(b.id));
  const results = await Promise.all(marketplaces.map((m) => readMarketplace(ctx, m, env)));
  const attempted = results.filter((r) => r.attempted);
  if (attempted.length === 0) throw new GpuPricingFeedError("gpu-pricing: no marketplace could be tried (every one needs a key that is not set)");
  if (attempted.every((r) => !r.health.ok)) {
    const first = attempted[0]!.health;
    throw withSourceHealth(new GpuPricingFeedError(`gpu-pricing: all ${attempted.length} marketplaces tried failed; first error: ${first.id}: ${first.error ?? "unknown"}`), attempted.map((r) => r.health));
  }
  const offers = results.flatMap((r) => r.offers);
  const data = gpuPricingSnapshot.parse({
    gpus: aggregateGpus(offers),
    marketplaces: marketplaces.map((m, i) => ({ id: m.id, name: m.name, url: m.url, offers: results[i]!.offers.length })),
  });
  return {
    data,
    rows: offers.length,
    sources: results.map((r) => r.health),
    warehouse: [warehouseRows(ctx.now.toISOString().slice(0, 10), offers)],
  };
}

/** A gpu-pricing feed reading keys from `options.env` (the registered feed uses process.env). */
export function createGpuPricingFeed(options: GpuPricingOptions = {}): Feed<GpuPricingSnapshot> {
  return {
    ...gpuPricingSnapshotType,
    urls: () => (options.marketplaces ?? MARKETPLACES).map((m) => m.endpoint),
    run: (ctx) => runGpuPricing(ctx, options),
  };
}

/** The GPU rental pricing feed (API: GET /api/gpu/pricing, /api/gpu/pricing/cheapest). */
export const gpuPricingFeed: Feed<GpuPricingSnapshot> = createGpuPricingFeed();
