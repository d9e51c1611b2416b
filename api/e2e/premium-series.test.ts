/**
 * The warehouse series over real HTTP: an API server process on a replay run's snapshots (which wrote today's
 * aggregator_models_daily and modelhub_daily partitions) plus earlier days written from altered copies of the
 * same snapshots, billed on a real Postgres. Checks the figures, the gaps, the window rules (400, not charged)
 * and the no-charge outcome of a window without any capture.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregatorModelRows, type AggregatorModelsSnapshot } from "../../pipelines/feeds/aggregator-models.ts";
import { feeds } from "../../pipelines/feeds/index.ts";
import { modelhubDailyRows, type ModelhubTrendingSnapshot } from "../../pipelines/feeds/modelhub-trending.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
import { addDays } from "../verdicts/history-range.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

let temp: TempDatabase | undefined;
let api: SpawnedApi | undefined;
let snapshotsDir = "";
let token = "";
let today = "";
let aggregator: AggregatorModelsSnapshot;
let hub: ModelhubTrendingSnapshot;

beforeAll(async () => {
  temp = await openTempDatabase();
  snapshotsDir = await mkdtemp(join(tmpdir(), "agentfeed-series-"));
  const now = new Date();
  today = now.toISOString().slice(0, 10);
  await runFeeds({ feeds: { "aggregator-models": feeds["aggregator-models"], "modelhub-trending": feeds["modelhub-trending"] }, snapshotsDir, now, replayDir: join(ROOT, "pipelines/fixtures") });
  aggregator = JSON.parse(await readFile(join(snapshotsDir, "aggregator-models/latest.json"), "utf8")) as AggregatorModelsSnapshot;
  hub = JSON.parse(await readFile(join(snapshotsDir, "modelhub-trending/latest.json"), "utf8")) as ModelhubTrendingSnapshot;

  // Two days ago the catalog lacked its first model, still listed a retired one and priced opus differently; yesterday has no capture.
  const earlier = structuredClone(aggregator);
  earlier.models = earlier.models.slice(1).map((m) => (m.id === "anthropic/claude-opus-4" ? { ...m, pricing: { ...m.pricing, input_per_1m: 99 } } : m));
  earlier.models.push({ ...earlier.models[0]!, id: "zz-test/retired", namespace: "zz-test" });
  await writeWarehouse(snapshotsDir, addDays(today, -2), [aggregatorModelRows(earlier, addDays(today, -2))]);

  // Yesterday the top model had 1,000 fewer downloads, the 30th model was another one, and the top Space 7 fewer likes.
  const yesterday = structuredClone(hub);
  yesterday.models[0] = { ...yesterday.models[0]!, downloads: yesterday.models[0]!.downloads - 1000 };
  yesterday.models[29] = { ...yesterday.models[29]!, id: "test-owner/exited-model" };
  yesterday.spaces[0] = { ...yesterday.spaces[0]!, likes: yesterday.spaces[0]!.likes - 7 };
  await writeWarehouse(snapshotsDir, addDays(today, -1), [modelhubDailyRows(yesterday, addDays(today, -1))]);

  api = await spawnApi({ SNAPSHOTS_DIR: snapshotsDir, DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "off" });
  const credits = createCredits(temp.db as Database);
  const minted = await credits.mintToken(temp.db, { kind: "paid" });
  await credits.grant(temp.db, minted.id, 20, { reason: "purchase", ref: "test:series" });
  token = minted.token;
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await temp?.close();
  if (snapshotsDir) await rm(snapshotsDir, { recursive: true, force: true });
});

const paid = async (path: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(api!.base + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Json };
};

describe("GET /api/premium/aggregator/series", () => {
  it("answers 402 without a credential", async () => {
    expect((await fetch(`${api!.base}/api/premium/aggregator/series`)).status).toBe(402);
  });

  it("serves the default 30-day window: today compared with the capture two days ago, yesterday without data", async () => {
    const { status, body } = await paid("/api/premium/aggregator/series");
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body).toMatchObject({ ok: true, from: addDays(today, -29), to: today, days: 30 });
    expect(body.points).toHaveLength(30);
    const [twoDaysAgo, yesterday, now] = body.points.slice(-3) as [Json, Json, Json];
    expect(twoDaysAgo).toMatchObject({ date: addDays(today, -2), has_data: true, total_models: aggregator.models.length, added: null, removed: null, price_changes: null });
    expect(yesterday).toMatchObject({ date: addDays(today, -1), has_data: false, total_models: null, cheapest_input_usd_per_m: null, added: null });
    expect(now).toMatchObject({
      date: today,
      has_data: true,
      total_models: aggregator.models.length,
      free_tier_count: aggregator.summary.free_count,
      namespace_count: aggregator.summary.namespaces,
      added: 1,
      removed: 1,
      price_changes: 1,
      added_sample: [aggregator.models[0]!.id],
      removed_sample: ["zz-test/retired"],
    });
    const priced = aggregator.models.map((m) => m.pricing.input_per_1m).filter((p): p is number => p !== null && p > 0);
    expect(now.cheapest_input_usd_per_m).toBe(Math.min(...priced));
    expect(body.delta_in_window).toMatchObject({ start_total: aggregator.models.length, end_total: aggregator.models.length, net: 0 });
    expect(body.points.slice(0, 27).every((p: Json) => p.has_data === false)).toBe(true);
  });

  it("does not charge a window without any capture", async () => {
    const { status, body } = await paid("/api/premium/aggregator/series?from=2020-01-01&to=2020-01-31");
    expect(status).toBe(200);
    expect(body.points.every((p: Json) => p.has_data === false)).toBe(true);
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_data_in_range" });
  });

  it("refuses a window longer than 90 days or reversed with a 400, uncharged", async () => {
    const long = await paid("/api/premium/aggregator/series?from=2026-01-01&to=2026-04-01");
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ ok: false, error: "range_too_long" });
    expect(long.body.message).toContain("at most 90 days");
    expect((await paid(`/api/premium/aggregator/series?from=${addDays(today, -89)}`)).status).toBe(200);
    const reversed = await paid("/api/premium/aggregator/series?from=2026-02-02&to=2026-02-01");
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toBe("invalid_range");
    expect((await paid("/api/premium/aggregator/series?from=2026-02-30")).status).toBe(400);
    expect((await paid(`/api/premium/aggregator/series?to=${"9".repeat(600)}`)).body).toMatchObject({ ok: false, error: "invalid_query" });
  });
});

describe("GET /api/premium/modelhub/velocity", () => {
  it("compares today's top 30 with yesterday's: entries, exits and deltas for ids on both days", async () => {
    const { status, body } = await paid(`/api/premium/modelhub/velocity?from=${addDays(today, -1)}&to=${today}`);
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    const [first, now] = body.points as [Json, Json];
    expect(first).toMatchObject({ has_data: true, model_count: 30, models_entered: null, top_models_by_download_delta: null });
    expect(now).toMatchObject({ has_data: true, model_count: 30, dataset_count: 30, space_count: 30, models_entered: 1, models_exited: 1, datasets_entered: 0, datasets_exited: 0 });
    expect(now.top_models_by_download_delta[0]).toEqual({ id: hub.models[0]!.id, downloads: hub.models[0]!.downloads, download_delta: 1000 });
    expect(now.top_models_by_download_delta.map((m: Json) => m.id)).not.toContain(hub.models[29]!.id);
    expect(now.top_spaces_by_likes_delta[0]).toEqual({ id: hub.spaces[0]!.id, likes: hub.spaces[0]!.likes, likes_delta: 7 });
    expect(body.window.top_model_gainers[0]).toEqual({ id: hub.models[0]!.id, downloads: hub.models[0]!.downloads, download_delta: 1000, days: 1 });
    expect(body.window).toMatchObject({ model_count_start: 30, model_count_end: 30 });
  });

  it("compares the window's first day with the capture before it", async () => {
    const { body } = await paid(`/api/premium/modelhub/velocity?from=${today}&to=${today}`);
    expect(body.points).toHaveLength(1);
    expect(body.points[0]).toMatchObject({ models_entered: 1, models_exited: 1 });
  });

  it("does not charge a window without any capture, and refuses more than 90 days", async () => {
    const empty = await paid("/api/premium/modelhub/velocity?from=2020-01-01&to=2020-01-02");
    expect(empty.body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_data_in_range" });
    expect(empty.body.window).toEqual({ top_model_gainers: [], top_dataset_gainers: [], model_count_start: null, model_count_end: null });
    expect((await paid("/api/premium/modelhub/velocity?from=2025-01-01")).body.error).toBe("range_too_long");
    expect((await paid("/api/premium/modelhub/velocity?to=2026-01-01&from=2025-09-01")).body.error).toBe("range_too_long");
  });
});
