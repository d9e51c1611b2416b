/**
 * The `inference-providers` snapshot (every 6 hours): the per-model inference-provider matrix. For each model
 * of the curated catalog (its `aggregatorId`, at most MAX_MODELS_PER_RUN, in id order) the aggregator's
 * endpoints listing (pipelines/sources/openrouter-endpoints.ts) names every provider serving it, with its
 * prices in USD per 1M tokens, context length, quantization, status and — when the aggregator states them —
 * the last 30 minutes' uptime, median latency to first token and median output throughput. A model whose
 * listing fails is left out, named in `summary.missing`, with its source health and a notice; the run fails
 * only when every listing fails. Also writes warehouse table `inference_providers_daily`.
 */
import { models as catalogModels } from "../catalog/models.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { withSourceHealth } from "../lib/types.ts";
import { openrouterEndpoints, openrouterEndpointsUrl, type OpenRouterEndpointRow } from "../sources/openrouter-endpoints.ts";
import { INFERENCE_PROVIDERS_SOURCE, type InferenceModel, type InferenceProvider, InferenceProviderSchema, type InferenceProvidersSnapshot, InferenceProvidersSnapshotSchema, inferenceProvidersSnapshotType } from "../contract/snapshots/inference-providers.ts";

export { INFERENCE_PROVIDERS_SOURCE, type InferenceModel, InferenceModelSchema, type InferenceProvider, InferenceProviderSchema, type InferenceProvidersSnapshot, InferenceProvidersSnapshotSchema } from "../contract/snapshots/inference-providers.ts";

/** Models asked for per run; the catalog holds fewer, a longer catalog is cut here with a notice. */
export const MAX_MODELS_PER_RUN = 80;
/** Size cap of one endpoints listing, bytes (a listing with dozens of providers is ~60 KB). */
export const MAX_LISTING_BYTES = 512 * 1024;

/** A catalog model as this feed needs it. */
export interface MatrixModel {
  id: string;
  aggregatorId: string;
}

/** The snapshot's provider entry for one normalized endpoint row. */
export function providerEntry(row: OpenRouterEndpointRow): InferenceProvider {
  return {
    provider: row.provider,
    tag: row.tag,
    context_length: row.contextLength,
    input_per_1m: row.inputPer1M,
    output_per_1m: row.outputPer1M,
    throughput_tps: row.throughputTps,
    latency_ms: row.latencyMs,
    uptime_last_30m: row.uptimePct,
    quantization: row.quantization,
    status: row.status,
  };
}

/** Build the snapshot from the models read (any order) and the ids that failed. */
export function buildInferenceProviders(models: InferenceModel[], missing: string[]): InferenceProvidersSnapshot {
  const sorted = [...models].sort((a, b) => (a.model_id < b.model_id ? -1 : a.model_id > b.model_id ? 1 : 0));
  return {
    source: INFERENCE_PROVIDERS_SOURCE,
    summary: {
      models: sorted.length,
      providers: new Set(sorted.flatMap((m) => m.providers.map((p) => p.provider))).size,
      endpoints: sorted.reduce((n, m) => n + m.providers.length, 0),
      missing: [...missing].sort(),
    },
    models: sorted,
  };
}

/** Warehouse rows of `inference_providers_daily` for one UTC day: one per model and endpoint tag. */
export function inferenceProviderRows(snapshot: InferenceProvidersSnapshot, date: string): WarehouseBatch {
  return {
    table: "inference_providers_daily",
    key: ["date", "model_id", "tag"],
    rows: snapshot.models.flatMap((m) =>
      m.providers.map((p) => ({
        date,
        model_id: m.model_id,
        provider: p.provider,
        tag: p.tag,
        input_per_1m: p.input_per_1m,
        output_per_1m: p.output_per_1m,
        throughput_tps: p.throughput_tps,
        latency_ms: p.latency_ms,
        uptime_pct: p.uptime_last_30m,
        context_length: p.context_length,
      })),
    ),
  };
}

