import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../contract/warehouse-tables.ts";
import { models } from "../catalog/models.ts";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { castValue } from "../lib/warehouse/cast.ts";
import { openrouterEndpointsUrl } from "../sources/openrouter-endpoints.ts";
import {
  InferenceProvidersFeedError,
  InferenceProvidersSnapshotSchema,
  MAX_LISTING_BYTES,
  MAX_MODELS_PER_RUN,
  buildInferenceProviders,
  inferenceProviderRows,
  inferenceProvidersFeed,
  matrixModels,
  runInferenceProviders,
  type InferenceProvider,
} from "./inference-providers.ts";

const NOW = new Date("2026-11-23T06:29:00Z");
const clients: ClosableHttpClient[] = [];
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const client = (replayDir = "pipelines/fixtures") => {
  const c = createHttpClient({ replayDir, retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
};

/** A replay folder holding copies of the recorded listings of `ids`, changed by `change`. */
function tempReplay(ids: string[], change: (dir: string) => void = () => {}): string {
  const dir = mkdtempSync(join(tmpdir(), "inference-providers-"));
  temps.push(dir);
  for (const id of ids) {
    const rel = replayPathFor(openrouterEndpointsUrl(id));
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    cpSync(join("pipelines/fixtures", rel), join(dir, rel));
  }
  change(dir);
  return dir;
}
const write = (dir: string, id: string, body: string) => writeFileSync(join(dir, replayPathFor(openrouterEndpointsUrl(id))), body);

const provider = (over: Partial<InferenceProvider> = {}): InferenceProvider => ({
  provider: "Acme",
  tag: "acme",
  context_length: 8192,
  input_per_1m: 1,
  output_per_1m: 2,
  throughput_tps: 50,
  latency_ms: 400,
  uptime_last_30m: 99.5,
  quantization: null,
  status: 0,
  ...over,
});

describe("inference-providers", () => {
  it("buildInferenceProviders() sorts models and counts providers, endpoints and missing ids", () => {
    const snap = buildInferenceProviders(
      [
        { model_id: "z/m", catalog_id: "zm", providers: [provider(), provider({ provider: "Beta", tag: "beta" })] },
        { model_id: "a/m", catalog_id: "am", providers: [provider()] },
      ],
      ["q/gone", "c/gone"],
    );
    expect(snap.models.map((m) => m.model_id)).toEqual(["a/m", "z/m"]);
    expect(snap.summary).toEqual({ models: 2, providers: 2, endpoints: 3, missing: ["c/gone", "q/gone"] });
    expect(() => InferenceProvidersSnapshotSchema.parse(snap)).not.toThrow();
  });

  it("the snapshot schema refuses unsorted models and unknown fields", () => {
    const snap = buildInferenceProviders([{ model_id: "a/m", catalog_id: "am", providers: [provider()] }], []);
    expect(() => InferenceProvidersSnapshotSchema.parse({ ...snap, models: [snap.models[0], snap.models[0]] })).toThrow(/sorted/);
    expect(() => InferenceProvidersSnapshotSchema.parse({ ...snap, models: [{ ...snap.models[0], extra: 1 }] })).toThrow();
    expect(() => InferenceProvidersSnapshotSchema.parse({ ...snap, models: [{ ...snap.models[0], providers: [provider({ uptime_last_30m: 101 })] }] })).toThrow();
  });

  it("inferenceProviderRows() writes one row per model and tag that fits the declared table", () => {
    const snap = buildInferenceProviders([{ model_id: "a/m", catalog_id: "am", providers: [provider(), provider({ tag: "acme/fp8", throughput_tps: null, latency_ms: null, uptime_last_30m: null })] }], []);
    const batch = inferenceProviderRows(snap, "2026-11-23");
    expect(batch.table).toBe("inference_providers_daily");
    expect(batch.key).toEqual([...WAREHOUSE_TABLES.inference_providers_daily.key]);
    expect(batch.rows[1]).toEqual({
      date: "2026-11-23",
      model_id: "a/m",
      provider: "Acme",
      tag: "acme/fp8",
      input_per_1m: 1,
      output_per_1m: 2,
      throughput_tps: null,
      latency_ms: null,
      uptime_pct: null,
      context_length: 8192,
    });
    const columns = WAREHOUSE_TABLES.inference_providers_daily.columns;
    for (const row of batch.rows) {
      expect(Object.keys(row).sort()).toEqual(columns.map((c) => c.name).sort());
      for (const c of columns) expect(() => castValue(batch.table, c, row[c.name])).not.toThrow();
    }
  });

  it("matrixModels() asks for the catalog's aggregator ids in order, at most MAX_MODELS_PER_RUN", () => {
    const all = matrixModels();
    expect(all).toHaveLength(models.length);
    expect(all.map((m) => m.aggregatorId)).toEqual(models.map((m) => m.aggregatorId).sort());
    const long = Array.from({ length: MAX_MODELS_PER_RUN + 3 }, (_, i) => ({ id: `m${i}`, aggregatorId: `x/m${String(i).padStart(3, "0")}` }));
    expect(matrixModels(long)).toHaveLength(MAX_MODELS_PER_RUN);
    expect(inferenceProvidersFeed.urls()).toEqual(all.map((m) => openrouterEndpointsUrl(m.aggregatorId)));
  });

  it("run() reads every recorded listing in replay; the model the aggregator no longer lists is left out with its health", async () => {
    const ctx = testFeedContext({ http: client(), now: NOW });
    const out = await inferenceProvidersFeed.run(ctx);
    const data = InferenceProvidersSnapshotSchema.parse(out.data);
    expect(data.summary.missing).toEqual(["openai/gpt-4.5-preview"]);
    expect(data.summary.models).toBe(models.length - 1);
    expect(out.rows).toBe(data.summary.endpoints);
    const llama = data.models.find((m) => m.model_id === "meta-llama/llama-3.3-70b-instruct");
    expect(llama?.catalog_id).toBe("llama-3.3-70b");
    expect(llama?.providers.length).toBeGreaterThanOrEqual(3);
    expect(data.models.find((m) => m.model_id === "anthropic/claude-opus-4")?.providers.find((p) => p.tag === "anthropic")).toMatchObject({ input_per_1m: 15, output_per_1m: 75 });
    expect(data.models.some((m) => m.providers.some((p) => p.throughput_tps !== null))).toBe(true);
    expect(data.models.some((m) => m.providers.some((p) => p.uptime_last_30m === null))).toBe(true);
    expect(out.sources).toHaveLength(models.length);
    expect(out.sources?.filter((s) => !s.ok)).toEqual([
      { id: "openai/gpt-4.5-preview", ok: false, error: "GET https://openrouter.ai/api/v1/models/openai/gpt-4.5-preview/endpoints failed: 404 Not Found" },
    ]);
    expect(ctx.notices).toEqual([expect.stringContaining("openai/gpt-4.5-preview left out")]);
    const batch = out.warehouse?.[0];
    expect(batch?.rows).toHaveLength(data.summary.endpoints);
    expect(batch?.rows.every((r) => r["date"] === "2026-11-23")).toBe(true);
    expect(inferenceProvidersFeed.historyRows?.(data, { date: "2026-11-23", observedAt: NOW.toISOString() })).toEqual(out.warehouse);
  });

  it("run() leaves out a listing that is not JSON, is for another model, or exceeds the size cap", async () => {
    const ids = ["cohere/command-a", "x-ai/grok-3-beta", "qwen/qwen-max", "amazon/nova-pro-v1"];
    const dir = tempReplay(ids, (d) => {
      write(d, "x-ai/grok-3-beta", "<html>maintenance</html>");
      write(d, "qwen/qwen-max", JSON.stringify({ data: { id: "qwen/qwen-plus", endpoints: [] } }));
      write(d, "amazon/nova-pro-v1", JSON.stringify({ data: { id: "amazon/nova-pro-v1", endpoints: [], pad: "x".repeat(MAX_LISTING_BYTES) } }));
    });
    const list = models.filter((m) => ids.includes(m.aggregatorId));
    const ctx = testFeedContext({ http: client(dir), now: NOW });
    const out = await runInferenceProviders(ctx, list);
    expect(out.data.models.map((m) => m.model_id)).toEqual(["cohere/command-a"]);
    expect(out.data.summary.missing).toEqual(["amazon/nova-pro-v1", "qwen/qwen-max", "x-ai/grok-3-beta"]);
    const errors = Object.fromEntries((out.sources ?? []).map((s) => [s.id, s.error]));
    expect(errors["x-ai/grok-3-beta"]).toMatch(/content type|not JSON/i);
    expect(errors["qwen/qwen-max"]).toMatch(/listing is for "qwen\/qwen-plus"/);
    expect(errors["amazon/nova-pro-v1"]).toMatch(/exceeds/);
  });

  it("run() fails when every listing fails, and when the catalog names no model", async () => {
    const ids = ["cohere/command-a", "x-ai/grok-3-beta"];
    const dir = tempReplay(ids, (d) => ids.forEach((id) => write(d, id, "{}")));
    const list = models.filter((m) => ids.includes(m.aggregatorId));
    await expect(runInferenceProviders(testFeedContext({ http: client(dir), now: NOW }), list)).rejects.toThrow(InferenceProvidersFeedError);
    await expect(runInferenceProviders(testFeedContext({ http: client(dir), now: NOW }), [])).rejects.toThrow(/names no model/);
  });
});
