/**
 * The software-supply routes over real HTTP: two API server processes on replay runs of the security-advisories
 * feed (one fresh, one run 3 days ago, past the 2-day SLA), billed on a real Postgres. A first run at the
 * fixtures' own day brings in the recorded malicious-package advisories; the later run carries them forward, as a
 * daily schedule does. Checks the 402 challenge, charged calls with receipts, every no-charge rule (out of
 * coverage, nothing in the cohort, nothing tracked, stale data), 400s for bad input, and the preview's cap.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { addDays } from "../verdicts/history-range.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import type { SpawnedApi } from "../testing/spawn-api.ts";
import { startPaidServers, type PaidServers } from "./paid-servers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** The day the malicious-package fixtures were modified around. */
const FIXTURE_DAY = new Date("2026-11-24T05:47:00Z");
type Json = Record<string, any>;

const dirs: string[] = [];
let run: PaidServers<"fresh" | "stale"> | undefined;
let fresh: SpawnedApi | undefined;
let stale: SpawnedApi | undefined;

async function gather(now: Date): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-security-"));
  dirs.push(dir);
  const replayDir = join(ROOT, "pipelines/fixtures");
  for (const [at, names] of [[FIXTURE_DAY, ["security-advisories", "model-deprecations"]], [now, ["security-advisories", "model-deprecations"]]] as const) {
    const selected = Object.fromEntries(names.map((n) => [n, feeds[n]]));
    for (const r of await runFeeds({ feeds: selected, snapshotsDir: dir, now: at, replayDir })) if (r.status === "failed") throw new Error(`replay failed: ${JSON.stringify(r)}`);
  }
  return dir;
}

beforeAll(async () => {
  const now = new Date();
  const [freshDir, staleDir] = await Promise.all([gather(now), gather(new Date(now.getTime() - 3 * 86_400_000))]);
  // Twenty days ago express's latest release was 4.21.2: a new major line since.
  const today = now.toISOString().slice(0, 10);
  const before = addDays(today, -20);
  await writeWarehouse(freshDir, before, [
    { table: "package_versions_daily", key: ["date", "ecosystem", "package"], rows: [{ date: before, ecosystem: "npm", package: "express", latest_version: "4.21.2", latest_major: "4", versions: 6, latest_deprecated: false }] },
  ]);
  run = await startPaidServers({ fresh: freshDir, stale: staleDir }, 50, "test:security");
  ({ fresh, stale } = run.servers);
}, 180_000);

