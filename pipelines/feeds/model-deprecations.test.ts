import { describe, expect, it } from "vitest";
import { CatalogError } from "../catalog/curated-fields.ts";
import { deprecationProviders, type DeprecationEntry, type DeprecationProvider } from "../catalog/model-deprecations.ts";
import { buildModelDeprecationsSnapshot, modelDeprecationsFeed } from "./model-deprecations.ts";

const entry = (over: Partial<DeprecationEntry> = {}): DeprecationEntry => ({
  provider: "acme", model: "acme-1", status: "retired", announced_date: "2025-01-01", sunset_date: "2025-06-01",
  replacement: "acme-2", source: "https://docs.acme-ai.test/deprecations", checked: "2026-11-22", ...over,
});
const provider = (entries: DeprecationEntry[], replacements = ["acme-2"]): DeprecationProvider => ({
  provider: "acme", name: "Acme", source: "https://docs.acme-ai.test/deprecations", replacements, entries,
});

describe("model deprecations catalog", () => {
  it("deprecationProviders validate: sunset ≥ announced, known replacements, status agrees with dates", () => {
    const data = buildModelDeprecationsSnapshot(deprecationProviders);
    const all = data.providers.flatMap((p) => p.entries);
    expect(all.length).toBeGreaterThanOrEqual(20);
    for (const e of all) {
      if (e.announced_date && e.sunset_date) expect(e.sunset_date >= e.announced_date, e.model).toBe(true);
      const p = deprecationProviders.find((x) => x.provider === e.provider)!;
      if (e.replacement) expect(p.replacements, e.model).toContain(e.replacement);
      expect(e.source).toBe(p.source);
    }
    expect(data.providers.map((p) => p.provider)).toEqual(["anthropic", "google", "mistral", "openai"]);
  });

  it("buildModelDeprecationsSnapshot() rejects a sunset before the announcement", () => {
    expect(() => buildModelDeprecationsSnapshot([provider([entry({ announced_date: "2025-07-01" })])])).toThrow(/before announced_date/);
  });

  it("buildModelDeprecationsSnapshot() rejects an unknown replacement and a self-replacement", () => {
    expect(() => buildModelDeprecationsSnapshot([provider([entry({ replacement: "acme-9" })])])).toThrow(/not a known acme model/);
    expect(() => buildModelDeprecationsSnapshot([provider([entry({ replacement: "acme-1" })], ["acme-1"])])).toThrow(/itself/);
  });

  it("buildModelDeprecationsSnapshot() rejects a status that disagrees with the dates", () => {
    expect(() => buildModelDeprecationsSnapshot([provider([entry({ status: "deprecated" })])])).toThrow(/disagrees/);
    expect(() => buildModelDeprecationsSnapshot([provider([entry({ status: "retired", sunset_date: "2027-01-01" })])])).toThrow(/disagrees/);
    expect(() => buildModelDeprecationsSnapshot([provider([entry({ status: "announced", sunset_date: "2027-01-01" })])])).toThrow(/announced/);
  });

  it("buildModelDeprecationsSnapshot() rejects duplicates, bad dates and extra fields", () => {
    expect(() => buildModelDeprecationsSnapshot([provider([entry(), entry()])])).toThrow(/twice/);
    expect(() => buildModelDeprecationsSnapshot([provider([entry({ sunset_date: "June 2025" })])])).toThrow(CatalogError);
    expect(() => buildModelDeprecationsSnapshot([provider([{ ...entry(), note: "x" } as DeprecationEntry])])).toThrow(CatalogError);
  });

  it("buildModelDeprecationsSnapshot() sorts entries by sunset date with undated last", () => {
    const data = buildModelDeprecationsSnapshot([
      provider([
        entry({ model: "acme-0", status: "deprecated", sunset_date: null, replacement: null }),
        entry({ model: "acme-1", sunset_date: "2025-06-01" }),
        entry({ model: "acme-3", sunset_date: "2025-03-01", replacement: null }),
      ]),
    ]);
    expect(data.providers[0]!.entries.map((e) => e.model)).toEqual(["acme-3", "acme-1", "acme-0"]);
  });
});

describe("modelDeprecationsFeed", () => {
  it("modelDeprecationsFeed.run() emits the validated catalog offline, daily, with a 2-day SLA", async () => {
    expect(modelDeprecationsFeed.urls()).toEqual([]);
    expect(modelDeprecationsFeed.type).toBe("model-deprecations");
    expect(modelDeprecationsFeed.slaSeconds).toBe(172_800);
    const out = await modelDeprecationsFeed.run();
    expect(modelDeprecationsFeed.schema.parse(out.data)).toEqual(out.data);
    expect(out.rows).toBe(deprecationProviders.reduce((n, p) => n + p.entries.length, 0));
  });
});
