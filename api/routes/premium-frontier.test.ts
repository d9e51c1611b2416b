import { describe, expect, it } from "vitest";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { useModelWarehouse } from "../testing/model-warehouse.ts";
import { openWarehouseReader } from "../warehouse/reader.ts";
import { FrontierQuery, FrontierResponse, premiumFrontierRoutes, renderFrontier } from "./premium-frontier.ts";

const { ctx } = useBundledSnapshots(new Date("2026-11-21T12:00:00Z"));
const reader = useModelWarehouse(writeWarehouse);
const render = async (query: Record<string, string>) => FrontierResponse.parse(await renderFrontier({ ...ctx(), warehouse: reader() }, FrontierQuery.parse(query)));

describe("GET /api/premium/models/frontier", () => {
  it("declares a 1-credit premium route; task defaults to general and is checked", () => {
    expect(premiumFrontierRoutes[0]).toMatchObject({ path: "/api/premium/models/frontier", tier: "premium", cost: 1 });
    expect(FrontierQuery.parse({})).toEqual({ task: "general" });
    expect(FrontierQuery.safeParse({ task: "poetry" }).success).toBe(false);
  });

  it("the frontier over the newest day: newest price observation, names from the catalog, dominated with who dominates", async () => {
    const body = await render({ task: "code" });
    expect(body).toMatchObject({ verdict_kind: "price_performance_frontier", task: "code" });
    // gpt-4.1 (blend (3·1.5 + 7.5)/4 = 3, the aggregator's newer observation) beats the other two on price and capability.
    expect(body.frontier.map((m) => [m.model_id, m.name, m.blended_price])).toEqual([["gpt-4.1", "GPT-4.1", 3]]);
    expect(body.dominated.map((m) => [m.model_id, m.dominated_by.model_id])).toEqual([
      ["gpt-4.5-preview", "gpt-4.1"],
      ["gpt-4o", "gpt-4.1"],
    ]);
    expect(body.dominated.find((m) => m.model_id === "gpt-4o")!.blended_price).toBe(4.375); // the newest day's price, not the old 0
    expect(body.counts).toEqual({ priced: 3, frontier: 1, dominated: 2 }); // unscored-model is priced but has no index
    const cap = body.frontier[0]!.capability;
    expect(cap).toBeGreaterThan(0);
    expect(cap).toBeLessThan(0.4 * 90 + 0.4 * 55 + 0.2 * 80); // discounted by the benchmarks' trust
  });

  it("the route's noCharge check fires on an empty pool", async () => {
    const empty = await openWarehouseReader({ dirs: [] });
    try {
      const body = FrontierResponse.parse(await renderFrontier({ ...ctx(), warehouse: empty }, { task: "general" }));
      expect(body.counts).toEqual({ priced: 0, frontier: 0, dominated: 0 });
      expect(premiumFrontierRoutes[0]!.noCharge!.check(body)).toBe("no_priced_models");
    } finally {
      empty.close();
    }
    expect(premiumFrontierRoutes[0]!.noCharge!.check(await render({}))).toBeNull();
  });
});
