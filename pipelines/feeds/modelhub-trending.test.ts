import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type ClosableHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { HttpClient } from "../lib/types.ts";
import { MODELHUB_DATASETS_URL, MODELHUB_MODELS_URL, MODELHUB_SPACES_URL } from "../sources/modelhub.ts";
import { writeWarehouse } from "../lib/warehouse/write.ts";
import { modelhubDailyRows, modelhubTrendingFeed, modelhubTrendingSnapshotSchema } from "./modelhub-trending.ts";

const NOW = new Date("2026-11-20T12:00:00Z");
const ctxFor = (http: HttpClient) => ({ ...testFeedContext({ http, now: NOW }), provenance: "replay" as const });
const failing = (http: HttpClient, urls: string[]): HttpClient => ({
  getText: async (url, o) => {
    if (urls.includes(url)) throw new Error(`GET ${url} failed: 503 Service Unavailable`);
    return http.getText(url, o);
  },
  getJson: (url, o) => http.getJson(url, o),
});
const desc = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);

describe("modelhubTrendingFeed with the replay client", () => {
  let http: ClosableHttpClient;
  let out: Awaited<ReturnType<typeof modelhubTrendingFeed.run>>;
  beforeAll(async () => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    out = await modelhubTrendingFeed.run(ctxFor(http));
  });
  afterAll(() => http.close());

  it("run() builds top-30 models, datasets and Spaces that pass the strict schema", () => {
    modelhubTrendingSnapshotSchema.parse(out.data);
    expect([out.data.models.length, out.data.datasets.length, out.data.spaces.length]).toEqual([30, 30, 30]);
    expect(out.rows).toBe(90);
    expect(out.sources!.every((s) => s.ok)).toBe(true);
  });

  it("run() sorts models and datasets by downloads and Spaces by likes", () => {
    expect(desc(out.data.models.map((m) => m.downloads))).toBe(true);
    expect(desc(out.data.datasets.map((d) => d.downloads))).toBe(true);
    expect(desc(out.data.spaces.map((s) => s.likes))).toBe(true);
    expect(out.data.models[0]!.id).toBe("sentence-transformers/all-MiniLM-L6-v2");
    expect(out.data.spaces[0]!.id).toBe("HuggingFaceH4/open_llm_leaderboard");
  });

  it("schema rejects a list that is out of order", () => {
    const swapped = { ...out.data, spaces: [out.data.spaces[1]!, out.data.spaces[0]!, ...out.data.spaces.slice(2)] };
    expect(modelhubTrendingSnapshotSchema.safeParse(swapped).success).toBe(false);
  });

  it("run() leaves a failed listing empty and reports it", async () => {
    const ctx = ctxFor(failing(http, [MODELHUB_DATASETS_URL]));
    const partial = await modelhubTrendingFeed.run(ctx);
    expect(partial.data.datasets).toEqual([]);
    expect(partial.data.models).toEqual(out.data.models);
    expect(partial.sources!.find((s) => s.id === "modelhub-datasets")).toMatchObject({ ok: false, error: expect.stringContaining("503") });
    expect(ctx.notices).toEqual([expect.stringContaining("datasets listing failed")]);
  });

  it("run() fails when all three listings fail", async () => {
    await expect(modelhubTrendingFeed.run(ctxFor(failing(http, [MODELHUB_MODELS_URL, MODELHUB_DATASETS_URL, MODELHUB_SPACES_URL])))).rejects.toThrow(/every listing failed/);
  });

  it("run() writes modelhub_daily: every listed entry with its kind and 1-based rank, Spaces without downloads", () => {
    const batch = out.warehouse?.[0];
    expect(out.warehouse).toHaveLength(1);
    expect(batch).toEqual(modelhubDailyRows(out.data, "2026-11-20"));
    expect(batch!.key).toEqual(["date", "kind", "id"]);
    expect(batch!.rows).toHaveLength(90);
    const model = out.data.models[0]!;
    expect(batch!.rows[0]).toEqual({ date: "2026-11-20", kind: "model", id: model.id, rank: 1, downloads: model.downloads, likes: model.likes });
    const space = out.data.spaces[29]!;
    expect(batch!.rows[89]).toEqual({ date: "2026-11-20", kind: "space", id: space.id, rank: 30, downloads: null, likes: space.likes });
    expect(modelhubTrendingFeed.historyRows!(out.data, { date: "2026-11-20", observedAt: NOW.toISOString() })).toEqual(out.warehouse);
  });

  it("modelhubDailyRows() writes a Parquet day file that reads back with the declared types", async () => {
    const dir = await mkdtemp(join(tmpdir(), "af-modelhub-"));
    const instance = await DuckDBInstance.create(":memory:");
    const conn = await instance.connect();
    try {
      const [written] = await writeWarehouse(dir, "2026-11-20", out.warehouse!);
      expect(written).toMatchObject({ table: "modelhub_daily", rows: 90, changed: true });
      const reader = await conn.runAndReadAll(
        `SELECT kind, count(*)::INT AS n, min(rank)::INT AS first, max(rank)::INT AS last, count(downloads)::INT AS with_downloads,
                typeof(any_value(downloads)) AS downloads_type FROM read_parquet($1) GROUP BY kind ORDER BY kind`,
        [written!.path],
      );
      expect(reader.getRowObjectsJson()).toEqual([
        { kind: "dataset", n: 30, first: 1, last: 30, with_downloads: 30, downloads_type: "BIGINT" },
        { kind: "model", n: 30, first: 1, last: 30, with_downloads: 30, downloads_type: "BIGINT" },
        { kind: "space", n: 30, first: 1, last: 30, with_downloads: 0, downloads_type: "BIGINT" },
      ]);
    } finally {
      conn.closeSync();
      instance.closeSync();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("run() writes no modelhub_daily rows for a failed listing", async () => {
    const partial = await modelhubTrendingFeed.run(ctxFor(failing(http, [MODELHUB_SPACES_URL])));
    const kinds = new Set(partial.warehouse![0]!.rows.map((r) => r["kind"]));
    expect([...kinds].sort()).toEqual(["dataset", "model"]);
  });

  it("urls() lists the three listings; the feed runs daily at 12:00 UTC", () => {
    expect(modelhubTrendingFeed.urls()).toEqual([MODELHUB_MODELS_URL, MODELHUB_DATASETS_URL, MODELHUB_SPACES_URL]);
    expect(modelhubTrendingFeed.cron).toBe("0 12 * * *");
  });
});
