/**
 * GET /api/premium/ai-companies/{ticker} and the funding registry over real HTTP: two API processes on replay runs of
 * the sec-filings, news and funding-portfolio feeds (one now, one 10 hours ago, past the filings' 9-hour SLA),
 * billed on a real Postgres.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import type { SpawnedApi } from "../testing/spawn-api.ts";
import { startPaidServers, type PaidServers } from "./paid-servers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

let run: PaidServers<"fresh" | "stale"> | undefined;
let fresh: SpawnedApi | undefined;
let stale: SpawnedApi | undefined;

async function replay(now: Date): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-ai-companies-"));
  const results = await runFeeds({ feeds: { "sec-filings": feeds["sec-filings"], news: feeds.news, "funding-portfolio": feeds["funding-portfolio"] }, snapshotsDir: dir, now, replayDir: join(ROOT, "pipelines/fixtures") });
  const failed = results.filter((r) => r.status === "failed");
  if (failed.length > 0) throw new Error(`replay failed: ${JSON.stringify(failed)}`);
  return dir;
}

beforeAll(async () => {
  const [freshDir, staleDir] = await Promise.all([replay(new Date()), replay(new Date(Date.now() - 10 * 3_600_000))]);
  run = await startPaidServers({ fresh: freshDir, stale: staleDir }, 10, "test:ai-companies");
  ({ fresh, stale } = run.servers);
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe("GET /api/premium/ai-companies/{ticker}", () => {
  it("answers 402 without a credential", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/ai-companies/NVDA`)).status).toBe(402);
  });

  it("charges a fresh answer: the company, its latest filings with document URLs, the news naming it, a receipt", async () => {
    const { status, body } = await run!.paid(fresh!, "/api/premium/ai-companies/nvda");
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
    expect(body).toMatchObject({ ticker: "NVDA", cohort_size: 14, provenance: "replay", company: { cik: "0001045810", category: "accelerators", edgar_name: "NVIDIA CORP" } });
    expect(body.filings.status).toBe("ok");
    expect(body.filings.items.length).toBeGreaterThan(0);
    expect(body.filings.items.length).toBeLessThanOrEqual(10);
    for (const f of body.filings.items) expect(f.primary_doc_url).toMatch(/^https:\/\/www\.sec\.gov\/Archives\/edgar\/data\/1045810\/\d{18}\//);
    expect(body.filings.items.map((f: Json) => f.filing_date)).toEqual([...body.filings.items.map((f: Json) => f.filing_date)].sort().reverse());
    expect(body.news.aliases_used).toEqual(["NVIDIA", "Nvidia"]);
    for (const n of body.news.items) expect(n.matched_aliases.length).toBeGreaterThan(0);
  });

  it("lists the company's funding commitments as an investor, from the curated registry", async () => {
    const { body } = await run!.paid(fresh!, "/api/premium/ai-companies/AMZN");
    expect(body.funding_as_investor.count).toBe(2);
    expect(body.funding_as_investor.items.map((c: Json) => c.recipient)).toEqual(["Anthropic", "Anthropic"]);
    expect(body.funding_as_investor.items[0].source_url).toMatch(/^https:\/\//);
  });

  it("answers a ticker outside the cohort with 404 and the cohort, uncharged", async () => {
    const before = (await run!.paid(fresh!, "/api/premium/ai-companies/MSFT")).body.billing.credits_remaining;
    const { status, body } = await run!.paid(fresh!, "/api/premium/ai-companies/XYZ");
    expect(status).toBe(404);
    expect(body).toMatchObject({ ok: false, error: "unknown_ticker" });
    expect(body.cohort).toHaveLength(14);
    const after = (await run!.paid(fresh!, "/api/premium/ai-companies/NVDA")).body.billing.credits_remaining;
    expect(after).toBe(before - 1);
  });

  it("serves filings older than the 9-hour SLA without charging", async () => {
    const { status, body } = await run!.paid(stale!, "/api/premium/ai-companies/MSFT");
    expect(status).toBe(200);
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
    expect(body.filings.items[0]).toMatchObject({ filing_date: "2026-03-03" });
  });

  it("serves a company whose EDGAR list could not be read (none recorded) without charging", async () => {
    const { status, body } = await run!.paid(fresh!, "/api/premium/ai-companies/TSM");
    expect(status).toBe(200);
    expect(body.filings).toMatchObject({ status: "failed", count: 0, items: [] });
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "filings_unavailable" });
  });
});

describe("the funding registry", () => {
  it("serves the curated commitments free, each with its source and the day it was checked", async () => {
    const res = await fetch(`${fresh!.base}/api/funding/portfolio`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.count).toBe(body.commitments.length);
    for (const c of body.commitments) {
      expect(c.source_url).toMatch(/^https:\/\//);
      expect(c.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(body.commitments.map((c: Json) => c.announced)).toEqual([...body.commitments.map((c: Json) => c.announced)].sort().reverse());
  });

  it("charges the exposure verdict: circular loops by investor, top recipients, co-investor pairs", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/funding/exposure`)).status).toBe(402);
    const { status, body } = await run!.paid(fresh!, "/api/premium/funding/exposure");
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    const loop = Object.fromEntries(body.circular_exposure.map((e: Json) => [e.investor, e.loop_classification]));
    expect(loop).toMatchObject({ Amazon: "fully-circular", Microsoft: "agnostic", Alphabet: "insufficient-data", NVIDIA: "insufficient-data" });
    expect(body.top_recipients[0].recipient).toBe("OpenAI");
    expect(body.co_investor_pairs).toContainEqual({ investor_a: "Alphabet", investor_b: "Amazon", shared_recipients: ["Anthropic"] });
    expect(body.silicon_concentration.reduce((a: number, s: Json) => a + s.share_of_total_pct, 0)).toBeCloseTo(100, 0);
  });
});
