import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import type { RenderContext } from "../registry/types.ts";
import { providerWarehouseDays, WINDOW_END } from "../testing/provider-warehouse.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { ConcentrationQuery, ConcentrationResponse, premiumConcentrationRoutes, renderConcentration, trackedProviders } from "./premium-concentration.ts";

/** A temporary folder holding the fixture warehouse, written by the real writer, and its removal. */
async function tempProviderWarehouse(options: { probes?: boolean } = {}): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-providers-"));
  for (const day of providerWarehouseDays(options)) await writeWarehouse(dir, day.date, day.batches);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

let fixture: Awaited<ReturnType<typeof tempProviderWarehouse>>;
let reader: OpenWarehouseReader;

beforeAll(async () => {
  fixture = await tempProviderWarehouse();
  reader = await openWarehouseReader({ dirs: [fixture.dir] });
});
afterAll(async () => {
  reader?.close();
  await fixture?.remove();
});

const ctx = (): RenderContext => ({ snapshots: undefined as never, baseUrl: "http://x", now: new Date(WINDOW_END), warehouse: reader });
const judge = async (providers: string) => ConcentrationResponse.parse(await renderConcentration(ctx(), ConcentrationQuery.parse({ providers })));
const route = premiumConcentrationRoutes[0]!;

describe("GET /api/premium/resilience/concentration-verdict over the warehouse", () => {
  it("knows each tracked provider's newest status, score, rank and 7-day incident hours", async () => {
    const tracked = await trackedProviders(reader);
    expect(tracked.map((t) => [t.provider, t.current_status, t.rank, t.incident_hours])).toEqual([
      ["alpha", "operational", 1, 0],
      ["beta", "operational", 3, 0],
      ["delta", "unknown", 5, null],
      ["gamma", "degraded", 2, 2],
      ["openai", "down", 4, 1],
    ]);
  });

  it("EXPOSED when a listed provider scores below the floor; names match case-insensitively", async () => {
    const body = await judge("ALPHA, beta");
    expect(body).toMatchObject({ verdict: "EXPOSED", provider_count: 2, single_point_of_failure: false, currently_impaired: [], untracked: [] });
    expect(body.weakest_link).toEqual({ provider: "beta", reliability_score: 73.9, current_status: "operational" });
    expect(route.noCharge!.check(body)).toBeNull();
  });

  it("CRITICAL when the other listed provider (named by an alias) is down; suggests healthy tracked ones", async () => {
    const body = await judge("ChatGPT,beta");
    expect(body).toMatchObject({ verdict: "CRITICAL", single_point_of_failure: true, currently_impaired: [{ provider: "openai", status: "down" }] });
    expect(body.weakest_link?.provider).toBe("openai");
    expect(body.diversification.suggested).toEqual([{ provider: "alpha", reliability_score: 99.4, rank: 1 }]);
  });

  it("no listed provider tracked: verdict null, not charged, names reported", async () => {
    const body = await judge("anthropic,nobody-ai");
    expect(body).toMatchObject({ verdict: null, provider_count: 0, untracked: ["anthropic", "nobody-ai"] });
    expect(route.noCharge!.check(body)).toBe("no_tracked_provider");
  });

  it("rejects an empty list, too many names and odd characters", () => {
    expect(ConcentrationQuery.safeParse({ providers: " , " }).success).toBe(false);
    expect(ConcentrationQuery.safeParse({ providers: Array.from({ length: 21 }, (_, i) => `p${i}`).join(",") }).success).toBe(false);
    expect(ConcentrationQuery.safeParse({ providers: "openai;drop" }).success).toBe(false);
    expect(ConcentrationQuery.safeParse({}).success).toBe(false);
  });
});
