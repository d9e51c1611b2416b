/**
 * The `modelhub-trending` snapshot: the Hugging Face Hub's 30 most downloaded models and datasets and its 30
 * most liked Spaces, from three listing requests (sent concurrently; the shared client caps per-host
 * concurrency). Each list is re-sorted here (downloads or likes descending, then id), because the hub's
 * cached counters can arrive slightly out of order.
 * A listing that fails leaves its list empty and is reported in source health and a notice; the run fails
 * only when all three fail.
 * Also writes warehouse table `modelhub_daily` { date, kind, id, rank, downloads, likes } keyed [date, kind, id],
 * read by GET /api/premium/modelhub/velocity.
 */
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { MODELHUB_DATASETS_URL, MODELHUB_MODELS_URL, MODELHUB_SPACES_URL, modelhubDatasets, modelhubModels, modelhubSpaces, type RepoListParsed } from "../sources/modelhub.ts";
import { type ModelhubTrendingSnapshot, modelhubTrendingSnapshotType } from "../contract/snapshots/modelhub-trending.ts";

export { type ModelhubTrendingSnapshot, modelhubTrendingSnapshotSchema } from "../contract/snapshots/modelhub-trending.ts";

/** Thrown when all three listings failed. */
export class ModelhubTrendingError extends Error {
  override name = "ModelhubTrendingError";
}

interface Listing<Row> {
  key: "models" | "datasets" | "spaces";
  url: string;
  source: { id: string; parse(body: string): RepoListParsed; normalize(parsed: RepoListParsed, ctx: { now: Date }): Row[] };
}

const LISTINGS = [
  { key: "models", url: MODELHUB_MODELS_URL, source: modelhubModels },
  { key: "datasets", url: MODELHUB_DATASETS_URL, source: modelhubDatasets },
  { key: "spaces", url: MODELHUB_SPACES_URL, source: modelhubSpaces },
] as const satisfies readonly Listing<unknown>[];

async function fetchListing<Row>(ctx: FeedContext, listing: Listing<Row>): Promise<{ rows: Row[]; skipped: number }> {
  const { body } = await ctx.http.getText(listing.url, { headers: { accept: "application/json" } });
  const parsed = listing.source.parse(body);
  return { rows: listing.source.normalize(parsed, { now: ctx.now }), skipped: parsed.skipped };
}

/** Build the snapshot from the three listings. */
export async function runModelhubTrending(ctx: FeedContext): Promise<FeedOutput<ModelhubTrendingSnapshot>> {
  const [models, datasets, spaces] = await Promise.allSettled([
    fetchListing(ctx, LISTINGS[0]),
    fetchListing(ctx, LISTINGS[1]),
    fetchListing(ctx, LISTINGS[2]),
  ]);
  const health: SourceHealth[] = [];
  function rowsOf<Row>(key: string, id: string, result: PromiseSettledResult<{ rows: Row[]; skipped: number }>): Row[] {
    if (result.status === "fulfilled") {
      health.push({ id, ok: true, rows: result.value.rows.length });
      if (result.value.skipped > 0) ctx.notice(`modelhub-trending: ${key} skipped ${result.value.skipped} unreadable entries`);
      return result.value.rows;
    }
    const error = result.reason instanceof Error ? result.reason.message : String(result.reason);
    health.push({ id, ok: false, error });
    ctx.notice(`modelhub-trending: ${key} listing failed: ${error}`);
    return [];
  }
  const data: ModelhubTrendingSnapshot = {
    models: rowsOf("models", modelhubModels.id, models),
    datasets: rowsOf("datasets", modelhubDatasets.id, datasets),
    spaces: rowsOf("spaces", modelhubSpaces.id, spaces),
  };
  if (health.every((h) => !h.ok)) {
    throw new ModelhubTrendingError(`modelhub-trending: every listing failed (${health.map((h) => `${h.id}: ${h.error}`).join("; ")})`);
  }
  return {
    data,
    rows: data.models.length + data.datasets.length + data.spaces.length,
    sources: health,
    warehouse: [modelhubDailyRows(data, ctx.now.toISOString().slice(0, 10))],
  };
}

/** Warehouse rows of `modelhub_daily` for one UTC day: each listing's entries with their 1-based rank. */
export function modelhubDailyRows(snapshot: ModelhubTrendingSnapshot, date: string): WarehouseBatch {
  return {
    table: "modelhub_daily",
    key: ["date", "kind", "id"],
    rows: [
      ...snapshot.models.map((m, i) => ({ date, kind: "model", id: m.id, rank: i + 1, downloads: m.downloads, likes: m.likes })),
      ...snapshot.datasets.map((d, i) => ({ date, kind: "dataset", id: d.id, rank: i + 1, downloads: d.downloads, likes: d.likes })),
      ...snapshot.spaces.map((s, i) => ({ date, kind: "space", id: s.id, rank: i + 1, downloads: null, likes: s.likes })),
    ],
  };
}

/** The `modelhub-trending` snapshot type. */
export const modelhubTrendingFeed: Feed<ModelhubTrendingSnapshot> = {
  ...modelhubTrendingSnapshotType,
  urls: () => LISTINGS.map((l) => l.url),
  historyRows: (data, at) => [modelhubDailyRows(data, at.date)],
  run: (ctx) => runModelhubTrending(ctx),
};
