/**
 * GET /api/premium/sec/filings/guidance-delta and its preview over real HTTP: an API process on a replay run of the
 * sec-filing-sections feed (EDGAR's submissions of the cohort; NVIDIA's fiscal 2024 and 2025 10-K documents as EDGAR
 * serves them, its fiscal 2026 10-K not recorded), billed on a real Postgres.
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
const PATH = "/api/premium/sec/filings/guidance-delta";
const FY2025 = "0001045810-25-000023";
const FY2024 = "0001045810-24-000029";
type Json = Record<string, any>;

let run: PaidServers<"api"> | undefined;
let api: SpawnedApi | undefined;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-guidance-delta-"));
  const results = await runFeeds({ feeds: { "sec-filing-sections": feeds["sec-filing-sections"] }, snapshotsDir: dir, now: new Date(), replayDir: join(ROOT, "pipelines/fixtures") });
  const failed = results.filter((r) => r.status === "failed");
  if (failed.length > 0) throw new Error(`replay failed: ${JSON.stringify(failed)}`);
  run = await startPaidServers({ api: dir }, 20, "test:guidance-delta");
  ({ api } = run.servers);
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

describe("GET /api/premium/sec/filings/guidance-delta", () => {
  it("answers 402 without a credential", async () => {
    expect((await fetch(`${api!.base}${PATH}?ticker=NVDA&form=10-K`)).status).toBe(402);
  });

  it("charges one filing's delta against the same-form filing before it: classified changes, their quotes, a receipt", async () => {
    const { status, body } = await run!.paid(api!, `${PATH}?accession=${FY2025}`);
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
    expect(body).toMatchObject({ ticker: "NVDA", company_name: "NVIDIA CORP", form: "10-K", accession_number: FY2025, prior_accession_number: FY2024, filing_date: "2025-02-26", prior_filing_date: "2024-02-21", provenance: "replay" });
    expect(body.freshness).toMatchObject({ model: "superseded_by_newer_filing", superseded: false, newest_same_form: { accession_number: "0001045810-26-000021" } });
    const summary = body.materiality_summary;
    expect(summary.total_changes).toBe(body.changes.length);
    expect(summary.by_materiality.material + summary.by_materiality.minor + summary.by_materiality.boilerplate).toBe(summary.total_changes);
    expect(summary.headline).toMatch(/^NVDA 10-K filed 2025-02-26 against 2024-02-21: \d+ material change/);
    // Fiscal 2025 dropped the risk factor on NVIDIA's indebtedness: a removed, material change quoting the prior filing.
    const removed = body.changes.find((c: Json) => c.change_type === "removed");
    expect(removed).toMatchObject({ section: "risk_factors", materiality: "material", direction: "decreased", current_text: null });
    expect(removed.topic).toMatch(/^Our indebtedness could adversely affect/);
    // The export-control risk factor was rewritten and names export licenses more often: material.
    const exports = body.changes.find((c: Json) => /^We are subject to complex laws/.test(c.topic));
    expect(exports).toMatchObject({ materiality: "material", change_type: "modified" });
    for (const c of body.changes) {
      expect((c.prior_text ?? "").length).toBeLessThanOrEqual(600);
      expect((c.current_text ?? "").length).toBeLessThanOrEqual(600);
    }
  });

  it("serves the latest 10-K delta without charging when EDGAR lists a newer 10-K than the one extracted", async () => {
    const { status, body } = await run!.paid(api!, `${PATH}?ticker=nvda&form=10-K`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ accession_number: FY2025, prior_accession_number: FY2024, freshness: { superseded: true, newest_same_form: { accession_number: "0001045810-26-000021", filing_date: "2026-02-25" } } });
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "superseded" });
  });

  it("answers what it cannot serve with a clear 4xx and charges nothing", async () => {
    const before = (await run!.paid(api!, `${PATH}?accession=${FY2025}`)).body.billing.credits_remaining;
    const cases: [string, number, string][] = [
      [`${PATH}?ticker=XYZ`, 404, "unknown_ticker"],
      [`${PATH}?ticker=NVDA&form=10-Q`, 404, "no_delta"],
      [`${PATH}?accession=0000000000-25-000001`, 404, "unknown_accession"],
      [`${PATH}?accession=${FY2024}`, 404, "no_delta"],
      [`${PATH}`, 400, "invalid_query"],
      [`${PATH}?accession=${FY2025}&form=10-K`, 400, "invalid_query"],
      [`${PATH}?ticker=NVDA&form=8-K`, 400, "invalid_query"],
    ];
    for (const [path, status, error] of cases) {
      const answer = await run!.paid(api!, path);
      expect({ path, status: answer.status, error: answer.body.error, ok: answer.body.ok }).toEqual({ path, status, error, ok: false });
    }
    const after = (await run!.paid(api!, `${PATH}?accession=${FY2025}`)).body.billing.credits_remaining;
    expect(after).toBe(before - 1);
  });
});

describe("GET /api/preview/sec/filings/guidance-delta", () => {
  it("shows the summary of the same delta and no change, quote or figure", async () => {
    const res = await fetch(`${api!.base}/api/preview/sec/filings/guidance-delta?accession=${FY2025}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    const full = (await run!.paid(api!, `${PATH}?accession=${FY2025}`)).body;
    expect(body).toMatchObject({ ok: true, preview: true, ticker: "NVDA", accession_number: FY2025, quotes: "redacted", materiality_summary: full.materiality_summary });
    expect(body.changes).toBeUndefined();
    expect(body.rate_limit).toMatchObject({ limit: 10, remaining: 9 });
    expect(JSON.stringify(body)).not.toContain(full.changes[0].current_text ?? full.changes[0].prior_text);
  });
});
