import { describe, expect, it } from "vitest";
import { models, validateModels } from "./models.ts";
import { providers, validateProviders } from "./providers.ts";

const providerIds = providers.map((p) => p.id);
const sample = models[0]!;

describe("model catalog", () => {
  it("validateModels() accepts the curated catalog at import (≥40 models, ≥8 providers)", () => {
    expect(models.length).toBeGreaterThanOrEqual(40);
    expect(new Set(models.map((m) => m.provider)).size).toBeGreaterThanOrEqual(8);
    for (const id of ["openai", "anthropic", "google", "meta", "mistral", "deepseek", "xai", "cohere", "qwen"]) {
      expect(models.some((m) => m.provider === id), id).toBe(true);
    }
  });

  it("validateModels() rejects an unknown provider", () => {
    expect(() => validateModels([{ ...sample, provider: "nobody" }], providerIds)).toThrow(/unknown provider "nobody"/);
  });

  it("validateModels() rejects duplicate ids and duplicate aggregator ids", () => {
    expect(() => validateModels([sample, sample], providerIds)).toThrow(/duplicate model id/);
    expect(() => validateModels([sample, { ...sample, id: "other" }], providerIds)).toThrow(/duplicate aggregatorId/);
  });

  it("validateModels() rejects unknown fields, negative prices and bad dates", () => {
    expect(() => validateModels([{ ...sample, price: 1 }], providerIds)).toThrow();
    expect(() => validateModels([{ ...sample, inputCostPer1M: -1 }], providerIds)).toThrow();
    expect(() => validateModels([{ ...sample, releaseDate: "2025-13-01" }], providerIds)).toThrow();
    expect(() => validateModels([{ ...sample, capabilities: ["text", "telepathy"] }], providerIds)).toThrow();
  });

  it("validateModels() requires the text capability, listed once", () => {
    expect(() => validateModels([{ ...sample, capabilities: ["vision"] }], providerIds)).toThrow(/"text"/);
    expect(() => validateModels([{ ...sample, capabilities: ["text", "text"] }], providerIds)).toThrow(/twice/);
  });

  it("curated prices are plausible: output ≥ input, nothing above 1000 USD per 1M", () => {
    for (const m of models) {
      expect(m.outputCostPer1M, m.id).toBeGreaterThanOrEqual(m.inputCostPer1M);
      expect(m.outputCostPer1M, m.id).toBeLessThanOrEqual(1000);
      expect(m.inputCostPer1M, m.id).toBeGreaterThan(0);
    }
  });
});

describe("provider catalog", () => {
  it("validateProviders() accepts the curated providers, each with a pricing source and checked date", () => {
    expect(providers.length).toBeGreaterThanOrEqual(8);
    for (const p of providers) {
      expect(p.pricingSource).toMatch(/^https:\/\//);
      expect(p.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("validateProviders() rejects uppercase ids and duplicates", () => {
    const p = providers[0]!;
    expect(() => validateProviders([{ ...p, id: "OpenAI" }])).toThrow();
    expect(() => validateProviders([p, p])).toThrow(/duplicate provider id/);
  });
});
