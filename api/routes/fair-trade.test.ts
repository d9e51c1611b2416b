import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp, type AnyRoute, type ServedSnapshots } from "../app.ts";
import { BREAKER_THRESHOLDS } from "../billing/breakers.ts";
import { NO_CHARGE_RULES } from "../billing/no-charge.ts";
import { defineRoute } from "../registry/define.ts";
import { routes as registryRoutes } from "../registry/index.ts";
import { buildFairTradeManifest, fairTradeRoutes, FairTradeManifest } from "./fair-trade.ts";

const snapshots: ServedSnapshots = { generation: 1, get: () => undefined, types: () => [], dates: () => [], dated: async () => undefined };
const Ok = z.strictObject({ ok: z.literal(true) });

const premiumRoutes: AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/api/premium/a",
    tier: "premium",
    summary: "A",
    tags: [],
    cost: 2,
    snapshots: ["status"],
    freshness: { cadence: "every 2 minutes", slaSeconds: 1800 },
    response: Ok,
    render: () => ({ ok: true as const }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/premium/b",
    tier: "premium",
    summary: "B",
    tags: [],
    response: z.strictObject({ ok: z.literal(true), covered: z.boolean() }),
    noCharge: { outcomes: { out_of_coverage: "the subject is not tracked" }, check: (b) => (b.covered ? null : "out_of_coverage") },
    handle: () => ({ ok: true as const, covered: true }),
  }),
];
const freeRoute = defineRoute({ method: "GET", path: "/api/free", tier: "free", summary: "F", tags: [], response: Ok, render: () => ({ ok: true as const }) });

describe("GET /.well-known/agent-fair-trade.json", () => {
  it("buildFairTradeManifest() lists every premium route, with cost, SLA and no-charge outcomes, and nothing else", async () => {
    const routes = [...fairTradeRoutes, freeRoute, ...premiumRoutes];
    const app = createApp({ routes, snapshots, baseUrl: "https://feed.example", rateLimitPerMinute: 0, trustProxy: null }).app;
    const res = await app.request("/.well-known/agent-fair-trade.json");
    expect(res.status).toBe(200);
    const doc = FairTradeManifest.parse(await res.json());
    expect(doc).toMatchObject({ standard: "agent-fair-trade", version: "1.0", publisher: { name: "agentfeed", url: "https://feed.example" } });
    expect(doc.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(["GET /api/premium/a", "POST /api/premium/b"]);
    const [a, b] = doc.endpoints;
    expect(a).toMatchObject({ cost_credits: 2, freshness: { cadence: "every 2 minutes", sla_seconds: 1800 }, snapshots: ["status"] });
    expect(a!.no_charge_outcomes.map((o) => o.reason)).toEqual(["breaker_open", "snapshot_unavailable", "client_error", "server_error", "schema_failure", "stale_data"]);
    expect(b).toMatchObject({ cost_credits: 1, freshness: null });
    expect(b!.no_charge_outcomes.map((o) => o.reason)).toEqual(["breaker_open", "client_error", "server_error", "schema_failure", "out_of_coverage"]);
    expect(doc.receipts).toMatchObject({ alg: "EdDSA", crv: "Ed25519", key_url: "https://feed.example/.well-known/receipt-key.json", verify_url: "https://feed.example/api/receipt/verify" });
    expect(doc.receipts.signed_fields).toEqual(["id", "endpoint", "request_hash", "response_hash", "credits_charged", "no_charge_reason", "time", "key_id"]);
    expect(doc.breakers.identical_request).toEqual({ max: BREAKER_THRESHOLDS.identical_request.max, window_seconds: BREAKER_THRESHOLDS.identical_request.windowSeconds });
    expect(doc.no_charge_guarantees.map((g) => g.reason)).toEqual(NO_CHARGE_RULES.map((r) => r.reason));
    expect(doc.pricing).toMatchObject({ usd_per_credit: "0.02", usdc_units_per_credit: "20000" });
  });

  it("buildFairTradeManifest() over the real registry lists exactly its premium routes", () => {
    const doc = FairTradeManifest.parse(buildFairTradeManifest({ baseUrl: "https://feed.example", routes: registryRoutes }));
    const premium = registryRoutes.filter((r) => r.tier === "premium").map((r) => `${r.method} ${r.path}`);
    expect(doc.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(premium);
    for (const e of doc.endpoints) expect(e.cost_credits).toBeGreaterThanOrEqual(1);
  });
});