/** Every listing failed: nothing trustworthy to write. */
export class InferenceProvidersFeedError extends Error {
  override name = "InferenceProvidersFeedError";
}

interface ListingResult {
  model?: InferenceModel;
  health: SourceHealth;
}

async function readListing(ctx: FeedContext, m: MatrixModel): Promise<ListingResult> {
  try {
    const url = openrouterEndpointsUrl(m.aggregatorId);
    const res = await ctx.http.getText(url, { expectContentType: ["json"], maxBytes: MAX_LISTING_BYTES, headers: { accept: "application/json" } });
    const parsed = openrouterEndpoints.parse(res.body);
    if (parsed.id !== null && parsed.id !== m.aggregatorId) {
      throw new Error(`listing is for ${JSON.stringify(parsed.id.slice(0, 100))}, not ${m.aggregatorId}`);
    }
    if (parsed.skipped > 0) ctx.notice(`inference-providers: ${m.aggregatorId}: ${parsed.skipped} unreadable endpoints skipped`);
    if (parsed.dropped > 0) ctx.notice(`inference-providers: ${m.aggregatorId}: ${parsed.dropped} endpoints beyond the cap dropped`);
    const providers = openrouterEndpoints.normalize(parsed).map((row) => InferenceProviderSchema.parse(providerEntry(openrouterEndpoints.row.parse(row))));
    return { model: { model_id: m.aggregatorId, catalog_id: m.id, providers }, health: { id: m.aggregatorId, ok: true, rows: providers.length } };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.notice(`inference-providers: ${m.aggregatorId} left out: ${message}`);
    return { health: { id: m.aggregatorId, ok: false, error: message } };
  }
}

/** The catalog models a run asks for: sorted by aggregator id, at most MAX_MODELS_PER_RUN. */
export function matrixModels(list: readonly MatrixModel[] = catalogModels): MatrixModel[] {
  return [...list]
    .map((m) => ({ id: m.id, aggregatorId: m.aggregatorId }))
    .sort((a, b) => (a.aggregatorId < b.aggregatorId ? -1 : a.aggregatorId > b.aggregatorId ? 1 : 0))
    .slice(0, MAX_MODELS_PER_RUN);
}

/** Build the snapshot and warehouse rows for `list` (default: the curated catalog). */
export async function runInferenceProviders(ctx: FeedContext, list: readonly MatrixModel[] = catalogModels): Promise<FeedOutput<InferenceProvidersSnapshot>> {
  if (list.length > MAX_MODELS_PER_RUN) ctx.notice(`inference-providers: ${list.length - MAX_MODELS_PER_RUN} catalog models beyond ${MAX_MODELS_PER_RUN} not asked for`);
  const wanted = matrixModels(list);
  if (wanted.length === 0) throw new InferenceProvidersFeedError("inference-providers: the catalog names no model");
  const results = await Promise.all(wanted.map((m) => readListing(ctx, m)));
  const read = results.flatMap((r) => (r.model ? [r.model] : []));
  if (read.length === 0) {
    const first = results[0]!.health;
    throw withSourceHealth(new InferenceProvidersFeedError(`inference-providers: all ${wanted.length} listings failed; first error: ${first.id}: ${first.error ?? "unknown"}`), results.map((r) => r.health));
  }
  const missing = results.filter((r) => !r.model).map((r) => r.health.id);
  const data = InferenceProvidersSnapshotSchema.parse(buildInferenceProviders(read, missing));
  return {
    data,
    rows: data.summary.endpoints,
    sources: results.map((r) => r.health),
    warehouse: [inferenceProviderRows(data, ctx.now.toISOString().slice(0, 10))],
  };
}

/** The inference-provider matrix feed (read by the cost verdict; no free route of its own yet). */
export const inferenceProvidersFeed: Feed<InferenceProvidersSnapshot> = {
  ...inferenceProvidersSnapshotType,
  urls: () => matrixModels().map((m) => openrouterEndpointsUrl(m.aggregatorId)),
  historyRows: (data, at) => [inferenceProviderRows(data, at.date)],
  run: (ctx) => runInferenceProviders(ctx),
};
