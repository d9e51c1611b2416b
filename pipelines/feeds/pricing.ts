/**
 * Feed `pricing`: the curated model catalog (behind /api/models), cross-checked hourly against the
 * aggregator's model list. The curated price is always the answer; the aggregator only adds a `priceCheck`
 * per model (agrees within 1% / disagrees / missing / unpriced) and notices. The sync never overwrites
 * curated data, and a failing aggregator does not fail the feed (priceCheck is then null).
 */
import { z } from "zod";
import { models as catalogModels, CapabilitySchema, TierSchema, type Model } from "../catalog/models.ts";
import { providers as catalogProviders, type Provider } from "../catalog/providers.ts";
import { OPENROUTER_MODELS_URL, openrouter, round6, type OpenRouterRow } from "../sources/openrouter.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { statusProviderById } from "../catalog/status-providers.ts";

/** Relative price difference above which curated and aggregator prices disagree. */
export const PRICE_TOLERANCE = 0.01;

/** How the aggregator's listing compares with the curated entry. */
export const PriceCheckSchema = z.strictObject({
  /** agrees: both prices within 1%; disagrees: either differs by more; missing: not listed; unpriced: listed without a usable per-token price. */
  status: z.enum(["agrees", "disagrees", "missing", "unpriced"]),
  aggregatorId: z.string(),
  aggregatorInput: z.number().nonnegative().nullable(),
  aggregatorOutput: z.number().nonnegative().nullable(),
  aggregatorContextWindow: z.number().int().positive().nullable(),
});

export type PriceCheck = z.infer<typeof PriceCheckSchema>;

/** One model as the snapshot carries it. */
export const PricingModelSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  inputCostPer1M: z.number().nonnegative(),
  outputCostPer1M: z.number().nonnegative(),
  currency: z.literal("USD"),
  contextWindow: z.number().int().positive(),
  maxOutput: z.number().int().positive().nullable(),
  capabilities: z.array(CapabilitySchema),
  releaseDate: z.iso.date(),
  openSource: z.boolean(),
  tier: TierSchema,
  aggregatorId: z.string(),
  /** Where the price was read (the model's override or its provider's pricing page). */
  pricingSource: z.url(),
  priceNote: z.string().nullable(),
  /** Null when the aggregator could not be read this run. */
  priceCheck: PriceCheckSchema.nullable(),
});

export type PricingModel = z.infer<typeof PricingModelSchema>;

/** One provider group of the snapshot. */
export const PricingProviderSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.url(),
  statusPageUrl: z.url().nullable(),
  pricingSource: z.url(),
  checked: z.iso.date(),
  pricingNote: z.string().nullable(),
  models: z.array(PricingModelSchema),
});

/** The `pricing` snapshot body. */
export const PricingSnapshotSchema = z.strictObject({
  /** The newest `checked` date among providers: from the data, never the clock. */
  lastUpdated: z.iso.date(),
  providers: z.array(PricingProviderSchema),
});

export type PricingSnapshot = z.infer<typeof PricingSnapshotSchema>;

/** Relative difference of `other` against `reference` (both zero → 0; reference zero, other not → Infinity). */
function relativeDiff(reference: number, other: number): number {
  if (reference === other) return 0;
  if (reference === 0) return Number.POSITIVE_INFINITY;
  return Math.abs(other - reference) / reference;
}

/** Compare one curated model with the aggregator's listing of it (undefined when not listed). */
export function checkPrice(model: Model, listing: OpenRouterRow | undefined): PriceCheck {
  if (!listing) {
    return {
      status: "missing",
      aggregatorId: model.aggregatorId,
      aggregatorInput: null,
      aggregatorOutput: null,
      aggregatorContextWindow: null,
    };
  }
  const base = {
    aggregatorId: model.aggregatorId,
    aggregatorInput: listing.inputPer1M,
    aggregatorOutput: listing.outputPer1M,
    aggregatorContextWindow: listing.contextWindow,
  };
  if (listing.inputPer1M === null || listing.outputPer1M === null) return { status: "unpriced", ...base };
  const agrees =
    relativeDiff(model.inputCostPer1M, listing.inputPer1M) <= PRICE_TOLERANCE &&
    relativeDiff(model.outputCostPer1M, listing.outputPer1M) <= PRICE_TOLERANCE;
  return { status: agrees ? "agrees" : "disagrees", ...base };
}

