import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
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
import { runFeeds } from "../runner/run-feeds.ts";

const clients: ClosableHttpClient[] = [];
const emptyDir = mkdtempSync(join(tmpdir(), "agentfeed-pricing-"));
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  rmSync(emptyDir, { recursive: true, force: true });
});

function context(replayDir: string, options: { now?: Date; latest?: Record<string, unknown> } = {}) {
  const http = createHttpClient({ replayDir, retries: 0 });
  clients.push(http);
  const ctx = testFeedContext({ http, now: options.now ?? new Date("2025-06-15T10:07:00Z"), latest: options.latest });
  return { ctx, notices: ctx.notices };
}

const CAPTURE = "2025-06-15T10:00:00.000Z";

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
    const snap = buildPricingSnapshot(providers, models, null, { capturedAt: CAPTURE });
    for (const p of snap.providers) {
      const tracked = statusProviderById(p.id);
      if (tracked) expect(p.statusPageUrl, p.id).toBe(tracked.statusPageUrl);
    }
    expect(snap.providers.find((p) => p.id === "anthropic")?.statusPageUrl).toBe(statusProviderById("anthropic")?.statusPageUrl);
  });

  it("buildPricingSnapshot() groups every curated model under its provider and dates from the data", () => {
    const snap = buildPricingSnapshot(providers, models, null, { capturedAt: CAPTURE });
    expect(snap.providers.flatMap((p) => p.models)).toHaveLength(models.length);
    for (const p of snap.providers) for (const m of p.models) expect(m.provider).toBe(p.id);
    expect(snap.lastUpdated).toBe([...providers.map((p) => p.checked)].sort().at(-1));
  });

  it("buildPricingSnapshot() serves the newest observation and names both when the sources disagree", () => {
    const gpt4o = models.find((m) => m.id === "gpt-4o")!;
    const checked = providers.find((p) => p.id === "openai")!.checked;
    const snap = buildPricingSnapshot(providers, models, [row({ inputPer1M: 99, outputPer1M: 98, contextWindow: 5 })], { capturedAt: CAPTURE });
    const m = modelIn(snap, "gpt-4o")!;
    expect(m).toMatchObject({ inputCostPer1M: 99, outputCostPer1M: 98, priceServed: "aggregator", priceObservedAt: CAPTURE });
    expect(m.contextWindow).toBe(gpt4o.contextWindow);
    expect(m.priceObservations).toEqual([
      { source: "aggregator", inputCostPer1M: 99, outputCostPer1M: 98, observedAt: CAPTURE, url: "https://openrouter.ai/api/v1/models" },
      { source: "curated", inputCostPer1M: gpt4o.inputCostPer1M, outputCostPer1M: gpt4o.outputCostPer1M, observedAt: `${checked}T00:00:00.000Z`, url: expect.stringMatching(/^https:/) },
    ]);
    expect(m.priceCheck).toMatchObject({ status: "disagrees", aggregatorInput: 99 });
  });

  it("buildPricingSnapshot() serves the curated price when it was checked after the aggregator's capture, or alone", () => {
    const gpt4o = models.find((m) => m.id === "gpt-4o")!;
    const early = buildPricingSnapshot(providers, models, [row({ inputPer1M: 99, outputPer1M: 98 })], { capturedAt: "2000-01-01T00:00:00.000Z" });
    expect(modelIn(early, "gpt-4o")).toMatchObject({ inputCostPer1M: gpt4o.inputCostPer1M, priceServed: "curated" });
    expect(modelIn(early, "gpt-4o")!.priceObservations.map((o) => o.source)).toEqual(["curated", "aggregator"]);
    const alone = buildPricingSnapshot(providers, models, null, { capturedAt: CAPTURE });
    expect(modelIn(alone, "gpt-4o")).toMatchObject({ inputCostPer1M: gpt4o.inputCostPer1M, priceServed: "curated" });
    expect(modelIn(alone, "gpt-4o")!.priceObservations).toHaveLength(1);
  });

  it("buildPricingSnapshot() keeps an unchanged aggregator price's first observation and restarts it on a change", () => {
    const first = buildPricingSnapshot(providers, models, [row({ inputPer1M: 3, outputPer1M: 12 })], { capturedAt: CAPTURE });
    const later = "2025-06-16T10:00:00.000Z";
    const same = buildPricingSnapshot(providers, models, [row({ inputPer1M: 3, outputPer1M: 12 })], { capturedAt: later, previous: first });
    expect(modelIn(same, "gpt-4o")!.priceObservedAt).toBe(CAPTURE);
    expect(same).toEqual(first);
    const changed = buildPricingSnapshot(providers, models, [row({ inputPer1M: 4, outputPer1M: 12 })], { capturedAt: later, previous: first });
    expect(modelIn(changed, "gpt-4o")).toMatchObject({ inputCostPer1M: 4, priceObservedAt: later });
  });
});

