import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { models } from "../catalog/models.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import {
  MAX_ENDPOINTS_PER_MODEL,
  OpenRouterEndpointsParseError,
  openrouterEndpoints,
  openrouterEndpointsUrl,
} from "./openrouter-endpoints.ts";

const fixture = (url: string) => `pipelines/fixtures/${replayPathFor(url)}`;
/** Catalog models whose recorded listing is a 200 (one model is recorded as the aggregator's 404). */
const listed = models.filter((m) => m.aggregatorId !== "openai/gpt-4.5-preview");

testSource(
  openrouterEndpoints,
  listed.map((m) => ({ fixture: fixture(openrouterEndpointsUrl(m.aggregatorId)), url: openrouterEndpointsUrl(m.aggregatorId), meta: undefined })),
);

const endpoint = (over: Record<string, unknown> = {}) => ({
  name: "Acme | a/m",
  provider_name: "Acme",
  tag: "acme/fp8",
  context_length: 131072,
  pricing: { prompt: "0.00000025", completion: "0.000002", request: "0" },
  quantization: "fp8",
  status: 0,
  ...over,
});
const rowsOf = (endpoints: unknown[], extra: Record<string, unknown> = {}) =>
  openrouterEndpoints.normalize(openrouterEndpoints.parse(JSON.stringify({ data: { id: "a/m", name: "A", endpoints, ...extra } })));

describe("openrouter-endpoints", () => {
  it("openrouterEndpointsUrl() builds the per-model path and refuses ids that are not author/slug", () => {
    expect(openrouterEndpointsUrl("google/gemini-2.5-pro-preview")).toBe("https://openrouter.ai/api/v1/models/google/gemini-2.5-pro-preview/endpoints");
    expect(openrouterEndpointsUrl("meta-llama/llama-3.1-8b-instruct:free")).toBe(
      "https://openrouter.ai/api/v1/models/meta-llama/llama-3.1-8b-instruct%3Afree/endpoints",
    );
    for (const bad of ["solo", "a/b/c", "/b", "a/", ""]) expect(() => openrouterEndpointsUrl(bad)).toThrow(RangeError);
  });

  it("parse() refuses a body that is not JSON or has no data.endpoints array", () => {
    expect(() => openrouterEndpoints.parse("<html>busy</html>")).toThrow(OpenRouterEndpointsParseError);
    expect(() => openrouterEndpoints.parse(JSON.stringify({ data: [] }))).toThrow(/data.endpoints/);
    expect(() => openrouterEndpoints.parse(JSON.stringify({ error: { code: 404, message: "No endpoints found" } }))).toThrow(OpenRouterEndpointsParseError);
  });

  it("parse() skips unreadable entries and counts those beyond the cap", () => {
    const parsed = openrouterEndpoints.parse(JSON.stringify({ data: { id: "a/m", endpoints: [endpoint(), { tag: "no-provider" }, 7] } }));
    expect(parsed).toMatchObject({ id: "a/m", skipped: 2, dropped: 0 });
    const many = Array.from({ length: MAX_ENDPOINTS_PER_MODEL + 5 }, (_, i) => endpoint({ tag: `t${i}` }));
    const capped = openrouterEndpoints.parse(JSON.stringify({ data: { endpoints: many } }));
    expect(capped.endpoints).toHaveLength(MAX_ENDPOINTS_PER_MODEL);
    expect(capped.dropped).toBe(5);
  });

  it("normalize() shifts prices to per 1M exactly and keeps the p50 of the 30-minute statistics", () => {
    const [row] = rowsOf([
      endpoint({ uptime_last_30m: 99.6, latency_last_30m: { p50: 412.5, p75: 600, p90: 800, p99: 1500 }, throughput_last_30m: { p50: 87.3, p75: 70, p90: 50, p99: 20 } }),
    ]);
    expect(row).toEqual({
      provider: "Acme",
      tag: "acme/fp8",
      contextLength: 131072,
      inputPer1M: 0.25,
      outputPer1M: 2,
      throughputTps: 87.3,
      latencyMs: 412.5,
      uptimePct: 99.6,
      quantization: "fp8",
      status: 0,
    });
  });

  it("normalize() gives null where the aggregator states nothing usable (absent, null, negative, over 100 %)", () => {
    const [absent] = rowsOf([endpoint()]);
    expect(absent).toMatchObject({ throughputTps: null, latencyMs: null, uptimePct: null });
    const [bad] = rowsOf([
      endpoint({ pricing: { prompt: "-1", completion: "n/a" }, context_length: 0, uptime_last_30m: 140, latency_last_30m: null, throughput_last_30m: { p50: -3 }, quantization: "  ", status: "default" }),
    ]);
    expect(bad).toMatchObject({ inputPer1M: null, outputPer1M: null, contextLength: null, uptimePct: null, latencyMs: null, throughputTps: null, quantization: null, status: null });
    const [bare] = rowsOf([endpoint({ latency_last_30m: 300, throughput_last_30m: 55, status: "-1" })]);
    expect(bare).toMatchObject({ latencyMs: 300, throughputTps: 55, status: -1 });
  });

  it("normalize() derives a missing tag from the provider, keeps the first listing of a tag, sorts by provider then tag", () => {
    const rows = rowsOf([
      endpoint({ provider_name: "Zeta Cloud", tag: null }),
      endpoint({ provider_name: "Acme", tag: "acme/bf16" }),
      endpoint({ provider_name: "Acme", tag: "acme/fp8", pricing: { prompt: "0.000001", completion: "0.000001" } }),
      endpoint({ provider_name: "Acme", tag: "acme/fp8", pricing: { prompt: "0.000009", completion: "0.000009" } }),
    ]);
    expect(rows.map((r) => [r.provider, r.tag, r.inputPer1M])).toEqual([
      ["Acme", "acme/bf16", 0.25],
      ["Acme", "acme/fp8", 1],
      ["Zeta Cloud", "zeta-cloud", 0.25],
    ]);
  });

  it("normalize() sanitizes and clips outside text, dropping an endpoint whose provider name is empty after it", () => {
    const rows = rowsOf([
      endpoint({ provider_name: "<b>Acme</b>\u200b", tag: `acme/${"x".repeat(200)}` }),
      endpoint({ provider_name: "<i></i>", tag: "empty" }),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.provider).toBe("Acme");
    expect(rows[0]!.tag.length).toBeLessThanOrEqual(80);
    for (const r of rows) openrouterEndpoints.row.parse(r);
  });

  it("the recorded listing of a catalog model has its first-party provider at the catalog's list price", () => {
    const url = openrouterEndpointsUrl("anthropic/claude-sonnet-4");
    const rows = openrouterEndpoints.normalize(openrouterEndpoints.parse(readFileSync(fixture(url), "utf8")));
    expect(rows.find((r) => r.tag === "anthropic")).toMatchObject({ provider: "Anthropic", inputPer1M: 3, outputPer1M: 15 });
  });
});
