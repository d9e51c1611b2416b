import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { providerWarehouseDays, WINDOW_END } from "../testing/provider-warehouse.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { premiumProviderReliabilityRoutes, renderProviderReliability, ReliabilityResponse } from "./premium-provider-reliability.ts";
import { previewProviderReliabilityRoutes, renderPreviewReliability } from "./preview-provider-reliability.ts";

/** A temporary folder holding the fixture warehouse, written by the real writer, and its removal. */
async function tempProviderWarehouse(options: { probes?: boolean } = {}): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-providers-"));
  for (const day of providerWarehouseDays(options)) await writeWarehouse(dir, day.date, day.batches);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

let fixture: Awaited<ReturnType<typeof tempProviderWarehouse>>;
let empty: Awaited<ReturnType<typeof tempProviderWarehouse>>;
let reader: OpenWarehouseReader;
let statusOnly: OpenWarehouseReader;

beforeAll(async () => {
  fixture = await tempProviderWarehouse();
  empty = await tempProviderWarehouse({ probes: false });
  reader = await openWarehouseReader({ dirs: [fixture.dir] });
  statusOnly = await openWarehouseReader({ dirs: [empty.dir] });
});
afterAll(async () => {
  reader?.close();
  statusOnly?.close();
  await fixture?.remove();
  await empty?.remove();
});

const ctx = (warehouse?: OpenWarehouseReader): RenderContext => ({ snapshots: undefined as never, baseUrl: "http://x", now: new Date(WINDOW_END), ...(warehouse ? { warehouse } : {}) });
const route = premiumProviderReliabilityRoutes[0]!;

describe("GET /api/premium/provider-reliability-verdict over the warehouse", () => {
  it("ranks the 24 h ending at the newest probe sample; older samples are left out", async () => {
    const body = ReliabilityResponse.parse(await renderProviderReliability(ctx(reader)));
    expect(body.capturedAt).toBe(WINDOW_END);
    expect(body.window_label).toContain("2026-03-01T06:00:00.000Z to 2026-03-02T06:00:00.000Z");
    expect(body.ranking.map((r) => [r.provider, r.measured, r.reliability_score])).toEqual([
      ["alpha", true, 99.4],
      ["gamma", true, 89.5],
      ["beta", true, 73.9],
      ["openai", false, 66.7],
      ["delta", false, 0],
    ]);
    expect(body.ranking[0]).toMatchObject({ ok_pct: 100, total_p50_ms: 102.5, total_p95_ms: 104.8, total_p99_ms: 105, spread_ratio: 1.02 });
    expect(body.ranking[1]).toMatchObject({ ok_pct: 85, total_p50_ms: 200, spread_ratio: 1 });
    expect(body.ranking[2]).toMatchObject({ total_p50_ms: 100, total_p95_ms: 775, total_p99_ms: 955, spread_ratio: 9.55 });
    expect(body.verdict).toEqual({ most_dependable: { provider: "alpha", reliability_score: 99.4 }, riskiest: { provider: "beta", reliability_score: 73.9 } });
    expect(body.coverage).toEqual({ providers_ranked: 5, fully_measured: 3, availability_only: 2 });
    expect(route.noCharge!.check(body)).toBeNull();
  });

  it("without probes ranks status pages alone, availability only", async () => {
    const body = ReliabilityResponse.parse(await renderProviderReliability(ctx(statusOnly)));
    expect(body.capturedAt).toBe("2026-03-02T05:00:00.000Z");
    expect(body.coverage).toEqual({ providers_ranked: 4, fully_measured: 0, availability_only: 4 });
    expect(body.verdict.most_dependable?.provider).toBe("alpha");
  });

  it("declares a 30-minute SLA on the probe feed and the no_probe_data outcome", async () => {
    expect([route.tier, route.cost, route.snapshots, route.freshness?.slaSeconds]).toEqual(["premium", 1, ["probe"], 1800]);
    const none = { ok: true as const, capturedAt: null, window_label: "", verdict: { most_dependable: null, riskiest: null }, ranking: [], coverage: { providers_ranked: 0, fully_measured: 0, availability_only: 0 } };
    expect(route.noCharge!.check(none)).toBe("no_probe_data");
  });

  it("answers 503 without a warehouse reader", async () => {
    await expect(renderProviderReliability(ctx())).rejects.toBeInstanceOf(ApiError);
  });
});

describe("GET /api/preview/provider-reliability-verdict", () => {
  it("shows the picks only: no ranking, no coverage", async () => {
    const fields = await renderPreviewReliability(ctx(reader));
    expect(fields).toEqual({ capturedAt: WINDOW_END, verdict: { most_dependable: { provider: "alpha", reliability_score: 99.4 }, riskiest: { provider: "beta", reliability_score: 73.9 } } });
    const r = previewProviderReliabilityRoutes[0]!;
    expect([r.tier, r.path]).toEqual(["preview", "/api/preview/provider-reliability-verdict"]);
  });
});
