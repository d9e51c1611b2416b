import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { FailoverQuery, FailoverResponse, premiumFailoverRoutes, renderFailover } from "./premium-failover.ts";
import { routeNoCharge } from "./premium-route-verdict.ts";

// The bundled status snapshot shows groq down (API down, Chat degraded) and anthropic and google degraded; the
// warehouse, written by the real writer, holds groq's samples (operational, then down since 11:10), prices and scores.
const NOW = new Date("2026-03-10T12:00:00Z");
const { ctx: bundled } = useBundledSnapshots(NOW);
let dir: string;
let reader: OpenWarehouseReader;
const batch = (table: keyof typeof WAREHOUSE_TABLES, rows: Record<string, string | number | boolean | null>[]) => ({ table, key: [...WAREHOUSE_TABLES[table].key], rows });
const price = (provider: string, model_id: string, p: number) => ({ date: "2026-03-10", provider, model_id, input_per_1m: p, output_per_1m: p * 4, context_window: 128000, source: "curated", source_url: null, observed_at: "2026-03-10T00:00:00Z" });
const score = (model_id: string, s: number) => ({ date: "2026-03-10", benchmark: "gpqa-diamond", model_id, score: s, source: "https://example.test/gpqa", reported_date: "2026-01-01" });
const sample = (ts: string, provider: string, status: string) => ({ ts, date: ts.slice(0, 10), provider, status, components_total: 4, components_degraded: 0, components_down: 0 });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-failover-"));
  await writeWarehouse(dir, "2026-03-10", [
    batch("model_prices", [price("openai", "gpt-4o", 2.5), price("anthropic", "claude-sonnet-4", 3), price("google", "gemini-2.0-flash", 0.1), price("meta", "llama-3.3-70b", 0.2)]),
    batch("benchmark_scores", [score("gpt-4o", 53), score("claude-sonnet-4", 70), score("gemini-2.0-flash", 60), score("llama-3.3-70b", 50)]),
    batch("status_samples", [
      sample("2026-03-10T11:00:00Z", "groq", "operational"),
      sample("2026-03-10T11:10:00Z", "groq", "down"),
      sample("2026-03-10T11:50:00Z", "groq", "down"),
      sample("2026-03-10T11:50:00Z", "openai", "operational"),
      sample("2026-03-10T11:50:00Z", "anthropic", "degraded"),
    ]),
  ]);
  reader = await openWarehouseReader({ dirs: [dir] });
});
afterAll(async () => {
  reader?.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx = (now = NOW): RenderContext => ({ ...bundled(), now, warehouse: reader });
const render = async (query: Record<string, string>, now = NOW) => FailoverResponse.parse(await renderFailover(ctx(now), FailoverQuery.parse(query)));

async function apiError(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("GET /api/premium/failover-verdict", () => {
  it("is a 1-credit premium route with the status layer's 30-minute SLA", () => {
    const [r] = premiumFailoverRoutes;
    expect([r!.path, r!.tier, r!.cost, r!.snapshots, r!.freshness!.slaSeconds]).toEqual(["/api/premium/failover-verdict", "premium", 1, ["status"], 1800]);
    expect(Object.keys(r!.noCharge!.outcomes)).toEqual(["operational_layer_stale", "no_eligible_model"]);
  });

  it("classifies groq's incident from its components and fails over to another provider", async () => {
    const body = await render({ from: "Groq", task: "reasoning" });
    expect(body.from).toEqual({
      provider: "groq",
      status: "down",
      in_incident: true,
      incident: {
        title: "Groq: partial outage (API down, Chat degraded)",
        service: "API",
        impact_classification: "partial_outage",
        recommended_action: "FAIL_OVER_NOW",
        started_at: "2026-03-10T11:10:00.000Z",
        triage_summary: expect.stringContaining("Groq's status page shows down: 2 components of 4 impaired, impaired since 2026-03-10T11:10:00.000Z"),
      },
    });
    // groq is the only provider whose page shows down, so nothing else is excluded.
    expect(body.excluded_providers).toEqual([{ provider: "groq", reason: "the provider failed over from" }]);
    expect(body.failover_to).not.toBeNull();
    expect(body.failover_to!.model.provider).not.toBe("groq");
    expect(body.alternatives.length).toBeGreaterThan(0);
    expect(body.from.incident!.triage_summary).toContain(`Fail over now to ${body.failover_to!.model.id}`);
    expect(routeNoCharge(body)).toBeNull();
  });

  it("dates the incident from the first impaired sample after the last calm one, or the first sample of the window", async () => {
    // anthropic's only sample is degraded at 11:50; the bundled page shows it degraded.
    const anthropic = await render({ from: "anthropic" });
    expect(anthropic.from.incident).toMatchObject({ impact_classification: "degraded_performance", started_at: "2026-03-10T11:50:00.000Z" });
    // openai's newest sample is operational: no incident on its page, nothing to date.
    expect((await render({ from: "openai" })).from).toMatchObject({ in_incident: false, incident: null });
  });

  it("resolves aliases and names; an unknown provider is 404 with the known ids", async () => {
    expect((await render({ from: "gemini" })).from.provider).toBe("google");
    expect((await render({ from: "Azure OpenAI" })).from).toMatchObject({ provider: "azure-openai", in_incident: false, incident: null });
    const e = await apiError(() => render({ from: "nobody" }));
    expect([e.status, e.code]).toEqual([404, "unknown_provider"]);
    expect((e.details!["known"] as string[])).toContain("groq");
    const m = await apiError(() => render({ from: "groq", model: "no-such-model" }));
    expect([m.status, m.code]).toEqual([404, "unknown_model"]);
  });

  it("with a model, holds the destination to 90% of its quality", async () => {
    const body = await render({ from: "anthropic", task: "reasoning", model: "claude-sonnet-4" });
    // claude-sonnet-4 scores 0.70; 90% is 0.63: none reaches it (gemini 0.60), so the best of any quality is shown with a note.
    expect(body.query).toEqual({ from: "anthropic", task: "reasoning", model: "claude-sonnet-4" });
    expect(body.note).toContain("No model of another provider reaches 90%");
    const gemini = await render({ from: "google", task: "reasoning", model: "gemini-2.0-flash" });
    expect(gemini.failover_to!.quality.trust_discounted).toBeGreaterThanOrEqual(0.54);
    expect(gemini.note).toBeNull();
  });

  it("is not charged on a stale status layer, and refuses bad input", async () => {
    const stale = await render({ from: "groq" }, new Date("2026-03-10T13:00:00Z"));
    expect(routeNoCharge(stale)).toBe("operational_layer_stale");
    expect(FailoverQuery.safeParse({}).success).toBe(false);
    expect(FailoverQuery.safeParse({ from: "x".repeat(61) }).success).toBe(false);
    expect(FailoverQuery.safeParse({ from: "groq", task: "poetry" }).success).toBe(false);
    expect(FailoverQuery.safeParse({ from: "groq", extra: "1" }).success).toBe(false);
  });

  it("serves its example on the bundled snapshots and warehouse", async () => {
    const bundledReader = await openWarehouseReader({ dirs: ["snapshots"] });
    try {
      const [r] = premiumFailoverRoutes;
      const query = Object.fromEntries(new URL(r!.example!, "http://x").searchParams);
      const body = FailoverResponse.parse(await renderFailover({ ...bundled(), now: new Date("2026-11-22T02:30:00Z"), warehouse: bundledReader }, FailoverQuery.parse(query)));
      expect(body.from).toMatchObject({ provider: "groq", in_incident: true });
      expect(body.failover_to!.model.provider).not.toBe("groq");
    } finally {
      bundledReader.close();
    }
  });
});
