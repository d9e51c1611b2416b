/**
 * GET /api/premium/ai-capex-cycle-verdict over real HTTP: two API processes billed on a real Postgres, one on a replay
 * run of the ai-capex feed (EDGAR's recorded company facts of NVIDIA and Alphabet; the other twelve unrecorded), one on
 * a run whose GDP references are withheld (inputs unavailable: served, not charged).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiCapexFeed, runAiCapex } from "../../pipelines/feeds/ai-capex.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import type { SpawnedApi } from "../testing/spawn-api.ts";
import { startPaidServers, type PaidServers } from "./paid-servers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const PATH = "/api/premium/ai-capex-cycle-verdict";
type Json = Record<string, any>;

let run: PaidServers<"full" | "nogdp"> | undefined;
let full: SpawnedApi | undefined;
let nogdp: SpawnedApi | undefined;

async function replay(feed: typeof aiCapexFeed): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-capex-"));
  const results = await runFeeds({ feeds: { "ai-capex": feed }, snapshotsDir: dir, now: new Date(), replayDir: join(ROOT, "pipelines/fixtures") });
  const failed = results.filter((r) => r.status === "failed");
  if (failed.length > 0) throw new Error(`replay failed: ${JSON.stringify(failed)}`);
  return dir;
}

beforeAll(async () => {
  const withoutGdp: typeof aiCapexFeed = { ...aiCapexFeed, run: (ctx) => runAiCapex(ctx, { gdp: [] }) };
  const [fullDir, nogdpDir] = await Promise.all([replay(aiCapexFeed), replay(withoutGdp)]);
  run = await startPaidServers({ full: fullDir, nogdp: nogdpDir }, 10, "test:capex-cycle");
  ({ full, nogdp } = run.servers);
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe("GET /api/premium/ai-capex-cycle-verdict", () => {
  it("answers 402 without a credential", async () => {
    expect((await fetch(`${full!.base}${PATH}`)).status).toBe(402);
  });

  it("charges a verdict: the cohort's share of GDP ranked against sourced cycles, partial coverage said, no bubble call", async () => {
    const { status, body } = await run!.paid(full!, PATH);
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
    expect(body).toMatchObject({ ok: true, verdict_kind: "capex_cycle_analog", ranked_dimension: "peak_capex_pct_gdp", inputs_available: true, verdict: "MODERATE", provenance: "replay", exceeds_all_priors: false });
    expect(body.coverage.reference_year).toBe(2023);
    expect(body.coverage.companies_included.map((c: Json) => c.ticker)).toEqual(["NVDA", "GOOGL"]);
    expect(body.coverage.companies_missing).toHaveLength(12);
    expect(body.current_cycle).toMatchObject({ id: "ai-cohort-capex", annual_capex_usd_b: 33.32, peak_capex_pct_gdp: 0.12, in_progress: true });
    expect(body.current_rank).toBe(body.total_ranked);
    expect(body.ranking.filter((r: Json) => r.is_current)).toHaveLength(1);
    expect(body.closest_analog.cycle_id).toBe("us-telecom-fibre-buildout");
    expect(body.sentiment_outliers.map((o: Json) => o.cycle_id)).toEqual(["us-it-investment-dotcom"]);
    expect(body.not_yet_measurable).toEqual(["overbuild_ratio", "peak_to_trough_drawdown_pct", "boom_to_bust_years", "survival_rate_pct"]);
    expect(body.caveats.some((c: string) => c.includes("lower bound"))).toBe(true);
    expect(body.caveats.some((c: string) => c.includes("Capex for 2025 is filed"))).toBe(true);
    expect(body.interpretation).toMatch(/does not predict a bust/);
    for (const s of body.historical_sources) expect(s.source_url).toMatch(/^https:\/\//);
    expect(Date.parse(body.captured_at)).not.toBeNaN();
  });

  it("serves inputs unavailable without a verdict and without a charge", async () => {
    const { status, body } = await run!.paid(nogdp!, PATH);
    expect(status).toBe(200);
    expect(body).toMatchObject({ inputs_available: false, verdict: null, current_cycle: null, current_rank: null, closest_analog: null });
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "inputs_unavailable" });
    expect(body.receipt.signed).toMatchObject({ credits_charged: 0, no_charge_reason: "inputs_unavailable" });
    const again = await run!.paid(full!, PATH);
    expect(again.body.billing.credits_charged).toBe(1);
  });
});
