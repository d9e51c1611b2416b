import { describe, expect, it } from "vitest";
import { blended } from "../verdicts/price.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { ApiError } from "../registry/types.ts";
import { RoutingQuery, RoutingResponse, premiumRoutingRoutes, renderRouting } from "./premium-routing.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";

// The bundled snapshots, read the way the server reads them.
const { store, ctx } = useBundledSnapshots();

const render = (query: Record<string, string>, without?: string) => RoutingResponse.parse(renderRouting(ctx(without), RoutingQuery.parse(query)));

describe("GET /api/premium/routing", () => {
  it("premiumRoutingRoutes declares a 1-credit premium route over pricing, benchmarks and status", () => {
    expect(premiumRoutingRoutes).toHaveLength(1);
    const r = premiumRoutingRoutes[0]!;
    expect(r).toMatchObject({ method: "GET", path: "/api/premium/routing", tier: "premium", cost: 1, snapshots: ["pricing", "benchmarks", "status"] });
    expect(r.freshness?.slaSeconds).toBeGreaterThan(0);
    expect(r.description).toMatch(/renormal|share/);
  });

  it("RoutingQuery parses strings, applies defaults and refuses out-of-range values", () => {
    expect(RoutingQuery.parse({})).toEqual({ task: "general", top_n: 5 });
    expect(RoutingQuery.parse({ task: "code", budget: "2.5", min_quality: "0.5", top_n: "3", w_cost: "0" })).toEqual({
      task: "code", budget: 2.5, min_quality: 0.5, top_n: 3, w_cost: 0,
    });
    for (const bad of [{ task: "poetry" }, { budget: "0" }, { budget: "cheap" }, { min_quality: "1.5" }, { top_n: "11" }, { top_n: "0" }, { top_n: "2.5" }, { w_quality: "-0.1" }, { w_latency: "2" }, { extra: "1" }]) {
      expect(RoutingQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("render() answers every task on the bundled snapshots in the strict response shape", () => {
    for (const task of ["code", "reasoning", "creative", "general"]) {
      const body = render({ task });
      expect(body.task).toBe(task);
      expect(body.recommendations).toHaveLength(5);
      expect(body.recommendations.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
      const scores = body.recommendations.map((r) => r.composite_score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      const w = body.weights;
      expect(w.quality + w.availability + w.cost + w.latency).toBeCloseTo(1, 5);
    }
  });

  it("render() reports each model's provider status and the matching availability", () => {
    const body = render({ task: "general", top_n: "10" });
    const services = new Map((store.get<{ services: { provider: string; status: string }[] }>("status")!.data.services).map((s) => [s.provider, s.status]));
    const availability: Record<string, number> = { operational: 1, degraded: 0.5, down: 0, unknown: 0.5 };
    for (const r of body.recommendations) {
      expect(r.status).toBe(services.get(r.model.provider) ?? "unknown");
      expect(r.components.availability).toBe(availability[r.status]);
      expect(r.components.latency).toBe(0.5);
    }
  });

  it("render() keeps only models within the budget and above min_quality", () => {
    const pricing = store.get<PricingSnapshot>("pricing")!.data;
    const prices = new Map(pricing.providers.flatMap((p) => p.models).map((m) => [m.id, blended(m.inputCostPer1M, m.outputCostPer1M)]));
    const body = render({ task: "code", budget: "1", min_quality: "0.4", top_n: "10" });
    expect(body.recommendations.length).toBeGreaterThan(0);
    for (const r of body.recommendations) {
      expect(prices.get(r.model.id)!).toBeLessThanOrEqual(1);
      expect(r.components.quality).toBeGreaterThanOrEqual(0.4);
    }
  });

  it("render() leaves out models with none of the task's benchmarks", () => {
    // gpt-4.1-nano is scored on GPQA Diamond only: a reasoning candidate, never a code one.
    const ids = (task: string) => render({ task, top_n: "10", w_cost: "1" }).recommendations.map((r) => r.model.id);
    expect(ids("reasoning")).toContain("gpt-4.1-nano");
    expect(ids("code")).not.toContain("gpt-4.1-nano");
  });

  it("render() applies supplied weights and renormalizes the rest", () => {
    expect(render({ w_quality: "0.7" }).weights).toEqual({ quality: 0.7, availability: 0.15, cost: 0.1, latency: 0.05 });
    expect(render({ w_quality: "1", w_cost: "1" }).weights).toEqual({ quality: 0.5, availability: 0, cost: 0.5, latency: 0 });
  });

  it("render() refuses all-zero weights with 400 invalid_weights", () => {
    expect(() => render({ w_quality: "0", w_availability: "0", w_cost: "0", w_latency: "0" })).toThrow(
      expect.objectContaining({ status: 400, code: "invalid_weights" }),
    );
  });

  it("render() answers 503 snapshot_unavailable when a snapshot it reads is missing", () => {
    for (const type of ["pricing", "benchmarks", "status"]) {
      let err: unknown;
      try {
        render({}, type);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(503);
      expect((err as ApiError).code).toBe("snapshot_unavailable");
    }
  });

  it("render() succeeds on the declared example", () => {
    const example = new URL(premiumRoutingRoutes[0]!.example!, "http://x");
    const body = render(Object.fromEntries(example.searchParams));
    expect(body.recommendations).toHaveLength(3);
  });
});
