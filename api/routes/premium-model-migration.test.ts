import { describe, expect, it } from "vitest";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { useModelWarehouse } from "../testing/model-warehouse.ts";
import { MigrationQuery, MigrationResponse, migrationNoCharge, premiumModelMigrationRoutes, renderModelMigration } from "./premium-model-migration.ts";

const { ctx } = useBundledSnapshots(new Date("2026-11-21T12:00:00Z"));
const reader = useModelWarehouse(writeWarehouse);
const render = async (query: Record<string, string>) => MigrationResponse.parse(await renderModelMigration({ ...ctx(), warehouse: reader() }, MigrationQuery.parse(query)));

describe("GET /api/premium/model-migration-verdict", () => {
  it("declares a 1-credit premium route; model is required, deadline must be a calendar date", () => {
    expect(premiumModelMigrationRoutes[0]).toMatchObject({ path: "/api/premium/model-migration-verdict", tier: "premium", cost: 1 });
    for (const bad of [{}, { model: "" }, { model: "gpt-4o", deadline: "2027-02-30" }, { model: "gpt-4o", deadline: "soon" }, { model: "a b" }]) {
      expect(MigrationQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("a retired model with a named successor: MIGRATE_NOW, costs and capabilities from the warehouse", async () => {
    const body = await render({ model: "GPT-4.5-preview", deadline: "2027-01-31" });
    expect(body).toMatchObject({ verdict_kind: "model_migration", verdict: "MIGRATE_NOW" });
    expect(body.model).toMatchObject({ id: "gpt-4.5-preview", name: "GPT-4.5 (preview)", cost_blended_per_1m: 93.75 });
    expect(body.successor).toMatchObject({ id: "gpt-4.1", name: "GPT-4.1", cost_blended_per_1m: 3 });
    expect(body.deltas!.cost_blended_per_1m).toBe(-90.75);
    expect(body.deltas!.cost_pct).toBe(-96.8);
    expect(body.deltas!.capability_index).toBeGreaterThan(0);
    expect(body.deadline).toEqual({ date: "2027-01-31", days_from_now: 71, sunset_before_deadline: true });
    expect(body.sunset).toMatchObject({ status: "retired", sunset_date: "2025-07-14" });
    expect(migrationNoCharge(body)).toBeNull();
  });

  it("a priced model without a deprecation entry is NO_ACTION and charged; a model in no source is not charged", async () => {
    const plain = await render({ model: "gpt-4.1" });
    expect(plain).toMatchObject({ verdict: "NO_ACTION", successor: null, deltas: null });
    expect(migrationNoCharge(plain)).toBeNull();
    const ghost = await render({ model: "no-such-model" });
    expect(ghost.verdict).toBe("NO_ACTION");
    expect(migrationNoCharge(ghost)).toBe("model_not_tracked");
  });

  it("a deadline in the past is 400 invalid_deadline", async () => {
    await expect(render({ model: "gpt-4.1", deadline: "2026-11-20" })).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.status === 400 && e.code === "invalid_deadline");
  });
});
