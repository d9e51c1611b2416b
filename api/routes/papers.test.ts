import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { papersAiTrendingFeed } from "../../pipelines/feeds/papers-ai-trending.ts";
import { papersModelhubDailyFeed } from "../../pipelines/feeds/papers-modelhub-daily.ts";
import { papersPreprintRecentFeed } from "../../pipelines/feeds/papers-preprint-recent.ts";
import { createHttpClient, type ClosableHttpClient } from "../../pipelines/lib/http/client.ts";
import { testFeedContext } from "../../pipelines/lib/testing/feed-context.ts";
import type { RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { PapersAiTrendingResponse, PapersModelhubDailyResponse, PapersPreprintRecentResponse, papersRoutes } from "./papers.ts";
import type { PapersAiTrendingSnapshot } from "../../pipelines/contract/snapshots/papers-ai-trending.ts";
import type { PapersModelhubDailySnapshot } from "../../pipelines/contract/snapshots/papers-modelhub-daily.ts";
import type { PapersPreprintRecentSnapshot } from "../../pipelines/contract/snapshots/papers-preprint-recent.ts";

const LAST_SUCCESS = "2026-11-22T11:00:09.120Z";

function meta(type: string, over: Partial<SnapshotMeta> = {}): SnapshotMeta {
  return {
    type, date: "2026-11-22", lastSuccess: LAST_SUCCESS, lastAttempt: LAST_SUCCESS, lastChanged: LAST_SUCCESS, lastError: null, rows: 1,
    provenance: "replay", slaSeconds: 172_800, cadence: "daily", sources: [], ...over,
  };
}

function ctx(bodies: Record<string, unknown>, metaOver: Partial<SnapshotMeta> = {}): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type in bodies ? { type, data: bodies[type] as T, meta: meta(type, metaOver) } : undefined),
    types: () => Object.keys(bodies),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T12:00:00Z") };
}

const render = (path: string) => {
  const r = papersRoutes.find((x) => x.path === path);
  if (!r?.render) throw new Error(`no render for ${path}`);
  return r.render as (c: RenderContext, i: never) => unknown;
};
const input = { query: {}, params: {} } as never;

describe("papers routes", () => {
  let http: ClosableHttpClient;
  const bodies: Record<string, unknown> = {};
  beforeAll(async () => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    const c = { ...testFeedContext({ http, now: new Date("2026-11-22T11:00:00Z") }), provenance: "replay" as const };
    for (const feed of [papersAiTrendingFeed, papersPreprintRecentFeed, papersModelhubDailyFeed]) {
      bodies[feed.type] = JSON.parse(JSON.stringify((await feed.run(c)).data));
    }
  });
  afterAll(() => http.close());

  it("GET /api/papers/ai-trending render() serves the snapshot with updated = lastSuccess", async () => {
    const body = PapersAiTrendingResponse.parse(await render("/api/papers/ai-trending")(ctx(bodies), input));
    expect(body.ok).toBe(true);
    expect(body.updated).toBe(LAST_SUCCESS);
    expect(body.snapshot).toEqual(bodies["papers-ai-trending"] as PapersAiTrendingSnapshot);
    expect(body.snapshot.papers).toHaveLength(30);
  });

  it("GET /api/papers/preprint-recent render() serves the 50 preprints", async () => {
    const body = PapersPreprintRecentResponse.parse(await render("/api/papers/preprint-recent")(ctx(bodies), input));
    expect(body.snapshot).toEqual(bodies["papers-preprint-recent"] as PapersPreprintRecentSnapshot);
    expect(body.snapshot.preprints).toHaveLength(50);
  });

  it("GET /api/papers/modelhub-daily render() serves papers by upvotes", async () => {
    const body = PapersModelhubDailyResponse.parse(await render("/api/papers/modelhub-daily")(ctx(bodies, { lastSuccess: null }), input));
    expect(body.updated).toBeNull();
    expect(body.snapshot).toEqual(bodies["papers-modelhub-daily"] as PapersModelhubDailySnapshot);
  });

  it("render() answers 503 snapshot_unavailable when the snapshot is missing or does not match its schema", async () => {
    for (const r of papersRoutes) {
      await expect(async () => render(r.path)(ctx({}), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
      const broken = { [r.snapshots![0]!]: { papers: "nope" } };
      await expect(async () => render(r.path)(ctx(broken), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable", message: expect.stringContaining("does not match its schema") });
    }
  });

  it("papersRoutes declare free GET routes over their own snapshot with a daily 2-day SLA", () => {
    expect(papersRoutes.map((r) => [r.path, r.snapshots])).toEqual([
      ["/api/papers/ai-trending", ["papers-ai-trending"]],
      ["/api/papers/preprint-recent", ["papers-preprint-recent"]],
      ["/api/papers/modelhub-daily", ["papers-modelhub-daily"]],
    ]);
    for (const r of papersRoutes) {
      expect(r).toMatchObject({ method: "GET", tier: "free", freshness: { slaSeconds: 172_800 } });
      expect(r.description!.length).toBeGreaterThan(100);
    }
  });
});