/** Build the snapshot from the curated catalog and (when it answered) the aggregator's rows. */
export function buildPricingSnapshot(
  providers: readonly Provider[],
  models: readonly Model[],
  aggregator: readonly OpenRouterRow[] | null,
): PricingSnapshot {
  const listings = aggregator ? new Map(aggregator.map((r) => [r.aggregatorId, r])) : null;
  const groups = providers.map((p) => ({
    id: p.id,
    name: p.name,
    url: p.url,
    statusPageUrl: statusProviderById(p.id)?.statusPageUrl ?? p.statusPageUrl ?? null,
    pricingSource: p.pricingSource,
    checked: p.checked,
    pricingNote: p.pricingNote ?? null,
    models: models
      .filter((m) => m.provider === p.id)
      .map(
        (m): PricingModel => ({
          id: m.id,
          name: m.name,
          provider: m.provider,
          inputCostPer1M: round6(m.inputCostPer1M),
          outputCostPer1M: round6(m.outputCostPer1M),
          currency: "USD",
          contextWindow: m.contextWindow,
          maxOutput: m.maxOutput,
          capabilities: [...m.capabilities],
          releaseDate: m.releaseDate,
          openSource: m.openSource,
          tier: m.tier,
          aggregatorId: m.aggregatorId,
          pricingSource: m.pricingSource ?? p.pricingSource,
          priceNote: m.priceNote ?? null,
          priceCheck: listings ? checkPrice(m, listings.get(m.aggregatorId)) : null,
        }),
      )
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  }));
  const lastUpdated = providers.map((p) => p.checked).sort().at(-1);
  if (!lastUpdated) throw new Error("pricing: the provider catalog is empty");
  return { lastUpdated, providers: groups.filter((g) => g.models.length > 0) };
}

/**
 * Warehouse rows of table `model_prices` for one run date: every curated price (observed on its provider's
 * check date), plus each priced aggregator match (observed at `capturedAt`, the run's time).
 */
export function modelPriceRows(snapshot: PricingSnapshot, date: string, capturedAt: string): WarehouseBatch {
  const rows: WarehouseBatch["rows"] = [];
  for (const p of snapshot.providers) {
    for (const m of p.models) {
      rows.push({
        date,
        provider: p.id,
        model_id: m.id,
        input_per_1m: m.inputCostPer1M,
        output_per_1m: m.outputCostPer1M,
        context_window: m.contextWindow,
        source: "curated",
        source_url: p.pricingSource,
        observed_at: `${p.checked}T00:00:00.000Z`,
      });
      const check = m.priceCheck;
      if (check && check.aggregatorInput !== null && check.aggregatorOutput !== null) {
        rows.push({
          date,
          provider: p.id,
          model_id: m.id,
          input_per_1m: check.aggregatorInput,
          output_per_1m: check.aggregatorOutput,
          context_window: check.aggregatorContextWindow,
          source: "aggregator",
          source_url: OPENROUTER_MODELS_URL,
          observed_at: capturedAt,
        });
      }
    }
  }
  return { table: "model_prices", key: ["date", "model_id", "source"], rows };
}

function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

async function readAggregator(ctx: FeedContext): Promise<{ rows: OpenRouterRow[] | null; health: SourceHealth }> {
  try {
    const res = await ctx.http.getText(OPENROUTER_MODELS_URL, { expectContentType: ["json"] });
    const parsed = openrouter.parse(res.body);
    if (parsed.skipped > 0) ctx.notice(`pricing: aggregator list had ${parsed.skipped} unreadable entries (skipped)`);
    const rows = openrouter.normalize(parsed);
    return { rows, health: { id: openrouter.id, ok: true, rows: rows.length } };
  } catch (err) {
    const error = describeError(err);
    ctx.notice(`pricing: aggregator ${OPENROUTER_MODELS_URL} unavailable, serving curated prices unchecked (${error})`);
    return { rows: null, health: { id: openrouter.id, ok: false, error } };
  }
}

function fmt(n: number | null): string {
  return n === null ? "?" : String(n);
}

/** The `pricing` feed (model catalog + aggregator price check). */
export const pricingFeed: Feed<PricingSnapshot> = {
  type: "pricing",
  title: "Model catalog and prices",
  cron: "7 * * * *",
  cadence: "hourly",
  slaSeconds: 7200,
  schema: PricingSnapshotSchema,
  urls: () => [OPENROUTER_MODELS_URL],
  historyRows: (data, at) => [modelPriceRows(data, at.date, at.observedAt)],
  async run(ctx: FeedContext): Promise<FeedOutput<PricingSnapshot>> {
    const aggregator = await readAggregator(ctx);
    const data = buildPricingSnapshot(catalogProviders, catalogModels, aggregator.rows);
    const all = data.providers.flatMap((p) => p.models);
    for (const m of all) {
      const c = m.priceCheck;
      if (c?.status === "disagrees") {
        ctx.notice(
          `pricing: ${m.id} curated ${m.inputCostPer1M}/${m.outputCostPer1M} vs aggregator ${c.aggregatorId} ${fmt(c.aggregatorInput)}/${fmt(c.aggregatorOutput)} USD per 1M (in/out) — kept curated`,
        );
      } else if (c?.status === "missing") {
        ctx.notice(`pricing: ${m.id} not listed by the aggregator as ${c.aggregatorId}`);
      } else if (c?.status === "unpriced") {
        ctx.notice(`pricing: ${m.id} listed by the aggregator without a per-token price`);
      }
    }
    return {
      data,
      rows: all.length,
      sources: [{ id: "curated", ok: true, rows: all.length }, aggregator.health],
      warehouse: [modelPriceRows(data, ctx.now.toISOString().slice(0, 10), ctx.now.toISOString())],
    };
  },
};