afterAll(async () => {
  await run?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const paid = (api: SpawnedApi, path: string) => run!.paid(api, path);

describe("GET /api/premium/security/package-verdict", () => {
  it("answers 402 without a credential", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/security/package-verdict?package=requests`)).status).toBe(402);
  });

  it("REVIEW for a version a high advisory affects, with the fix to take; charged and signed", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/security/package-verdict?package=axios&ecosystem=npm&version=1.7.9");
    expect(status).toBe(200);
    expect(body).toMatchObject({ verdict_kind: "package_safety", coverage: "covered", verdict: "REVIEW", evaluated_version: "1.7.9" });
    expect(body.advisories.map((a: Json) => a.id)).toContain("GHSA-jr5f-v2jv-69x6");
    expect(body.recommendation).toMatch(/1\.8\.2/);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
  });

  it("GO for a fixed version; BLOCK for a malicious package outside the cohort; PEP 503 names match", async () => {
    const go = await paid(fresh!, "/api/premium/security/package-verdict?package=Requests&ecosystem=pypi&version=2.32.5");
    expect(go.body).toMatchObject({ verdict: "GO", ecosystem: "PyPI" });
    const mal = await paid(fresh!, "/api/premium/security/package-verdict?package=anthropic-client&ecosystem=PyPI&version=0.1.2");
    expect(mal.body).toMatchObject({ verdict: "BLOCK", risk_score: 100, risk_band: "critical" });
    expect(mal.body.billing.credits_charged).toBe(1);
  });

  it("a package in no covered feed is out_of_coverage and not charged; bad input is 400", async () => {
    const { body } = await paid(fresh!, "/api/premium/security/package-verdict?package=left-pad&ecosystem=npm");
    expect(body).toMatchObject({ coverage: "out_of_coverage", verdict: null });
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "out_of_coverage" });
    const bad = await paid(fresh!, "/api/premium/security/package-verdict?package=requests&ecosystem=cargo");
    expect(bad.status).toBe(400);
    expect(bad.body.ok).toBe(false);
  });

  it("stale advisories are served without charge", async () => {
    const { body } = await paid(stale!, "/api/premium/security/package-verdict?package=axios&ecosystem=npm&version=1.7.9");
    expect(body.verdict).toBe("REVIEW");
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
  });
});

describe("GET /api/premium/stack-safety-verdict", () => {
  it("gates a stack: HOLD on an exploited CVE with a fix, PASS on a clean pin, UNKNOWN outside the cohort", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/stack-safety-verdict?packages=pypi:langflow@1.2.0,npm:express@5.1.0,left-pad@1.3.0");
    expect(status).toBe(200);
    expect(body.gate).toBe("HOLD");
    expect(body.counts).toEqual({ block: 0, hold: 1, pass: 1, unknown: 1 });
    const langflow = body.packages[0];
    expect(langflow).toMatchObject({ verdict: "HOLD", in_cohort: true, exploited: true, fix_available: true });
    expect(langflow.matched_cves[0]).toMatchObject({ cve_id: "CVE-2025-3248", on_kev: true, exploited_in_wild: true, fixed_versions: ["1.3.0"] });
    expect(body.packages[2]).toMatchObject({ package: "left-pad", verdict: "UNKNOWN", in_cohort: false });
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
  });

  it("BLOCK for a malicious release; a stack wholly outside the cohort is not charged; more than 10 is 400", async () => {
    const block = await paid(fresh!, "/api/premium/stack-safety-verdict?packages=pypi:transformerss@4.0.0,pypi:torch@2.9.1");
    expect(block.body.gate).toBe("BLOCK");
    const none = await paid(fresh!, "/api/premium/stack-safety-verdict?packages=left-pad@1.3.0,is-odd@3.0.1");
    expect(none.body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_package_in_cohort" });
    const many = Array.from({ length: 11 }, (_, i) => `p${i}@1.0.0`).join(",");
    expect((await paid(fresh!, `/api/premium/stack-safety-verdict?packages=${many}`)).status).toBe(400);
  });
});

describe("GET /api/preview/stack-safety-verdict", () => {
  it("answers the gate only, for at most 3 packages", async () => {
    const res = await fetch(`${fresh!.base}/api/preview/stack-safety-verdict?packages=pypi:langflow@1.2.0,npm:express@5.1.0`);
    const body = (await res.json()) as Json;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ ok: true, preview: true, gate: "HOLD", counts: { hold: 1, pass: 1 } });
    expect(body.packages).toBeUndefined();
    expect(JSON.stringify(body)).not.toMatch(/CVE-/);
    const four = await fetch(`${fresh!.base}/api/preview/stack-safety-verdict?packages=a@1,b@1,c@1,d@1`);
    expect(four.status).toBe(400);
  });
});

describe("GET /api/premium/stack-drift-verdict", () => {
  it("reports a new major release, a retired model and tracked protocols; charged", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/stack-drift-verdict?models=gpt-4.5-preview&packages=npm:express&protocols=mcp,x402,soap&since_days=30");
    expect(status).toBe(200);
    expect(body.verdict).toBe("ACTION_NEEDED");
    expect(body.findings.find((f: Json) => f.kind === "package")).toMatchObject({ subject: expect.stringContaining("express"), signal: "new_major_release", break_risk: "medium" });
    expect(body.findings.find((f: Json) => f.kind === "model")).toMatchObject({ break_risk: "high" });
    expect(body.untracked).toEqual(["soap"]);
    expect(body.counts.assessed).toBe(4);
    expect(body.window.since_days).toBe(30);
    expect(body.billing.credits_charged).toBe(1);
  });

  it("nothing tracked is not charged; no subject at all is 400", async () => {
    const { body } = await paid(fresh!, "/api/premium/stack-drift-verdict?packages=npm:left-pad&protocols=soap");
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "nothing_tracked" });
    expect((await paid(fresh!, "/api/premium/stack-drift-verdict?since_days=7")).status).toBe(400);
  });
});
