/**
 * Feed `pricing`: the curated model catalog (behind /api/models), cross-checked hourly against the
 * aggregator's model list. Every model carries each source's observation of its price with the moment it was
 * observed — the curated price on its provider's check date, the aggregator's price from the first capture
 * that stated it — and serves the newest one (`priceServed` names which); `priceCheck` says whether the two
 * agree within 1%. The curated catalog itself is never rewritten. A run whose aggregator list cannot be read
 * fails: it has checked nothing, so the previous snapshot stays served and ages against its SLA (a run that
 * succeeded on the catalog alone would serve older curated prices as freshly checked).
 */
import { models as catalogModels, type Model } from "../catalog/models.ts";
import { providers as catalogProviders, type Provider } from "../catalog/providers.ts";
import { OPENROUTER_MODELS_URL, openrouter, round6, type OpenRouterRow } from "../sources/openrouter.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { statusProviderById } from "../catalog/status-providers.ts";
import { type PriceCheck, type PriceObservation, type PricingModel, type PricingSnapshot, PricingSnapshotStoredSchema, pricingSnapshotType } from "../contract/snapshots/pricing.ts";

export { type PriceCheck, PriceCheckSchema, type PriceObservation, PriceObservationSchema, type PriceSource, PriceSourceSchema, type PricingModel, PricingModelSchema, PricingProviderSchema, type PricingSnapshot, PricingSnapshotSchema, PricingSnapshotStoredSchema } from "../contract/snapshots/pricing.ts";

/** Relative price difference above which curated and aggregator prices disagree. */
export const PRICE_TOLERANCE = 0.01;

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

/** What building a snapshot needs besides the catalog and the aggregator's rows. */
export interface PricingBuildOptions {
  /** The capture time of this run's aggregator list (ISO). */
  capturedAt: string;
  /** The previous snapshot body, to keep an unchanged aggregator price's first observation time. */
  previous?: PricingSnapshot;
}

/** The aggregator's observation of a model: its price, observed when it was first captured with these figures. */
function aggregatorObservation(model: Model, check: PriceCheck | null, options: PricingBuildOptions, before: PricingModel | undefined): PriceObservation | null {
  if (!check || check.aggregatorInput === null || check.aggregatorOutput === null) return null;
  const input = round6(check.aggregatorInput);
  const output = round6(check.aggregatorOutput);
  const earlier = before?.priceObservations?.find((o) => o.source === "aggregator");
  const unchanged = earlier && earlier.inputCostPer1M === input && earlier.outputCostPer1M === output;
  return {
    source: "aggregator",
    inputCostPer1M: input,
    outputCostPer1M: output,
    observedAt: unchanged ? earlier.observedAt : options.capturedAt,
    url: OPENROUTER_MODELS_URL,
  };
}

/** Observations newest first; on equal times the curated one first (it is the served one on a tie). */
function newestFirst(observations: PriceObservation[]): PriceObservation[] {
  return observations.sort((a, b) => Date.parse(b.observedAt) - Date.parse(a.observedAt) || (a.source === "curated" ? -1 : b.source === "curated" ? 1 : 0));
}

/** Build the snapshot from the curated catalog and (when it answered) the aggregator's rows. */
export function buildPricingSnapshot(
  providers: readonly Provider[],
  models: readonly Model[],
  aggregator: readonly OpenRouterRow[] | null,
  options: PricingBuildOptions,
): PricingSnapshot {
  const listings = aggregator ? new Map(aggregator.map((r) => [r.aggregatorId, r])) : null;
  const previous = new Map((options.previous?.providers ?? []).flatMap((p) => p.models.map((m) => [m.id, m] as const)));
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
      .map((m): PricingModel => {
        const priceCheck = listings ? checkPrice(m, listings.get(m.aggregatorId)) : null;
        const curated: PriceObservation = {
          source: "curated",
          inputCostPer1M: round6(m.inputCostPer1M),
          outputCostPer1M: round6(m.outputCostPer1M),
          observedAt: `${p.checked}T00:00:00.000Z`,
          url: m.pricingSource ?? p.pricingSource,
        };
        const fromAggregator = aggregatorObservation(m, priceCheck, options, previous.get(m.id));
        const observations = newestFirst(fromAggregator ? [curated, fromAggregator] : [curated]);
        const served = observations[0]!;
        return {
          id: m.id,
          name: m.name,
          provider: m.provider,
          inputCostPer1M: served.inputCostPer1M,
          outputCostPer1M: served.outputCostPer1M,
          currency: "USD",
          priceServed: served.source,
          priceObservedAt: served.observedAt,
          priceObservations: observations,
          contextWindow: m.contextWindow,
          maxOutput: m.maxOutput,
          capabilities: [...m.capabilities],
          releaseDate: m.releaseDate,
          openSource: m.openSource,
          tier: m.tier,
          aggregatorId: m.aggregatorId,
          pricingSource: m.pricingSource ?? p.pricingSource,
          priceNote: m.priceNote ?? null,
          priceCheck,
        };
      })
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
      const curated = m.priceObservations.find((o) => o.source === "curated")!;
      rows.push({
        date,
        provider: p.id,
        model_id: m.id,
        input_per_1m: curated.inputCostPer1M,
        output_per_1m: curated.outputCostPer1M,
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

async function readAggregator(ctx: FeedContext): Promise<{ rows: OpenRouterRow[]; health: SourceHealth }> {
  try {
    const res = await ctx.http.getText(OPENROUTER_MODELS_URL, { expectContentType: ["json"] });
    const parsed = openrouter.parse(res.body);
    if (parsed.skipped > 0) ctx.notice(`pricing: aggregator list had ${parsed.skipped} unreadable entries (skipped)`);
    const rows = openrouter.normalize(parsed, { now: ctx.now });
    return { rows, health: { id: openrouter.id, ok: true, rows: rows.length } };
  } catch (err) {
    throw new PricingFeedError(`pricing: the aggregator list ${OPENROUTER_MODELS_URL} could not be read, so no price was checked (${describeError(err)})`, { cause: err });
  }
}

/** A pricing run that checked nothing. */
export class PricingFeedError extends Error {
  override name = "PricingFeedError";
}

function fmt(n: number | null): string {
  return n === null ? "?" : String(n);
}

/** The `pricing` feed (model catalog + aggregator price check). */
export const pricingFeed: Feed<PricingSnapshot> = {
  ...pricingSnapshotType,
  urls: () => [OPENROUTER_MODELS_URL],
  historyRows: (data, at) => [modelPriceRows(data, at.date, at.observedAt)],
  async run(ctx: FeedContext): Promise<FeedOutput<PricingSnapshot>> {
    const aggregator = await readAggregator(ctx);
    const previous = PricingSnapshotStoredSchema.safeParse(await ctx.previous("pricing"));
    const data = buildPricingSnapshot(catalogProviders, catalogModels, aggregator.rows, {
      capturedAt: ctx.now.toISOString(),
      previous: previous.success ? previous.data : undefined,
    });
    const all = data.providers.flatMap((p) => p.models);
    for (const m of all) {
      const c = m.priceCheck;
      if (c?.status === "disagrees") {
        const curated = m.priceObservations.find((o) => o.source === "curated")!;
        ctx.notice(
          `pricing: ${m.id} curated ${curated.inputCostPer1M}/${curated.outputCostPer1M} (checked ${curated.observedAt.slice(0, 10)}) vs aggregator ${c.aggregatorId} ${fmt(c.aggregatorInput)}/${fmt(c.aggregatorOutput)} USD per 1M (in/out) — serving the newer, ${m.priceServed}`,
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
