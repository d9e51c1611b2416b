import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import { OPENROUTER_MODELS_URL, openrouter } from "../sources/openrouter.ts";
import { AggregatorModelsSnapshotSchema, aggregatorModelRows, aggregatorModelsFeed, buildAggregatorModels, namespaceOf } from "./aggregator-models.ts";

const NOW = new Date("2026-11-22T14:00:00Z");
const clients: ClosableHttpClient[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));
const client = () => {
  const c = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
};

const fixtures = replayFixtures();

const build = (data: unknown[]) => buildAggregatorModels(openrouter.parse(JSON.stringify({ data })), NOW);

describe("aggregator-models", () => {
  it("namespaceOf() takes the part before the first slash", () => {
    expect(namespaceOf("openai/gpt-4o")).toBe("openai");
    expect(namespaceOf("meta-llama/llama-3.1-8b-instruct:free")).toBe("meta-llama");
    expect(namespaceOf("solo")).toBe("solo");
  });

  it("buildAggregatorModels() maps per-token and per-1M prices, modality and namespace, sorted by id", () => {
    const snap = build([
      { id: "z/free:free", name: "Z free", pricing: { prompt: "0", completion: "0" }, architecture: { modality: "text->text", input_modalities: ["text"], output_modalities: ["text"] } },
      { id: "a/model", name: "A", created: 1763683200, context_length: 200000, pricing: { prompt: "0.000003", completion: "0.000015" }, architecture: { modality: "text+image->text", input_modalities: ["text", "image"], output_modalities: ["text"] }, top_provider: { max_completion_tokens: 64000 } },
      { id: "router/auto", name: "Auto", pricing: { prompt: "-1", completion: "-1" } },
      { id: "a/model", name: "duplicate" },
    ]);
    expect(snap.models.map((m) => m.id)).toEqual(["a/model", "router/auto", "z/free:free"]);
    expect(snap.models[0]).toEqual({
      id: "a/model",
      name: "A",
      namespace: "a",
      created: "2025-11-21",
      context_length: 200000,
      max_output: 64000,
      modality: "text+image->text",
      input_modalities: ["image", "text"],
      output_modalities: ["text"],
      pricing: { prompt_per_token: 0.000003, completion_per_token: 0.000015, input_per_1m: 3, output_per_1m: 15 },
      free: false,
    });
    expect(snap.models[1]!.pricing).toEqual({ prompt_per_token: null, completion_per_token: null, input_per_1m: null, output_per_1m: null });
    expect(snap.models[2]!.free).toBe(true);
    expect(snap.summary).toEqual({ total: 3, free_count: 1, namespaces: 3, unpriced_count: 1 });
    expect(() => AggregatorModelsSnapshotSchema.parse(snap)).not.toThrow();
  });

  it("buildAggregatorModels() sanitizes and clips names and modalities", () => {
    const hostile = `Evil <img src=x onerror=alert(1)>Model\u0007\u202E ${"x".repeat(3000)}`;
    const snap = build([
      { id: "evil/model", name: hostile, architecture: { modality: "text\u202E-><script>x</script>text", input_modalities: ["text\u0007", "<b>image</b>", "text"], output_modalities: ["text"] } },
    ]);
    const m = snap.models[0]!;
    expect(m.name).toMatch(/^Evil Model x+…$/);
    expect(m.name.length).toBeLessThanOrEqual(120);
    expect(m.modality).toBe("text->text");
    expect(m.input_modalities).toEqual(["image", "text"]);
    expect(() => AggregatorModelsSnapshotSchema.parse(snap)).not.toThrow();
  });

  it("buildAggregatorModels() keeps a model listed with a null name under its id", () => {
    const snap = build([{ id: "a/unnamed", name: null, pricing: { prompt: "0.000001", completion: "0.000002" } }, { id: "b/named", name: "B" }]);
    expect(snap.models.map((m) => [m.id, m.name])).toEqual([["a/unnamed", "a/unnamed"], ["b/named", "B"]]);
    expect(snap.models[0]!.pricing.input_per_1m).toBe(1);
  });

  it("aggregatorModelRows() writes one keyed row per model", () => {
    const batch = aggregatorModelRows(build([{ id: "a/m", pricing: { prompt: "0.000001", completion: "0.000002" }, context_length: 8192 }]), "2026-11-22");
    expect(batch).toEqual({
      table: "aggregator_models_daily",
      key: ["date", "model_id"],
      rows: [{ date: "2026-11-22", model_id: "a/m", namespace: "a", input_per_1m: 1, output_per_1m: 2, context_length: 8192 }],
    });
  });

  it("aggregatorModelsFeed run() reads the recorded catalog in replay", async () => {
    expect(aggregatorModelsFeed.urls()).toEqual([OPENROUTER_MODELS_URL]);
    expect(aggregatorModelsFeed.cron).toBe("0 14 * * *");
    const out = await aggregatorModelsFeed.run(testFeedContext({ http: client(), now: NOW }));
    const data = AggregatorModelsSnapshotSchema.parse(out.data);
    expect(data.summary.total).toBe(data.models.length);
    expect(data.models.length).toBeGreaterThan(40);
    expect(data.summary.free_count).toBeGreaterThan(0);
    expect(data.models.find((m) => m.id === "anthropic/claude-opus-4")?.pricing).toMatchObject({ input_per_1m: 15, output_per_1m: 75 });
    const batch = out.warehouse?.[0];
    expect(batch?.rows).toHaveLength(data.models.length);
    expect(batch?.rows.every((r) => r["date"] === "2026-11-22")).toBe(true);
  });

  it("aggregatorModelsFeed run() keeps every model when one entry's created is in micro- or milliseconds", async () => {
    const recorded = JSON.parse(readFileSync("pipelines/fixtures/openrouter.ai/api/v1/models/index", "utf8")) as { data: Record<string, unknown>[] };
    for (const created of [1763856000000000, 1763856000000]) {
      const data = recorded.data.map((m, i) => (i === 8 ? { ...m, created } : m));
      const dir = fixtures.replayOf("aggregator-models-", { [OPENROUTER_MODELS_URL]: JSON.stringify({ data }) });
      const out = await aggregatorModelsFeed.run(testFeedContext({ http: fixtures.client(dir), now: NOW }));
      const snap = AggregatorModelsSnapshotSchema.parse(out.data);
      expect(snap.models.length).toBe(new Set(recorded.data.map((m) => m["id"])).size);
      expect(snap.models.find((m) => m.id === recorded.data[8]!["id"])?.created).toBeNull();
      expect(snap.models.find((m) => m.id === "anthropic/claude-opus-4")?.created).toBe("2025-05-22");
    }
  });
});
