/**
 * The research routes over real HTTP: two API server processes, one on a fresh replay of the preprint listings
 * plus a warehouse of the 128 hand-labelled preprints spread over the last four months (recent window and the
 * baseline before it), one whose listing ran 9 days ago (past the 8-day SLA); billed on a real Postgres.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { preprintRows } from "../../pipelines/feeds/papers-preprint-recent.ts";
import { loadLabelledSet } from "../../pipelines/lib/research/evaluate.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { addDays } from "../verdicts/history-range.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import type { SpawnedApi } from "../testing/spawn-api.ts";
import { startPaidServers, type PaidServers } from "./paid-servers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

const dirs: string[] = [];
let run: PaidServers<"fresh" | "stale"> | undefined;
let fresh: SpawnedApi | undefined;
let stale: SpawnedApi | undefined;
let today = "";

async function listings(now: Date): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-research-"));
  dirs.push(dir);
  const [r] = await runFeeds({ feeds: { "papers-preprint-recent": feeds["papers-preprint-recent"] }, snapshotsDir: dir, now, replayDir: join(ROOT, "pipelines/fixtures") });
  if (r?.status === "failed") throw new Error(`replay failed: ${JSON.stringify(r)}`);
  return dir;
}

beforeAll(async () => {
  const now = new Date();
  today = now.toISOString().slice(0, 10);
  const [freshDir, staleDir] = await Promise.all([listings(now), listings(new Date(now.getTime() - 9 * 86_400_000))]);
  // The labelled preprints as if first submitted over the last 120 days: even ones in the recent 30, odd ones before.
  const { preprints } = loadLabelledSet();
  const at = (p: (typeof preprints)[number], day: string) => ({ ...p, publishedAt: `${day}T12:00:00.000Z` });
  const recent = preprints.filter((_, i) => i % 2 === 0).map((p, i) => at(p, addDays(today, -(i % 25))));
  const older = preprints.filter((_, i) => i % 2 === 1).map((p, i) => at(p, addDays(today, -35 - (i % 80))));
  await writeWarehouse(freshDir, addDays(today, -1), [preprintRows(recent, addDays(today, -1))]);
  await writeWarehouse(freshDir, addDays(today, -40), [preprintRows(older, addDays(today, -40))]);
  await writeWarehouse(staleDir, addDays(today, -40), [preprintRows(older, addDays(today, -40))]);
  run = await startPaidServers({ fresh: freshDir, stale: staleDir }, 50, "test:research");
  ({ fresh, stale } = run.servers);
}, 180_000);

afterAll(async () => {
  await run?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const paid = (api: SpawnedApi, path: string) => run!.paid(api, path);

describe("GET /api/premium/research/milestones", () => {
  it("answers 402 without a credential", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/research/milestones`)).status).toBe(402);
  });

  it("lists the last 30 days' milestone candidates with the rule that flagged each; charged and signed", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/research/milestones");
    expect(status).toBe(200);
    expect(body.window_days).toBe(30);
    expect(body.total).toBeGreaterThan(3);
    expect(body.papers.map((p: Json) => p.preprint_id)).toContain("2501.12948");
    for (const p of body.papers) {
      expect(p.milestone_reasoning).toMatch(/^milestone: /);
      expect(p.date >= addDays(today, -30)).toBe(true);
    }
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
  });

  it("a listing older than 8 days is served without charge", async () => {
    const { body } = await paid(stale!, "/api/premium/research/topic-search?limit=5");
    expect(body.has_data).toBe(true);
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
  });
});

describe("GET /api/premium/research/emerging-keywords", () => {
  it("ranks terms by lift over the smoothed 90-day baseline, with recent examples", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/research/emerging-keywords");
    expect(status).toBe(200);
    expect(body).toMatchObject({ recent_window_days: 30, baseline_window_days: 90 });
    expect(body.recent_papers).toBeGreaterThan(50);
    expect(body.baseline_papers).toBeGreaterThan(50);
    expect(body.total).toBeGreaterThan(0);
    expect(body.total).toBeLessThanOrEqual(50);
    for (const k of body.keywords) {
      expect(k.example_preprint_ids.length).toBeGreaterThanOrEqual(2);
      expect(k.example_preprint_ids.length).toBeLessThanOrEqual(5);
      const expected = (k.recent_count / body.recent_papers) / ((k.baseline_count + 1) / (body.baseline_papers + 1));
      expect(k.lift).toBeCloseTo(expected, 2);
    }
    const lifts = body.keywords.map((k: Json) => k.lift);
    expect([...lifts].sort((a: number, b: number) => b - a)).toEqual(lifts);
    expect(body.billing.credits_charged).toBe(1);
  });
});

describe("GET /api/premium/research/topic-search", () => {
  it("filters by subfield and methodology, newest first, with the rules behind the labels; pages with limit and offset", async () => {
    const { body } = await paid(fresh!, "/api/premium/research/topic-search?subfield_tag=agents&limit=3");
    expect(body.total_matches).toBeGreaterThan(3);
    expect(body.returned).toBe(3);
    for (const p of body.papers) {
      expect(p.subfield_tag).toBe("agents");
      expect(p.subfield_rule).toMatch(/^agents: /);
    }
    const dates = body.papers.map((p: Json) => p.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const next = await paid(fresh!, "/api/premium/research/topic-search?subfield_tag=agents&limit=3&offset=3");
    expect(next.body.papers[0].preprint_id).not.toBe(body.papers[0].preprint_id);
    const bench = await paid(fresh!, "/api/premium/research/topic-search?methodology_bucket=eval-benchmark&milestone_only=0&limit=100");
    expect(bench.body.papers.every((p: Json) => p.methodology_bucket === "eval-benchmark")).toBe(true);
    const ms = await paid(fresh!, "/api/premium/research/topic-search?milestone_only=1&limit=100");
    expect(ms.body.papers.every((p: Json) => p.is_milestone_candidate)).toBe(true);
  });

  it("an empty range is has_data false and not charged; bad input is 400", async () => {
    const { body } = await paid(fresh!, "/api/premium/research/topic-search?since=2001-01-01&until=2001-12-31");
    expect(body).toMatchObject({ has_data: false, total_matches: 0 });
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_data_in_range" });
    expect((await paid(fresh!, "/api/premium/research/topic-search?subfield_tag=astrology")).status).toBe(400);
    expect((await paid(fresh!, "/api/premium/research/topic-search?since=2026-02-01&until=2026-01-01")).status).toBe(400);
    expect((await paid(fresh!, "/api/premium/research/topic-search?limit=101")).status).toBe(400);
  });
});

describe("GET /api/premium/research/lab-productivity", () => {
  it("counts preprints per affiliation in each window, filtered by type", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/research/lab-productivity");
    expect(status).toBe(200);
    expect(Object.keys(body.windows).sort()).toEqual(["30d", "365d", "90d"]);
    const year = body.windows["365d"];
    expect(year[0].papers).toBeGreaterThanOrEqual(year.at(-1).papers);
    expect(year.find((a: Json) => a.affiliation === "Google DeepMind")).toMatchObject({ type: "industry" });
    const academia = await paid(fresh!, "/api/premium/research/lab-productivity?window=90d&affiliation_type=academia&limit=5");
    expect(Object.keys(academia.body.windows)).toEqual(["90d"]);
    expect(academia.body.windows["90d"].length).toBeLessThanOrEqual(5);
    expect(academia.body.windows["90d"].every((a: Json) => a.type === "academia")).toBe(true);
    expect(body.billing.credits_charged).toBe(1);
  });
});
