import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelhubTrendingFeed } from "../../pipelines/feeds/modelhub-trending.ts";
import { createHttpClient, type ClosableHttpClient } from "../../pipelines/lib/http/client.ts";
import { testFeedContext } from "../../pipelines/lib/testing/feed-context.ts";
import type { RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { ModelhubTrendingResponse, modelhubRoutes } from "./modelhub.ts";
import type { ModelhubTrendingSnapshot } from "../../pipelines/contract/snapshots/modelhub-trending.ts";

const LAST_SUCCESS = "2026-11-22T12:00:04.001Z";

function ctx(data: unknown): RenderContext {
  const meta: SnapshotMeta = {
    type: "modelhub-trending", date: "2026-11-22", lastSuccess: LAST_SUCCESS, lastAttempt: LAST_SUCCESS, lastChanged: LAST_SUCCESS, lastError: null,
    rows: 90, provenance: "replay", slaSeconds: 172_800, cadence: "daily at 12:00 UTC", sources: [],
  };
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "modelhub-trending" && data !== undefined ? { type, data: data as T, meta } : undefined),
    types: () => [],
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T12:30:00Z") };
}

const route = modelhubRoutes[0]!;
const render = route.render as (c: RenderContext, i: never) => unknown;
const input = { query: {}, params: {} } as never;

describe("modelhub routes", () => {
  let http: ClosableHttpClient;
  let data: ModelhubTrendingSnapshot;
  beforeAll(async () => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    const c = { ...testFeedContext({ http, now: new Date("2026-11-22T12:00:00Z") }), provenance: "replay" as const };
    data = JSON.parse(JSON.stringify((await modelhubTrendingFeed.run(c)).data)) as ModelhubTrendingSnapshot;
  });
  afterAll(() => http.close());

  it("GET /api/modelhub/trending render() serves models, datasets and spaces with updated", async () => {
    const body = ModelhubTrendingResponse.parse(await render(ctx(data), input));
    expect(body).toEqual({ ok: true, snapshot: data, updated: LAST_SUCCESS });
    expect(body.snapshot.spaces[0]!.likes).toBeGreaterThanOrEqual(body.snapshot.spaces[1]!.likes);
  });

  it("render() answers 503 snapshot_unavailable without a snapshot or with one that fails the schema", async () => {
    await expect(async () => render(ctx(undefined), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
    await expect(async () => render(ctx({ models: [] }), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
  });

  it("modelhubRoutes declare one free route over modelhub-trending", () => {
    expect(route).toMatchObject({ method: "GET", path: "/api/modelhub/trending", tier: "free", snapshots: ["modelhub-trending"], freshness: { cadence: "daily at 12:00 UTC", slaSeconds: 172_800 } });
  });
});
