/**
 * The `aggregator-models` snapshot (GET /api/aggregator/models, daily 14:00 UTC): every model the
 * cross-provider aggregator lists (https://openrouter.ai/api/v1/models), read with the shared openrouter
 * source. Per model: USD per token as listed and per 1M tokens (null for variable-price routers), context
 * window, max output, modality string and input/output modalities, namespace (the id before `/`, i.e. the
 * model's maker on the aggregator) and listing date. Sorted by id. `free` means both prices are exactly 0.
 * Also writes warehouse table `aggregator_models_daily` { date, model_id, namespace, input_per_1m,
 * output_per_1m, context_length } keyed [date, model_id], read by later price series.
 */
import type { Feed, FeedContext, FeedOutput, WarehouseBatch } from "../lib/types.ts";
import { cleanLabel, MODALITY_MAX, type OpenRouterParsed, openrouter, perTokenToPer1M } from "../sources/openrouter.ts";
import { type AggregatorModel, type AggregatorModelsSnapshot, AggregatorModelsSnapshotSchema, aggregatorModelsSnapshotType, OPENROUTER_MODELS_URL } from "../contract/snapshots/aggregator-models.ts";

export { type AggregatorModel, AggregatorModelSchema, type AggregatorModelsSnapshot, AggregatorModelsSnapshotSchema } from "../contract/snapshots/aggregator-models.ts";

/** The id's namespace: the part before the first `/` (the whole id when there is none). */
export function namespaceOf(id: string): string {
  const i = id.indexOf("/");
  return i > 0 ? id.slice(0, i) : id;
}

/** USD per token as a number, when the listed value is a usable (non-negative, numeric) price. */
function perToken(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  if (perTokenToPer1M(value) === null) return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * Build the snapshot from the parsed aggregator list (later duplicates of an id are dropped). `now` is the fetch
 * time: a `created` outside 1990 … now + 1 day is kept as null (pipelines/lib/time.ts).
 */
export function buildAggregatorModels(parsed: OpenRouterParsed, now: Date): AggregatorModelsSnapshot {
  const rows = openrouter.normalize(parsed, { now });
  const byId = new Map<string, AggregatorModel>();
  parsed.models.forEach((m, i) => {
    const row = rows[i]!;
    if (byId.has(row.aggregatorId)) return;
    byId.set(row.aggregatorId, {
      id: row.aggregatorId,
      name: row.name,
      namespace: namespaceOf(row.aggregatorId),
      created: row.created,
      context_length: row.contextWindow,
      max_output: row.maxOutput,
      modality: cleanLabel(m.architecture?.modality, MODALITY_MAX),
      input_modalities: row.inputModalities,
      output_modalities: row.outputModalities,
      pricing: {
        prompt_per_token: perToken(m.pricing?.prompt),
        completion_per_token: perToken(m.pricing?.completion),
        input_per_1m: row.inputPer1M,
        output_per_1m: row.outputPer1M,
      },
      free: row.inputPer1M === 0 && row.outputPer1M === 0,
    });
  });
  const models = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    source: OPENROUTER_MODELS_URL,
    summary: {
      total: models.length,
      free_count: models.filter((m) => m.free).length,
      namespaces: new Set(models.map((m) => m.namespace)).size,
      unpriced_count: models.filter((m) => m.pricing.input_per_1m === null || m.pricing.output_per_1m === null).length,
    },
    models,
  };
}

/** Warehouse rows of `aggregator_models_daily` for one UTC day. */
export function aggregatorModelRows(snapshot: AggregatorModelsSnapshot, date: string): WarehouseBatch {
  return {
    table: "aggregator_models_daily",
    key: ["date", "model_id"],
    rows: snapshot.models.map((m) => ({
      date,
      model_id: m.id,
      namespace: m.namespace,
      input_per_1m: m.pricing.input_per_1m,
      output_per_1m: m.pricing.output_per_1m,
      context_length: m.context_length,
    })),
  };
}

/** Build the snapshot and warehouse rows. */
export async function runAggregatorModels(ctx: FeedContext): Promise<FeedOutput<AggregatorModelsSnapshot>> {
  const res = await ctx.http.getText(OPENROUTER_MODELS_URL, { expectContentType: ["json"] });
  const parsed = openrouter.parse(res.body);
  if (parsed.skipped > 0) ctx.notice(`aggregator-models: ${parsed.skipped} unreadable entries skipped`);
  const data = AggregatorModelsSnapshotSchema.parse(buildAggregatorModels(parsed, ctx.now));
  return {
    data,
    rows: data.models.length,
    sources: [{ id: openrouter.id, ok: true, rows: data.models.length }],
    warehouse: [aggregatorModelRows(data, ctx.now.toISOString().slice(0, 10))],
  };
}

/** The aggregator model catalog feed (API: GET /api/aggregator/models). */
export const aggregatorModelsFeed: Feed<AggregatorModelsSnapshot> = {
  ...aggregatorModelsSnapshotType,
  urls: () => [OPENROUTER_MODELS_URL],
  historyRows: (data, at) => [aggregatorModelRows(data, at.date)],
  run: (ctx) => runAggregatorModels(ctx),
};
