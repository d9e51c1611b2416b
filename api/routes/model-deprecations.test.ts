import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { ModelDeprecationsResponse, modelDeprecationsRoutes, upcomingSunsets } from "./model-deprecations.ts";
import type { DeprecationEntry, ModelDeprecationsSnapshot } from "../../pipelines/contract/snapshots/model-deprecations.ts";

const e = (provider: string, model: string, sunset: string | null, status: DeprecationEntry["status"]): DeprecationEntry => ({
  provider, model, status, announced_date: "2026-01-10", sunset_date: sunset, replacement: null,
  source: `https://docs.${provider}.test/deprecations`, checked: "2026-11-20",
});
const data: ModelDeprecationsSnapshot = {
  lastUpdated: "2026-11-20",
  providers: [
    { provider: "acme", name: "Acme", source: "https://docs.acme.test/deprecations", entries: [e("acme", "a-old", "2026-02-01", "retired"), e("acme", "a-soon", "2026-12-11", "deprecated"), e("acme", "a-open", null, "deprecated")] },
    { provider: "zeta", name: "Zeta", source: "https://docs.zeta.test/deprecations", entries: [e("zeta", "z-today", "2026-11-22", "deprecated"), e("zeta", "z-later", "2027-03-01", "deprecated")] },
  ],
};
const meta: SnapshotMeta = {
  type: "model-deprecations", date: "2026-11-22", lastSuccess: "2026-11-22T05:23:00.000Z", lastAttempt: null, lastChanged: null,
  lastError: null, rows: 5, provenance: "live", slaSeconds: 172800, cadence: "daily", sources: [],
};
function ctx(snapshot: LoadedSnapshot | undefined, now: string): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "model-deprecations" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => [], dates: () => [], dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date(now) };
}
const render = modelDeprecationsRoutes[0]!.render!;
const input = { query: {}, params: {} } as never;

describe("GET /api/model-deprecations", () => {
  it("render() computes upcoming against a fixed now, soonest first, today included", async () => {
    const body = ModelDeprecationsResponse.parse(await render(ctx({ type: "model-deprecations", data, meta }, "2026-11-22T18:00:00Z"), input));
    expect(body.count).toBe(5);
    expect(body.lastUpdated).toBe("2026-11-20");
    expect(body.providers).toEqual(data.providers);
    expect(body.upcoming.map((x) => x.model)).toEqual(["z-today", "a-soon", "z-later"]);
  });

  it("upcomingSunsets() moves with the clock", () => {
    expect(upcomingSunsets(data, "2026-11-23").map((x) => x.model)).toEqual(["a-soon", "z-later"]);
    expect(upcomingSunsets(data, "2027-03-02")).toEqual([]);
  });

  it("render() answers 503 snapshot_unavailable without a snapshot", async () => {
    await expect(async () => render(ctx(undefined, "2026-11-22T00:00:00Z"), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
  });

  it("modelDeprecationsRoutes declare the free tier, the snapshot and daily freshness", () => {
    expect(modelDeprecationsRoutes[0]).toMatchObject({ path: "/api/model-deprecations", tier: "free", snapshots: ["model-deprecations"], freshness: { cadence: "daily", slaSeconds: 172800 } });
  });
});
