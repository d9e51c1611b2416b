import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { models } from "../catalog/models.ts";
import { providers } from "../catalog/providers.ts";
import { statusProviderById } from "../catalog/status-providers.ts";
import { createHttpClient, type ClosableHttpClient } from "../lib/http/client.ts";
import type { OpenRouterRow } from "../sources/openrouter.ts";
import { buildPricingSnapshot, checkPrice, modelPriceRows, pricingFeed, type PricingSnapshot } from "./pricing.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";

const clients: ClosableHttpClient[] = [];
const emptyDir = mkdtempSync(join(tmpdir(), "agentfeed-pricing-"));
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  rmSync(emptyDir, { recursive: true, force: true });
});

function context(replayDir: string) {
  const http = createHttpClient({ replayDir, retries: 0 });
  clients.push(http);
  const ctx = testFeedContext({ http, now: new Date("2025-06-15T10:07:00Z") });
  return { ctx, notices: ctx.notices };
}

const modelIn = (snap: PricingSnapshot, id: string) => snap.providers.flatMap((p) => p.models).find((m) => m.id === id);

const row = (over: Partial<OpenRouterRow>): OpenRouterRow => ({
  aggregatorId: "openai/gpt-4o",
  name: "GPT-4o",
  created: null,
  contextWindow: 128000,
  maxOutput: null,
  inputPer1M: 2.5,
  outputPer1M: 10,
  inputModalities: [],
  outputModalities: [],
  ...over,
});

describe("checkPrice()", () => {
  const gpt4o = models.find((m) => m.id === "gpt-4o")!;

  it("checkPrice() agrees within 1% and disagrees beyond it", () => {
    expect(checkPrice(gpt4o, row({ inputPer1M: 2.52 })).status).toBe("agrees");
    expect(checkPrice(gpt4o, row({ outputPer1M: 10.2 })).status).toBe("disagrees");
    expect(checkPrice(gpt4o, row({ inputPer1M: 2.5, outputPer1M: 10 }))).toEqual({
      status: "agrees",
      aggregatorId: "openai/gpt-4o",
      aggregatorInput: 2.5,
      aggregatorOutput: 10,
      aggregatorContextWindow: 128000,
    });
  });

  it("checkPrice() flags a missing listing and an unpriced one", () => {
    expect(checkPrice(gpt4o, undefined).status).toBe("missing");
    expect(checkPrice(gpt4o, row({ inputPer1M: null })).status).toBe("unpriced");
  });

  it("checkPrice() treats a free aggregator price against a paid curated one as disagreement", () => {
    expect(checkPrice(gpt4o, row({ inputPer1M: 0, outputPer1M: 0 })).status).toBe("disagrees");
  });
});

describe("buildPricingSnapshot()", () => {
  it("buildPricingSnapshot() takes a tracked provider's status page from the status catalog", () => {
    const snap = buildPricingSnapshot(providers, models, null);
    for (const p of snap.providers) {
      const tracked = statusProviderById(p.id);
      if (tracked) expect(p.statusPageUrl, p.id).toBe(tracked.statusPageUrl);
    }
    expect(snap.providers.find((p) => p.id === "anthropic")?.statusPageUrl).toBe(statusProviderById("anthropic")?.statusPageUrl);
  });

  it("buildPricingSnapshot() groups every curated model under its provider and dates from the data", () => {
    const snap = buildPricingSnapshot(providers, models, null);
    expect(snap.providers.flatMap((p) => p.models)).toHaveLength(models.length);
    for (const p of snap.providers) for (const m of p.models) expect(m.provider).toBe(p.id);
    expect(snap.lastUpdated).toBe([...providers.map((p) => p.checked)].sort().at(-1));
  });

  it("buildPricingSnapshot() never overwrites curated prices with the aggregator's", () => {
    const gpt4o = models.find((m) => m.id === "gpt-4o")!;
    const snap = buildPricingSnapshot(providers, models, [row({ inputPer1M: 99, outputPer1M: 99, contextWindow: 5 })]);
    const m = modelIn(snap, "gpt-4o")!;
    expect(m.inputCostPer1M).toBe(gpt4o.inputCostPer1M);
    expect(m.contextWindow).toBe(gpt4o.contextWindow);
    expect(m.priceCheck).toMatchObject({ status: "disagrees", aggregatorInput: 99 });
  });
});

