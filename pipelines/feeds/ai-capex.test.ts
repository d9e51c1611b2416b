import { describe, expect, it } from "vitest";
import { AI_COMPANIES } from "../catalog/ai-companies.ts";
import { CAPEX_CYCLES, US_GDP } from "../catalog/capex-cycles.ts";
import { aiCapexSnapshotSchema, type AiCapexSnapshot } from "../contract/snapshots/ai-capex.ts";
import { WAREHOUSE_TABLES } from "../contract/warehouse-tables.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { recordingHttp as recording } from "../lib/testing/recording-http.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import { companyFactsUrl } from "../sources/sec-xbrl-capex.ts";
import { aiCapexFeed, checkReferences, runAiCapex } from "./ai-capex.ts";
import { edgarUserAgent } from "./sec-filings.ts";

const NOW = new Date("2026-11-26T05:41:00Z");
const fixtures = replayFixtures();
const client = fixtures.client;


describe("ai-capex feed", () => {
  it("declares every cohort company's companyfacts URL and a 3-day SLA", () => {
    expect(aiCapexFeed.urls()).toEqual(AI_COMPANIES.map((c) => companyFactsUrl(c.cik)));
    expect(aiCapexFeed.slaSeconds).toBe(3 * 86_400);
  });

  it("replays the two recorded companies; the twelve unrecorded ones fail as replay_missing; paced with a contact on a live run", async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const sleeps: number[] = [];
    const ctx = { ...testFeedContext({ http: recording(client("pipelines/fixtures"), seen), now: NOW }), provenance: "live" as const };
    const out = await runAiCapex(ctx, { contact: "ops@agentfeed.example", sleep: async (ms) => void sleeps.push(ms) });
    expect(aiCapexSnapshotSchema.parse(out.data)).toEqual(out.data);
    const ok = out.data.companies.filter((c) => c.status === "ok").map((c) => c.ticker);
    expect(ok).toEqual(["NVDA", "GOOGL"]);
    for (const c of out.data.companies.filter((x) => x.status === "failed")) expect(c.error).toMatch(/^replay_missing 404: https:\/\/data\.sec\.gov\/api\/xbrl\/companyfacts\/CIK\d{10}\.json$/);
    expect(seen.map((s) => s.headers["User-Agent"])).toEqual(AI_COMPANIES.map(() => edgarUserAgent("ops@agentfeed.example")));
    expect(sleeps).toEqual(AI_COMPANIES.slice(1).map(() => 125));
    expect(out.data.cycles.map((c) => c.id)).toEqual(["us-railroads-gilded-age", "us-it-investment-dotcom", "us-telecom-fibre-buildout"]);
    expect(out.data.us_gdp).toEqual(US_GDP);
    const batch = out.warehouse![0]!;
    expect(batch.table).toBe("ai_capex_annual");
    expect(batch.rows).toHaveLength(11);
    const cols = WAREHOUSE_TABLES.ai_capex_annual.columns.map((c) => c.name);
    for (const r of batch.rows) expect(Object.keys(r).sort()).toEqual([...cols].sort());
    expect(batch.rows.find((r) => r.ticker === "NVDA" && r.fiscal_year === 2025)).toMatchObject({ date: "2026-11-26", capex_usd: 6_042_000_000 });
  });

  it("refuses a live run without a contact, keeps a failed company's previous figures, fails when every company failed", async () => {
    const live = { ...testFeedContext({ http: client("pipelines/fixtures"), now: NOW }), provenance: "live" as const };
    await expect(runAiCapex(live, { contact: "" })).rejects.toThrow(/SEC_EDGAR_CONTACT/);
    const nvda = AI_COMPANIES.find((c) => c.ticker === "NVDA")!;
    const amd = AI_COMPANIES.find((c) => c.ticker === "AMD")!;
    const dir = fixtures.replayOf("ai-capex-", { [companyFactsUrl(nvda.cik)]: "{\"not\":\"companyfacts\"}" });
    const annual = [{ fiscal_year: 2024, period_start: "2024-01-01", period_end: "2024-12-31", capex_usd: 5, concept: "PaymentsToAcquirePropertyPlantAndEquipment" as const, form: "10-K", accession_number: "0000002488-25-000001", filed: "2025-02-01" }];
    const previous: AiCapexSnapshot = { companies: [{ ticker: "AMD", cik: amd.cik, display_name: "AMD", status: "ok", annual }], cycles: [], us_gdp: [] };
    const ctx = { ...testFeedContext({ http: client(dir), now: NOW, latest: { "ai-capex": previous } }), provenance: "replay" as const };
    await expect(runAiCapex(ctx, { companies: [nvda, amd] })).rejects.toThrow(/all 2 companies failed/);
    const mixed = { ...testFeedContext({ http: client("pipelines/fixtures"), now: NOW, latest: { "ai-capex": previous } }), provenance: "replay" as const };
    const out = await runAiCapex(mixed, { companies: [nvda, amd] });
    expect(out.data.companies[1]).toMatchObject({ ticker: "AMD", status: "failed", annual });
    expect(mixed.notices.some((n) => n.includes("AMD failed"))).toBe(true);
  });

  it("checkReferences() refuses a duplicate cycle or GDP year, and a drawdown without its source; the catalog passes", () => {
    expect(() => checkReferences(CAPEX_CYCLES, US_GDP)).not.toThrow();
    expect(() => checkReferences([CAPEX_CYCLES[0]!, CAPEX_CYCLES[0]!], US_GDP)).toThrow(/appears twice/);
    expect(() => checkReferences(CAPEX_CYCLES, [US_GDP[0]!, US_GDP[0]!])).toThrow(/appears twice/);
    expect(() => checkReferences([{ ...CAPEX_CYCLES[0]!, peak_to_trough_drawdown_pct: 40 }], US_GDP)).toThrow(/without its source/);
    for (const c of CAPEX_CYCLES) expect(c.source_url).toMatch(/^https:\/\//);
  });
});
