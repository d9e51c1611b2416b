import { describe, expect, it } from "vitest";
import { agentCategories, agentsCatalog, type AgentEntry } from "../catalog/agents.ts";
import { CatalogError } from "../catalog/curated-fields.ts";
import { agentsFeed, agentsSnapshotSchema, buildAgentsSnapshot } from "./agents.ts";

const entry = (over: Partial<AgentEntry>): AgentEntry => ({ ...agentsCatalog[0]!, ...over });

describe("agents catalog", () => {
  it("agentsCatalog holds at least 30 entries with unique ids", () => {
    expect(agentsCatalog.length).toBeGreaterThanOrEqual(30);
    expect(new Set(agentsCatalog.map((a) => a.id)).size).toBe(agentsCatalog.length);
  });

  it("agentsCatalog covers coding, computer-use, research, framework and customer-service agents", () => {
    const present = new Set(agentsCatalog.map((a) => a.category));
    for (const c of ["coding", "computer-use", "research", "framework", "customer-service"]) expect(present).toContain(c);
  });
});

describe("buildAgentsSnapshot()", () => {
  it("buildAgentsSnapshot() validates the catalog and passes the strict snapshot schema", () => {
    const data = buildAgentsSnapshot(agentsCatalog);
    expect(() => agentsSnapshotSchema.parse(data)).not.toThrow();
    expect(data.agents).toHaveLength(agentsCatalog.length);
  });

  it("buildAgentsSnapshot() derives sorted categories from the data only", () => {
    const data = buildAgentsSnapshot([entry({ id: "b", category: "research" }), entry({ id: "a", category: "coding" }), entry({ id: "c", category: "coding" })]);
    expect(data.categories).toEqual(["coding", "research"]);
    expect(data.agents.map((a) => a.id)).toEqual(["a", "b", "c"]);
    expect(agentCategories).toEqual(expect.arrayContaining(data.categories));
  });

  it("buildAgentsSnapshot() takes lastUpdated from the newest checked date, not the clock", () => {
    const data = buildAgentsSnapshot([entry({ id: "a", checked: "2026-01-05" }), entry({ id: "b", checked: "2026-03-09" }), entry({ id: "c", checked: "2025-12-31" })]);
    expect(data.lastUpdated).toBe("2026-03-09");
  });

  it("buildAgentsSnapshot() rejects a duplicate id", () => {
    expect(() => buildAgentsSnapshot([entry({ id: "dup" }), entry({ id: "dup" })])).toThrow(CatalogError);
    expect(() => buildAgentsSnapshot([entry({ id: "dup" }), entry({ id: "dup" })])).toThrow(/duplicate id "dup"/);
  });

  it("buildAgentsSnapshot() rejects unknown fields, bad URLs, bad dates and unknown categories", () => {
    expect(() => buildAgentsSnapshot([{ ...entry({}), extra: 1 }])).toThrow(CatalogError);
    expect(() => buildAgentsSnapshot([entry({ url: "http://insecure.example" })])).toThrow(/url/);
    expect(() => buildAgentsSnapshot([entry({ source: [] })])).toThrow(/source/);
    expect(() => buildAgentsSnapshot([entry({ checked: "22/11/2026" })])).toThrow(/checked/);
    expect(() => buildAgentsSnapshot([{ ...entry({}), category: "robotics" }])).toThrow(/category/);
    expect(() => buildAgentsSnapshot([entry({ description: "two\nlines" })])).toThrow(/description/);
  });

  it("buildAgentsSnapshot() refuses an empty catalog", () => {
    expect(() => buildAgentsSnapshot([])).toThrow(/empty/);
  });
});

describe("agentsFeed", () => {
  it("agentsFeed.run() emits the validated catalog offline with a daily cadence and a 2-day SLA", async () => {
    expect(agentsFeed.urls()).toEqual([]);
    expect(agentsFeed.type).toBe("agents");
    expect(agentsFeed.slaSeconds).toBe(172_800);
    const out = await agentsFeed.run();
    expect(agentsFeed.schema.parse(out.data)).toEqual(out.data);
    expect(out.rows).toBe(agentsCatalog.length);
    expect(out.data.lastUpdated).toBe([...agentsCatalog.map((a) => a.checked)].sort().at(-1));
    expect(JSON.parse(JSON.stringify(out.data))).toEqual(out.data);
  });
});