describe("pricingFeed.schema", () => {
  it("pricingFeed.schema reads a body written before observations existed as curated-only", () => {
    const current = buildPricingSnapshot(providers, models, null, { capturedAt: CAPTURE });
    const legacy = structuredClone(current) as unknown as { providers: { models: Record<string, unknown>[] }[] };
    for (const p of legacy.providers) for (const m of p.models) for (const k of ["priceServed", "priceObservedAt", "priceObservations"]) delete m[k];
    expect(pricingFeed.schema.parse(legacy)).toEqual(current);
    expect(pricingFeed.schema.safeParse({ ...current, providers: [{ ...current.providers[0], models: [{ id: 1 }] }] }).success).toBe(false);
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

    // the fixture records the later o3 price cut: the newer aggregator price is served, the curated one named
    const o3 = modelIn(data, "o3")!;
    expect(o3).toMatchObject({ inputCostPer1M: 2, outputCostPer1M: 8, priceServed: "aggregator", priceObservedAt: ctx.now.toISOString() });
    expect(o3.priceObservations.find((o) => o.source === "curated")).toMatchObject({ inputCostPer1M: 10, outputCostPer1M: 40 });
    expect(o3.priceCheck).toMatchObject({ status: "disagrees", aggregatorInput: 2, aggregatorOutput: 8 });
    expect(notices.some((n) => n.includes("o3 curated 10/40") && n.includes("serving the newer, aggregator"))).toBe(true);

    // gpt-4.5-preview is absent from the fixture
    expect(modelIn(data, "gpt-4.5-preview")!.priceCheck?.status).toBe("missing");
    expect(notices.some((n) => n.includes("gpt-4.5-preview not listed"))).toBe(true);

    expect(modelIn(data, "claude-opus-4")!.priceCheck?.status).toBe("agrees");
    expect(modelIn(data, "mistral-small-3.1")!.priceCheck).toMatchObject({ status: "disagrees", aggregatorInput: 0.05 });
    const statuses = data.providers.flatMap((p) => p.models).map((m) => m.priceCheck?.status);
    expect(statuses.filter((s) => s === "agrees").length).toBeGreaterThan(30);
  });

  it("pricingFeed.run() checks every price when one aggregator entry's created is in microseconds", async () => {
    const path = "openrouter.ai/api/v1/models/index";
    const recorded = JSON.parse(readFileSync(join("pipelines/fixtures", path), "utf8")) as { data: Record<string, unknown>[] };
    const opus = recorded.data.findIndex((m) => m["id"] === "anthropic/claude-opus-4");
    recorded.data[opus] = { ...recorded.data[opus], created: 1763856000000000 };
    const dir = mkdtempSync(join(tmpdir(), "agentfeed-pricing-created-"));
    try {
      mkdirSync(join(dir, "openrouter.ai/api/v1/models"), { recursive: true });
      writeFileSync(join(dir, path), JSON.stringify(recorded));
      const { ctx } = context(dir);
      const out = await pricingFeed.run(ctx);
      const data = pricingFeed.schema.parse(out.data);
      expect(modelIn(data, "claude-opus-4")!.priceCheck?.status).toBe("agrees");
      expect(data.providers.flatMap((p) => p.models).filter((m) => m.priceCheck?.status === "agrees").length).toBeGreaterThan(30);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

  it("pricingFeed.run() fails when the aggregator list cannot be read, rather than serve curated prices as checked", async () => {
    const { ctx } = context(emptyDir);
    const failure = await pricingFeed.run(ctx).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(failure?.name).toBe("PricingFeedError");
    expect(failure?.message).toMatch(/^pricing: the aggregator list https:\/\/openrouter\.ai\/api\/v1\/models could not be read, so no price was checked \(/);
  });

  it("a failed run keeps the previous snapshot, with its newer aggregator prices, as the one served", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentfeed-pricing-"));
    try {
      const first = new Date("2026-11-23T10:07:00Z");
      const [ok] = await runFeeds({ feeds: { pricing: pricingFeed }, snapshotsDir: dir, replayDir: "pipelines/fixtures", now: first });
      expect(ok?.status).toBe("changed");
      const before = await readFile(join(dir, "pricing", "latest.json"), "utf8");
      const [failed] = await runFeeds({ feeds: { pricing: pricingFeed }, snapshotsDir: dir, replayDir: emptyDir, now: new Date("2026-11-23T11:07:00Z") });
      expect(failed?.status).toBe("failed");
      expect(await readFile(join(dir, "pricing", "latest.json"), "utf8")).toBe(before);
      const meta = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")).types.pricing;
      expect(meta).toMatchObject({ lastSuccess: first.toISOString(), lastAttempt: "2026-11-23T11:07:00.000Z" });
      expect(meta.lastError).toContain("no price was checked");
      expect(modelIn(JSON.parse(before), "o3")).toMatchObject({ inputCostPer1M: 2, outputCostPer1M: 8, priceServed: "aggregator" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("pricingFeed.run() gives the same body on a later run with unchanged sources (observation times carried over)", async () => {
    const a = await pricingFeed.run(context("pipelines/fixtures").ctx);
    const { ctx } = context("pipelines/fixtures", { now: new Date("2030-01-01T00:00:00Z"), latest: { pricing: a.data } });
    const b = await pricingFeed.run(ctx);
    expect(b.data).toEqual(a.data);
  });

  it("pricingFeed declares its schedule and upstream URL", () => {
    expect(pricingFeed.type).toBe("pricing");
    expect(pricingFeed.slaSeconds).toBe(7200);
    expect(pricingFeed.urls()).toEqual(["https://openrouter.ai/api/v1/models"]);
  });

  it("modelPriceRows() skips aggregator rows without numbers", () => {
    const snap = buildPricingSnapshot(providers, models, [row({ inputPer1M: null })], { capturedAt: CAPTURE });
    const batch = modelPriceRows(snap, "2025-06-15", "2025-06-15T10:00:00.000Z");
    expect(batch.rows.filter((r) => r.source === "aggregator")).toHaveLength(0);
  });

  it("modelPriceRows() names each price's source and when it was observed", () => {
    const snap = buildPricingSnapshot(providers, models, [row({})], { capturedAt: CAPTURE });
    const batch = modelPriceRows(snap, "2025-06-15", "2025-06-15T10:00:00.000Z");
    const provider = snap.providers.find((p) => p.models.some((m) => m.priceCheck?.aggregatorInput != null))!;
    const model = provider.models.find((m) => m.priceCheck?.aggregatorInput != null)!;
    const rows = batch.rows.filter((r) => r.model_id === model.id);
    expect(rows.find((r) => r.source === "curated")).toMatchObject({ source_url: provider.pricingSource, observed_at: `${provider.checked}T00:00:00.000Z` });
    expect(rows.find((r) => r.source === "aggregator")).toMatchObject({ source_url: "https://openrouter.ai/api/v1/models", observed_at: "2025-06-15T10:00:00.000Z" });
  });
});
