/**
 * The history series over real HTTP: a server on a replayed snapshots folder (whose feeds write today's
 * warehouse day files) plus earlier days written by the warehouse writer, an embedded Postgres for credits.
 * Paid calls are charged 1 credit with a receipt; a range without data is answered and not charged; bad input
 * is a 4xx JSON error and not charged; a new day file is served once the manifest changes.
 */
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { feeds } from "../../pipelines/feeds/index.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { createCredits } from "../billing/credits.ts";
import { startServer, type RunningServer } from "../server.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { addDays } from "../verdicts/history-range.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";

const ROOT = resolve(import.meta.dirname, "../..");
let temp: TempDatabase | undefined;
let server: RunningServer | undefined;
let snapshotsDir = "";
let token = "";
const today = new Date().toISOString().slice(0, 10);

const price = (date: string, input: number, output: number) => ({
  table: "model_prices",
  key: [...WAREHOUSE_TABLES.model_prices.key],
  rows: [{ date, provider: "openai", model_id: "gpt-4o", input_per_1m: input, output_per_1m: output, context_window: 128000, source: "aggregator", source_url: null, observed_at: `${date}T01:00:00Z` }],
});

beforeAll(async () => {
  snapshotsDir = await mkdtemp(join(tmpdir(), "agentfeed-history-e2e-"));
  // Fresh snapshots (a replay run, so no call is served free as stale); the feeds write today's day files.
  await runFeeds({
    feeds: { pricing: feeds.pricing, benchmarks: feeds.benchmarks, probe: feeds.probe, status: feeds.status },
    snapshotsDir,
    replayDir: join(ROOT, "pipelines/fixtures"),
  });
  await writeWarehouse(snapshotsDir, addDays(today, -5), [price(addDays(today, -5), 5, 20)]);
  temp = await openTempDatabase();
  server = await startServer({
    port: 0,
    host: "127.0.0.1",
    snapshotsDir,
    rateLimitPerMinute: 0,
    trustProxy: null,
    pollMs: 50,
    onWarn: () => {},
    state: { databaseUrl: temp.url, env: { PAYMENTS_TEST_CHAIN: "off" } },
  });
  const credits = createCredits(temp.db);
  const minted = await credits.mintToken(temp.db, { kind: "paid" });
  await credits.grant(temp.db, minted.id, 50, { reason: "purchase", ref: "test:history-series" });
  token = minted.token;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await temp?.close();
  if (snapshotsDir) await rm(snapshotsDir, { recursive: true, force: true });
});

type Json = Record<string, any>;
const get = async (path: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(server!.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Json };
};

describe("history series over HTTP", () => {
  it("pricing: default 30 days ending today, earlier day from the writer, charged 1 credit with a receipt", async () => {
    const { status, body } = await get("/api/premium/history/pricing/series?model=gpt-4o");
    expect(status).toBe(200);
    expect(body.range).toEqual({ from: addDays(today, -29), to: today, days: 30 });
    const byDate = new Map((body.points as Json[]).map((p) => [p.date, p]));
    expect(byDate.get(addDays(today, -5))).toMatchObject({ has_data: true, input: 5, output: 20, blended: 8.75 });
    expect(byDate.get(today)).toMatchObject({ has_data: true });
    expect(byDate.get(addDays(today, -1))).toMatchObject({ has_data: false, input: null, blended: null });
    expect(body.summary.days_with_data).toBe(2);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeTruthy();
  });

  it("benchmarks and providers answer from today's day files", async () => {
    const bench = await get("/api/premium/history/benchmarks/series?model=claude-3-opus");
    expect(bench.status).toBe(200);
    expect(bench.body.series.length).toBeGreaterThan(0);
    expect(bench.body.summary.days_with_data).toBe(1);
    const prov = await get("/api/premium/history/providers/series?provider=openai");
    expect(prov.status).toBe(200);
    const latest = (prov.body.points as Json[]).at(-1)!;
    expect(latest).toMatchObject({ date: today, has_data: true });
    expect(latest.count).toBeGreaterThan(0);
    expect(prov.body.billing.credits_charged).toBe(1);
  });

  it("a range without data is answered and not charged; bad input is a 4xx JSON error and not charged", async () => {
    const empty = await get(`/api/premium/history/pricing/series?model=gpt-4o&from=${addDays(today, -80)}&to=${addDays(today, -60)}`);
    expect(empty.status).toBe(200);
    expect(empty.body.points.every((p: Json) => p.has_data === false && p.blended === null)).toBe(true);
    expect(empty.body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_data_in_range" });
    const long = await get(`/api/premium/history/providers/series?provider=openai&from=${addDays(today, -90)}`);
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ ok: false, error: "range_too_long" });
    const unknown = await get("/api/premium/history/pricing/series?model=no-such-model");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: "unknown_model" });
    const bad = await get("/api/premium/history/benchmarks/series?model=claude-3-opus&from=2026-02-31");
    expect(bad.status).toBe(400);
    // Three charged calls so far (pricing, benchmarks, providers): the no-data call and the errors took nothing.
    expect(empty.body.billing.credits_remaining).toBe(47);
    const again = await get(`/api/premium/history/benchmarks/series?model=claude-3-opus&from=${addDays(today, -80)}&to=${addDays(today, -60)}`);
    expect(again.body.billing).toMatchObject({ credits_charged: 0, credits_remaining: 47, no_charge_reason: "no_data_in_range" });
  });

  it("a day file written while the server runs is served once the manifest changes", async () => {
    const day = addDays(today, -3);
    await writeWarehouse(snapshotsDir, day, [price(day, 1, 1)]);
    const manifest = join(snapshotsDir, "manifest.json");
    const later = new Date(Date.now() + 5000);
    await utimes(manifest, later, later);
    let point: Json | undefined;
    for (let i = 0; i < 100 && !point?.has_data; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const { body } = await get(`/api/premium/history/pricing/series?model=gpt-4o&from=${day}&to=${day}`);
      point = body.points[0];
    }
    expect(point).toMatchObject({ date: day, has_data: true, input: 1, output: 1 });
  });

  it("answers over a pricing snapshot older than its feed's 2 h SLA without charge (stale_data)", async () => {
    const path = join(snapshotsDir, "manifest.json");
    const manifest = JSON.parse(await readFile(path, "utf8")) as { types: Record<string, Json> };
    manifest.types.pricing!.lastSuccess = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await writeFile(path, JSON.stringify(manifest, null, 2));
    const later = new Date(Date.now() + 10_000);
    await utimes(path, later, later);
    let body: Json = {};
    for (let i = 0; i < 100 && body.billing?.no_charge_reason !== "stale_data"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      body = (await get("/api/premium/history/pricing/series?model=gpt-4o")).body;
    }
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
    expect(body.billing.no_charge_detail).toContain("7200 s");
    expect(body.receipt.signed).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
  });
});