describe("pricingFeed.run()", () => {
  it("pricingFeed.run() checks the catalog against the replayed aggregator list", async () => {
    const { ctx, notices } = context("pipelines/fixtures");
    const out = await pricingFeed.run(ctx);
    const data = pricingFeed.schema.parse(out.data);
    expect(out.rows).toBe(models.length);
    expect(out.sources).toEqual([
      { id: "curated", ok: true, rows: models.length },
      expect.objectContaining({ id: "openrouter", ok: true }),
    ]);

    // the fixture records the later o3 price cut: curated stays, drift is flagged
    const o3 = modelIn(data, "o3")!;
    expect(o3.inputCostPer1M).toBe(10);
    expect(o3.priceCheck).toMatchObject({ status: "disagrees", aggregatorInput: 2, aggregatorOutput: 8 });
    expect(notices.some((n) => n.includes("o3 curated 10/40"))).toBe(true);

    // gpt-4.5-preview is absent from the fixture
    expect(modelIn(data, "gpt-4.5-preview")!.priceCheck?.status).toBe("missing");
    expect(notices.some((n) => n.includes("gpt-4.5-preview not listed"))).toBe(true);

    expect(modelIn(data, "claude-opus-4")!.priceCheck?.status).toBe("agrees");
    expect(modelIn(data, "mistral-small-3.1")!.priceCheck).toMatchObject({ status: "disagrees", aggregatorInput: 0.05 });
    const statuses = data.providers.flatMap((p) => p.models).map((m) => m.priceCheck?.status);
    expect(statuses.filter((s) => s === "agrees").length).toBeGreaterThan(30);
  });

  it("pricingFeed.run() emits model_prices rows for curated and aggregator prices", async () => {
    const { ctx } = context("pipelines/fixtures");
    const out = await pricingFeed.run(ctx);
    const [batch] = out.warehouse!;
    expect(batch!.table).toBe("model_prices");
    expect(batch!.key).toEqual(["date", "model_id", "source"]);
    const curated = batch!.rows.filter((r) => r.source === "curated");
    const aggregator = batch!.rows.filter((r) => r.source === "aggregator");
    expect(curated).toHaveLength(models.length);
    expect(aggregator.length).toBe(models.length - 1); // every model but the missing one
    expect(batch!.rows.find((r) => r.model_id === "o3" && r.source === "aggregator")).toEqual({
      date: "2025-06-15",
      provider: "openai",
      model_id: "o3",
      input_per_1m: 2,
      output_per_1m: 8,
      context_window: 200000,
      source: "aggregator",
      source_url: "https://openrouter.ai/api/v1/models",
      observed_at: ctx.now.toISOString(),
    });
    const keys = batch!.rows.map((r) => `${r.date}|${r.model_id}|${r.source}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("pricingFeed.run() serves curated data when the aggregator fails", async () => {
    const { ctx, notices } = context(emptyDir);
    const out = await pricingFeed.run(ctx);
    const data = pricingFeed.schema.parse(out.data);
    expect(out.rows).toBe(models.length);
    expect(data.providers.flatMap((p) => p.models).every((m) => m.priceCheck === null)).toBe(true);
    expect(out.sources?.[1]).toMatchObject({ id: "openrouter", ok: false });
    expect(out.sources?.[1]?.error).toMatch(/openrouter\.ai/);
    expect(notices.some((n) => n.includes("aggregator") && n.includes("unavailable"))).toBe(true);
    expect(out.warehouse![0]!.rows.every((r) => r.source === "curated")).toBe(true);
  });

  it("pricingFeed.run() is deterministic for the same inputs (no clock in the body)", async () => {
    const a = await pricingFeed.run(context("pipelines/fixtures").ctx);
    const { ctx } = context("pipelines/fixtures");
    const b = await pricingFeed.run({ ...ctx, now: new Date("2030-01-01T00:00:00Z") });
    expect(b.data).toEqual(a.data);
  });

  it("pricingFeed declares its schedule and upstream URL", () => {
    expect(pricingFeed.type).toBe("pricing");
    expect(pricingFeed.slaSeconds).toBe(7200);
    expect(pricingFeed.urls()).toEqual(["https://openrouter.ai/api/v1/models"]);
  });

  it("modelPriceRows() skips aggregator rows without numbers", () => {
    const snap = buildPricingSnapshot(providers, models, [row({ inputPer1M: null })]);
    const batch = modelPriceRows(snap, "2025-06-15", "2025-06-15T10:00:00.000Z");
    expect(batch.rows.filter((r) => r.source === "aggregator")).toHaveLength(0);
  });

  it("modelPriceRows() names each price's source and when it was observed", () => {
    const snap = buildPricingSnapshot(providers, models, [row({})]);
    const batch = modelPriceRows(snap, "2025-06-15", "2025-06-15T10:00:00.000Z");
    const provider = snap.providers.find((p) => p.models.some((m) => m.priceCheck?.aggregatorInput != null))!;
    const model = provider.models.find((m) => m.priceCheck?.aggregatorInput != null)!;
    const rows = batch.rows.filter((r) => r.model_id === model.id);
    expect(rows.find((r) => r.source === "curated")).toMatchObject({ source_url: provider.pricingSource, observed_at: `${provider.checked}T00:00:00.000Z` });
    expect(rows.find((r) => r.source === "aggregator")).toMatchObject({ source_url: "https://openrouter.ai/api/v1/models", observed_at: "2025-06-15T10:00:00.000Z" });
  });
});
