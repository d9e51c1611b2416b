/**
 * `npm run bench:warehouse`: premium latency over a year of warehouse history. Generates a synthetic warehouse
 * (every declared table, 365 days ending today, 500 models; ids, sources and the folder labelled synthetic; in
 * a temp folder removed at the end, never served as data) beside a copy of the bundled snapshot bodies, starts
 * the API on it as a child process (PREMIUM_BILLING=off, on a throwaway Postgres holding a synthetic year of x402
 * settlements to the synthetic registry's wallets, served with X402_INDEX=read), and prints p50/p99 at one
 * connection for every premium GET route of the registry (series — a path with /series or /velocity, and the x402
 * publisher rollup — asked for 90 days, rotating over subjects; the others at their example), first each distinct request
 * once in turn (computed), then repeated under autocannon, then the server's resident memory.
 * Targets: every series p99 ≤ 20 ms; RSS ≤ 400 MB.
 * Env: BENCH_DURATION (seconds per endpoint, default 5), BENCH_DAYS (default 365), BENCH_MODELS (default 500),
 * BENCH_WAREHOUSE_DIR (a folder whose name says synthetic: the warehouse is generated there once, kept and reused),
 * BENCH_SETTLEMENTS_PER_DAY (synthetic x402 settlements per day over all publishers, default 1000).
 */
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { DuckDBInstance } from "@duckdb/node-api";
import { WAREHOUSE_TABLES, type WarehouseColumn, type WarehouseTable } from "../pipelines/contract/warehouse-tables.ts";
import { routes } from "../api/registry/index.ts";
import { openTempDatabase, type TempDatabase } from "../api/state/testing/temp-database.ts";
import type { Database } from "../api/state/types.ts";
import { refreshDailyTotals } from "../api/x402-index/indexer.ts";
import { spawnApi, type SpawnedApi } from "../api/testing/spawn-api.ts";
import { addDays } from "../api/verdicts/history-range.ts";
import { processMemoryMb } from "./lib/process-stats.ts";

const ROOT = resolve(import.meta.dirname, "..");
const int = (name: string, fallback: number, max: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} must be an integer 1..${max}, got ${process.env[name]}`);
  return n;
};
const seconds = int("BENCH_DURATION", 5, 600);
const days = int("BENCH_DAYS", 365, 3660);
const models = int("BENCH_MODELS", 500, 100_000);
const settlementsPerDay = int("BENCH_SETTLEMENTS_PER_DAY", 1000, 1_000_000);
/** The synthetic registry's publishers (x402_publishers_daily below): domain i·8, wallet i + 1. */
const PUBLISHERS = 12;
const publisherDomain = (i: number) => `synthetic-${String((i % PUBLISHERS) * 8).padStart(3, "0")}.example`;
const PROVIDERS = 20;
const BENCHMARKS = ["synthetic-gpqa", "synthetic-mmlu", "synthetic-math", "synthetic-humaneval", "synthetic-swe"];
const today = new Date().toISOString().slice(0, 10);
const start = addDays(today, -(days - 1));

/** A synthetic table: the dimensions crossed with every day (`d`: day index, `date`: its DATE) and one SQL expression per column. */
interface Generator {
  /** Named ranges crossed with the days, e.g. { m: 500, s: 2 }. */
  dims: Record<string, number>;
  columns: Record<string, string>;
  /** Which days have rows (SQL over `d`, the day index), e.g. "d % 7 = 0" for a weekly table; default every day. */
  days?: string;
}

const modelId = "'synthetic/model-' || lpad(CAST(m AS VARCHAR), 4, '0')";
const providerOf = (v: string) => `'synthetic-provider-' || lpad(CAST(${v} AS VARCHAR), 2, '0')`;
// A deterministic pseudo-random number in [0, 1) from integers (no random(): the same year every run).
const noise = (...parts: string[]) => `(hash(${parts.join(", ")}) % 1000000) / 1000000.0`;

/** Realistic shapes for the tables the series read; any other declared table gets {@link genericGenerator}. */
const GENERATORS: Record<string, Generator> = {
  model_prices: {
    dims: { m: models, s: 2 },
    columns: {
      date: "date",
      provider: providerOf("m % 20"),
      model_id: modelId,
      // A price that steps down every ~60 days, the aggregator a little off the curated one.
      input_per_1m: `round((1 + m % 30) * (1.0 - 0.1 * ((d + m) // 60 % 4)) * (CASE WHEN s = 0 THEN 1.0 ELSE 0.97 END), 4)`,
      output_per_1m: `round(4 * (1 + m % 30) * (1.0 - 0.1 * ((d + m) // 60 % 4)), 4)`,
      context_window: "CAST(8192 * (1 + m % 16) AS BIGINT)",
      source: "CASE WHEN s = 0 THEN 'synthetic-curated' ELSE 'synthetic-aggregator' END",
      source_url: "'synthetic://pricing'",
      observed_at: "CAST(date AS TIMESTAMP) + INTERVAL 3 HOUR + s * INTERVAL 1 MINUTE",
    },
  },
  // The hub's three top-30 listings; one id enters and one leaves each listing every day.
  modelhub_daily: {
    dims: { k: 3, r: 30 },
    columns: {
      date: "date",
      kind: "CASE k WHEN 0 THEN 'model' WHEN 1 THEN 'dataset' ELSE 'space' END",
      id: "'synthetic/hub-' || k || '-' || lpad(CAST((r + d) % 60 AS VARCHAR), 3, '0')",
      rank: "CAST(r + 1 AS BIGINT)",
      downloads: "CASE WHEN k = 2 THEN NULL ELSE CAST(1000000 - r * 20000 + d * 50 + (hash(r, d) % 997) AS BIGINT) END",
      likes: "CAST(5000 - r * 100 + d + (hash(k, r, d) % 89) AS BIGINT)",
    },
  },
  // The weekly crawl of 104 domains (the last day of the year among the crawl days), 14 AI crawlers each.
  web_readiness_daily: {
    dims: { w: 104 },
    days: `d % 7 = ${(days - 1) % 7}`,
    columns: {
      date: "date",
      domain: "'synthetic-' || lpad(CAST(w AS VARCHAR), 3, '0') || '.example'",
      sector: "['ai-lab', 'news-media', 'developer-tools', 'cloud-infra', 'commerce', 'finance-payments', 'reference-education', 'saas-productivity'][w % 8 + 1]",
      robots_status: "CASE WHEN w % 25 = 0 THEN 'unreachable' ELSE 'present' END",
      llms_txt: "CASE WHEN (w + d // 7) % 5 = 0 THEN 'present' ELSE 'absent' END",
      llms_txt_bytes: "CASE WHEN (w + d // 7) % 5 = 0 THEN CAST(1000 + w * 10 AS BIGINT) ELSE NULL END",
      ai_txt: "CASE WHEN w % 9 = 0 THEN 'present' ELSE 'absent' END",
      agent_json: "'absent'",
      openapi: "CASE WHEN w % 13 = 0 THEN 'present' ELSE 'absent' END",
      x402: "CASE WHEN w % 31 = 0 THEN 'present' ELSE 'absent' END",
    },
  },
  web_bot_access_daily: {
    dims: { w: 104, b: 14 },
    days: `d % 7 = ${(days - 1) % 7}`,
    columns: {
      date: "date",
      domain: "'synthetic-' || lpad(CAST(w AS VARCHAR), 3, '0') || '.example'",
      bot: "'SyntheticBot' || b",
      access: "['allowed', 'blocked', 'partial', 'allowed'][(w + b + d // 7) % 4 + 1]",
    },
  },
  // A dozen crawled domains naming payee wallets in their x402 discovery, weekly.
  x402_publishers_daily: {
    dims: { w: PUBLISHERS },
    days: `d % 7 = ${(days - 1) % 7}`,
    columns: {
      date: "date",
      domain: "'synthetic-' || lpad(CAST(w * 8 AS VARCHAR), 3, '0') || '.example'",
      pay_to: "'0x' || lpad(CAST(w + 1 AS VARCHAR), 40, '0')",
      network: "'eip155:8453'",
      source: "CASE WHEN w % 3 = 0 THEN 'both' ELSE 'discovery' END",
    },
  },
  x402_registry_daily: {
    dims: { w: PUBLISHERS },
    days: `d % 7 = ${(days - 1) % 7}`,
    columns: {
      date: "date",
      domain: "'synthetic-' || lpad(CAST(w * 8 AS VARCHAR), 3, '0') || '.example'",
      status: "CASE WHEN (w + d) % 11 = 0 THEN 'error' ELSE 'ok' END",
      paid_endpoints: "CASE WHEN (w + d) % 11 = 0 THEN NULL ELSE CAST(1 + (w * 7 + d) % 40 AS BIGINT) END",
      free_endpoints: "CASE WHEN (w + d) % 11 = 0 THEN NULL ELSE CAST((w + d) % 5 AS BIGINT) END",
      federated: "CASE WHEN (w + d) % 11 = 0 THEN NULL ELSE w % 4 = 0 END",
      networks: "CASE WHEN (w + d) % 11 = 0 THEN NULL WHEN w % 3 = 0 THEN 'eip155:8453,eip155:84532' ELSE 'eip155:8453' END",
      agent_fair_trade: "CASE WHEN (w + d) % 11 = 0 THEN NULL ELSE w % 5 = 0 END",
    },
  },
  // The security cohort (36 packages) once a day, and about three advisories per package.
  package_versions_daily: {
    dims: { p: 36 },
    columns: {
      date: "date",
      ecosystem: "CASE WHEN p < 16 THEN 'npm' ELSE 'PyPI' END",
      package: "'synthetic-package-' || lpad(CAST(p AS VARCHAR), 2, '0')",
      latest_version: "CAST(1 + (d + p) // 120 AS VARCHAR) || '.' || CAST((d + p) % 120 // 10 AS VARCHAR) || '.0'",
      latest_major: "CAST(1 + (d + p) // 120 AS VARCHAR)",
      versions: "CAST(20 + d // 10 AS BIGINT)",
      latest_deprecated: "false",
    },
  },
  package_advisories_daily: {
    dims: { p: 36, a: 3 },
    columns: {
      date: "date",
      ecosystem: "CASE WHEN p < 16 THEN 'npm' ELSE 'PyPI' END",
      package: "'synthetic-package-' || lpad(CAST(p AS VARCHAR), 2, '0')",
      advisory_id: "'SYNTHETIC-' || lpad(CAST(p * 3 + a AS VARCHAR), 4, '0')",
      kind: "'vulnerability'",
      severity: "['critical', 'high', 'medium'][a + 1]",
      cve_ids: "'CVE-2026-' || lpad(CAST(p * 3 + a AS VARCHAR), 4, '0')",
      on_kev: "a = 0 AND p % 9 = 0",
      published: "CAST(date AS TIMESTAMP) - INTERVAL 400 DAY",
      withdrawn: "false",
    },
  },
  // 200 new preprints a day, each listed on the day of its first submission; terms drawn from a 400-word
  // vocabulary whose slice moves with the day (so some terms rise), affiliations from 60 synthetic labs.
  preprints_daily: {
    dims: { n: 200 },
    columns: {
      date: "date",
      preprint_id: "'synthetic-' || strftime(date, '%y%m') || '.' || lpad(CAST(d AS VARCHAR), 3, '0') || lpad(CAST(n AS VARCHAR), 3, '0')",
      published: "date",
      title: "'Synthetic preprint ' || d || '-' || n",
      summary: "'A synthetic abstract for the warehouse benchmark.'",
      primary_category: "['cs.AI', 'cs.LG', 'cs.CL', 'cs.CV'][n % 4 + 1]",
      authors: "'Synthetic Author ' || n",
      affiliations: "'Synthetic Lab ' || lpad(CAST(n % 60 AS VARCHAR), 2, '0') || '; Synthetic University ' || lpad(CAST((n * 7) % 40 AS VARCHAR), 2, '0')",
      affiliation_types: "'industry; academia'",
      affiliation_type: "'mixed'",
      subfield_tag: `['agents', 'llm-training', 'vision', 'efficiency', 'retrieval', 'rl', 'theory'][n % 7 + 1]`,
      subfield_rule: "'synthetic: generated'",
      methodology_bucket: `['eval-benchmark', 'training-recipe', 'new-architecture', 'empirical-study'][n % 4 + 1]`,
      methodology_rule: "'synthetic: generated'",
      milestone: "n % 50 = 0",
      milestone_reasoning: "CASE WHEN n % 50 = 0 THEN 'milestone: synthetic' ELSE NULL END",
      keywords: "array_to_string(list_transform(range(12), i -> 'term' || ((n * 13 + i * 31 + d // 30 * 7) % 400)), '|')",
      url: "'synthetic://preprint/' || d || '-' || n",
    },
  },
  aggregator_models_daily: {
    dims: { m: models },
    columns: {
      date: "date",
      model_id: modelId,
      namespace: "'synthetic-ns-' || lpad(CAST(m % 25 AS VARCHAR), 2, '0')",
      input_per_1m: "round(1 + m % 30 + 0.01 * (d % 7), 4)",
      output_per_1m: "round(4 * (1 + m % 30), 4)",
      context_length: "CAST(8192 * (1 + m % 16) AS BIGINT)",
    },
  },
  benchmark_scores: {
    dims: { m: models, b: BENCHMARKS.length },
    columns: {
      date: "date",
      benchmark: `[${BENCHMARKS.map((b) => `'${b}'`).join(", ")}][b + 1]`,
      model_id: modelId,
      score: `round(20 + 70 * ${noise("m", "b")} + d // 90, 1)`,
      source: "'synthetic://benchmarks'",
      reported_date: "date - INTERVAL 10 DAY",
    },
  },
  gpu_prices: {
    dims: { g: 10, k: 4, t: 2 },
    columns: {
      date: "date",
      gpu: "'synthetic-gpu-' || g",
      marketplace: "'synthetic-market-' || k",
      type: "CASE WHEN t = 0 THEN 'on_demand' ELSE 'spot' END",
      min_usd: "round(0.5 + g * 0.3, 3)",
      median_usd: "round(0.8 + g * 0.3, 3)",
      max_usd: "round(1.2 + g * 0.3, 3)",
      offers: "CAST(5 + (d + g + k) % 40 AS BIGINT)",
    },
  },
  mcp_registry_daily: {
    dims: {},
    columns: { date: "date", count: "CAST(1000 + 3 * d AS BIGINT)", delta_1d: "CASE WHEN d = 0 THEN NULL ELSE CAST(3 AS BIGINT) END" },
  },
  // Probes every 15 minutes, status pages every 2 minutes, per provider: the feeds' own cadences.
  probe_samples: {
    dims: { p: PROVIDERS, q: 96 },
    columns: {
      ts: "CAST(date AS TIMESTAMP) + q * INTERVAL 15 MINUTE",
      date: "date",
      provider: providerOf("p"),
      url: "'synthetic://probe/' || p",
      status: `CASE WHEN ${noise("d", "p", "q")} < 0.02 THEN NULL ELSE CAST(200 AS BIGINT) END`,
      ok: `${noise("d", "p", "q")} >= 0.02`,
      ttfb_ms: `CASE WHEN ${noise("d", "p", "q")} < 0.02 THEN NULL ELSE round(20 + 200 * pow(${noise("q", "p", "d")}, 3), 1) END`,
      total_ms: `CASE WHEN ${noise("d", "p", "q")} < 0.02 THEN NULL ELSE round(40 + 400 * pow(${noise("q", "p", "d")}, 3), 1) END`,
    },
  },
  status_samples: {
    dims: { p: PROVIDERS, q: 720 },
    columns: {
      ts: "CAST(date AS TIMESTAMP) + q * INTERVAL 2 MINUTE",
      date: "date",
      provider: providerOf("p"),
      // An incident of a few hours on some days per provider.
      status: `CASE WHEN (d + p) % 11 = 0 AND q BETWEEN 300 AND 300 + (p % 5) * 30 THEN (CASE WHEN p % 3 = 0 THEN 'down' ELSE 'degraded' END) ELSE 'operational' END`,
      components_total: "CAST(5 AS BIGINT)",
      components_degraded: "CAST(0 AS BIGINT)",
      components_down: "CAST(0 AS BIGINT)",
    },
  },
};

/** Any declared table without a generator: 500 rows a day, unique per key, labelled synthetic. */
function genericGenerator(table: WarehouseTable): Generator {
  const value = (c: WarehouseColumn): string => {
    if (c.name === "date") return "date";
    switch (c.type) {
      case "VARCHAR":
        return `'synthetic-${c.name}-' || lpad(CAST(m AS VARCHAR), 4, '0')`;
      case "BIGINT":
        return "CAST(m * 10 + d AS BIGINT)";
      case "DOUBLE":
        return `round(100 * ${noise("m", "d")}, 3)`;
      case "BOOLEAN":
        return "m % 2 = 0";
      case "DATE":
        return "date";
      case "TIMESTAMPTZ":
        return "CAST(date AS TIMESTAMP) + m * INTERVAL 1 SECOND";
    }
  };
  return { dims: { m: models }, columns: Object.fromEntries(table.columns.map((c) => [c.name, value(c)])) };
}

/** Write every declared table's day files under `<dir>/warehouse/`, typed as declared. */
async function generateWarehouse(dir: string): Promise<Map<string, number>> {
  // One thread: a partitioned COPY then writes exactly one file per day.
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const conn = await instance.connect();
  const counts = new Map<string, number>();
  try {
    await conn.run("SET TimeZone = 'UTC'");
    for (const table of Object.values(WAREHOUSE_TABLES)) {
      const gen = GENERATORS[table.name] ?? genericGenerator(table);
      const missing = table.columns.filter((c) => !(c.name in gen.columns)).map((c) => c.name);
      if (missing.length > 0) throw new Error(`bench: no synthetic value for ${table.name}.${missing.join(", ")}`);
      const from = [`(SELECT d, CAST(DATE '${start}' + CAST(d AS INTEGER) AS DATE) AS date FROM range(${days}) r(d)) days`, ...Object.entries(gen.dims).map(([k, n]) => `range(${n}) ${k}_(${k})`)];
      const select = table.columns.map((c) => `CAST(${gen.columns[c.name]} AS ${c.type}) AS "${c.name}"`).join(", ");
      const staging = join(dir, "staging", table.name);
      await mkdir(join(dir, "staging"), { recursive: true });
      await conn.run(
        `COPY (SELECT ${select} FROM ${from.join(", ")} WHERE ${gen.days ?? "true"} ORDER BY ${table.key.map((k) => `"${k}"`).join(", ")})
         TO '${staging}' (FORMAT parquet, PARTITION_BY (date), WRITE_PARTITION_COLUMNS true)`,
      );
      // DuckDB writes <table>/date=<day>/data_0.parquet; the warehouse layout is <table>/<day>.parquet.
      const folder = join(dir, "warehouse", table.name);
      await mkdir(folder, { recursive: true });
      for (const part of await readdir(staging)) {
        const day = /^date=(\d{4}-\d{2}-\d{2})$/.exec(part)?.[1];
        if (!day) continue;
        const files = await readdir(join(staging, part));
        if (files.length !== 1) throw new Error(`bench: expected one file in ${join(staging, part)}, found ${files.length}`);
        await rename(join(staging, part, files[0]!), join(folder, `${day}.parquet`));
      }
      const rows = (await conn.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM read_parquet('${folder}/*.parquet')`)).getRowObjects()[0]!.n;
      counts.set(table.name, Number(rows));
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
    await rm(join(dir, "staging"), { recursive: true, force: true });
  }
  return counts;
}

/**
 * A synthetic year of x402 settlements in Postgres: `settlementsPerDay` a day spread over the registry's wallets and
 * the hours, amounts from 0.001 to 10 USDC, and an index cursor at the newest block (now), covering the whole year.
 */
async function seedSettlements(db: Database): Promise<number> {
  const token = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
  const hash = (expr: string) => `'0x' || md5(${expr}) || md5('x' || ${expr})`;
  await db.query(
    `INSERT INTO x402_settlements (chain_id, block_number, block_hash, block_time, tx_hash, log_index, token, from_address, to_address, amount_units)
     SELECT 8453, n, ${hash("'b' || n")}, $1::timestamptz + (n * interval '1 day' / $2), ${hash("'t' || n")}, 0, $3,
       '0x' || lpad(to_hex(1000 + n % 5000), 40, '0'), '0x' || lpad((1 + n % ${PUBLISHERS})::text, 40, '0'), 1000 + (n * 7919) % 10000000
     FROM generate_series(0, $4::bigint - 1) n`,
    [`${start}T00:00:00Z`, settlementsPerDay, token, days * settlementsPerDay],
  );
  const last = days * settlementsPerDay;
  await db.query(
    `INSERT INTO x402_index_cursor (chain_id, block_number, block_hash, block_time, first_block, first_block_time) VALUES (8453, $1, $2, now(), 0, $3)`,
    [last, `0x${"ab".repeat(32)}`, `${start}T00:00:00Z`],
  );
  // The daily totals the indexer keeps beside them, for every day of the year.
  await refreshDailyTotals(db, 8453, Array.from({ length: days + 1 }, (_, i) => addDays(start, i)));
  await db.query("ANALYZE x402_settlements");
  await db.query("ANALYZE x402_settlements_daily");
  return last;
}

/** Values the bench gives to a series route's subject parameters (anything else keeps the route's example value). */
function seriesPaths(path: string, example: string | undefined, n: number): string[] {
  const params = new URLSearchParams(example?.split("?")[1] ?? "");
  params.delete("from");
  params.delete("to");
  params.delete("benchmark");
  return Array.from({ length: n }, (_, i) => {
    const q = new URLSearchParams(params);
    if (q.has("model")) q.set("model", `synthetic/model-${String((i * 37) % models).padStart(4, "0")}`);
    if (q.has("provider")) q.set("provider", `synthetic-provider-${String(i % PROVIDERS).padStart(2, "0")}`);
    // The x402 series: every other request one publisher's, the rest the ecosystem's.
    if (path.endsWith("/x402-index/series") && i % 2 === 1) q.set("domain", publisherDomain(i));
    q.set("from", addDays(today, -89));
    q.set("to", today);
    return `${path.replace(":domain", publisherDomain(i))}?${q.toString()}`;
  });
}


async function measure(api: SpawnedApi, paths: string[]): Promise<{ p50: number; p99: number; rps: number; non2xx: number; errors: number }> {
  let i = 0;
  const next = () => paths[i++ % paths.length]!;
  const r = await autocannon({
    url: api.base,
    connections: 1,
    duration: seconds,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: next() }) }],
  });
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, non2xx: r.non2xx, errors: r.errors };
}

// BENCH_WAREHOUSE_DIR keeps the generated folder (and reuses it when it already holds one) for repeated runs.
const kept = process.env.BENCH_WAREHOUSE_DIR ? resolve(process.env.BENCH_WAREHOUSE_DIR) : undefined;
if (kept && !/synthetic/.test(kept)) throw new Error(`BENCH_WAREHOUSE_DIR must name a folder labelled synthetic, got ${kept}`);
const work = kept ?? (await mkdtemp(join(tmpdir(), "agentfeed-synthetic-warehouse-")));
let api: SpawnedApi | undefined;
let postgres: TempDatabase | undefined;
try {
  const snapshotsDir = join(work, "snapshots");
  if (kept && existsSync(join(snapshotsDir, "warehouse"))) {
    process.stdout.write(`bench:warehouse — reusing the synthetic warehouse in ${work}\n`);
  } else {
    // The bundled snapshot bodies (the existing premium endpoints read them); the warehouse is the synthetic one.
    await cp(join(ROOT, "snapshots"), snapshotsDir, { recursive: true, filter: (src) => !src.includes(`${join(ROOT, "snapshots", "warehouse")}`) });
    const t = performance.now();
    const counts = await generateWarehouse(snapshotsDir);
    process.stdout.write(`bench:warehouse — synthetic warehouse of ${days} days (${start}..${today}), ${models} models, in ${((performance.now() - t) / 1000).toFixed(1)} s (${work})\n`);
    for (const [table, n] of counts) process.stdout.write(`  ${table.padEnd(26)} ${n.toLocaleString("en-US").padStart(12)} rows\n`);
  }

  postgres = await openTempDatabase();
  const seeded = performance.now();
  const settlements = await seedSettlements(postgres.db);
  process.stdout.write(`synthetic x402 settlements: ${settlements.toLocaleString("en-US")} over ${days} days to ${PUBLISHERS} publishers, seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s\n`);

  const t = performance.now();
  api = await spawnApi(
    { SNAPSHOTS_DIR: snapshotsDir, DATA_DIR: join(work, "data"), DATABASE_URL: postgres.url, X402_INDEX: "read", PREMIUM_BILLING: "off", PAYMENTS_TEST_CHAIN: "off", RATE_LIMIT_PER_MINUTE: "0" },
    { timeoutMs: 120_000 },
  );
  process.stdout.write(`server up in ${((performance.now() - t) / 1000).toFixed(1)} s (PREMIUM_BILLING=off), RSS ${processMemoryMb(api.child.pid)?.rss ?? "?"} MB\n\n`);

  // Every premium GET of the registry: the series rotate over subjects (90-day windows), the rest call their example.
  const premium = routes.filter((r) => r.tier === "premium" && r.method === "GET" && (!r.path.includes(":") || r.example));
  const isSeries = (path: string) => /\/(series|velocity)(\/|$)|\/x402-index\/publisher\//.test(path);
  const targets = premium.map((r) => ({ name: r.path, series: isSeries(r.path), paths: isSeries(r.path) ? seriesPaths(r.path, r.example, 200) : [r.example ?? r.path] }));
  process.stdout.write(`1 connection, ${seconds} s per endpoint; series asked for 90 days, rotating over 200 subjects\n`);
  process.stdout.write(
    "first: each distinct request once, in turn (computed: nothing of it is memoized yet); repeat: autocannon over the same requests\n" +
      "(routes that declare answerMemo answer repeats from memory; every call is still billed and signed when billing is on)\n",
  );
  process.stdout.write(`${"endpoint".padEnd(46)} ${"first p50".padStart(9)} ${"first max".padStart(9)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"req/s".padStart(7)} ${"non-2xx".padStart(8)}\n`);
  const failures: string[] = [];
  for (const target of targets) {
    const distinct = [...new Set(target.paths)];
    const firstCalls: number[] = [];
    for (const path of distinct) {
      const t0 = performance.now();
      const res = await fetch(api.base + path);
      const text = await res.text();
      firstCalls.push(performance.now() - t0);
      if (res.status !== 200 && firstCalls.length === 1) failures.push(`${target.name}: ${res.status} ${text.slice(0, 200)}`);
    }
    firstCalls.sort((a, b) => a - b);
    const firstP50 = firstCalls[Math.floor(firstCalls.length / 2)]!;
    const firstMax = firstCalls.at(-1)!;
    const m = await measure(api, target.paths);
    const flag = m.p99 > 20 || firstMax > 20 ? "  over the 20 ms target" : "";
    process.stdout.write(
      `${target.name.padEnd(46)} ${firstP50.toFixed(1).padStart(9)} ${firstMax.toFixed(1).padStart(9)} ${m.p50.toFixed(1).padStart(7)} ${m.p99.toFixed(1).padStart(7)} ${Math.round(m.rps).toString().padStart(7)} ${String(m.non2xx + m.errors).padStart(8)}${flag}\n`,
    );
    if (m.non2xx + m.errors > 0) failures.push(`${target.name}: ${m.non2xx} non-2xx, ${m.errors} errors`);
  }
  // A table the reader could not hold is served empty, and its endpoints answer fast and wrong: that fails the run.
  const empty = api.stderr().split("\n").filter((l) => l.includes("serving it empty"));
  for (const line of empty) failures.push(`warehouse: ${line.slice(0, 200)}`);
  const mem = processMemoryMb(api.child.pid);
  process.stdout.write(`\nserver resident memory right after the runs: ${mem?.rss ?? "?"} MB (peak ${mem?.peak ?? "?"} MB; Node process, Postgres not included)\n`);
  // DuckDB's allocator returns freed blocks to the system from a background thread: read the settled figure too.
  await new Promise((r) => setTimeout(r, 5000));
  const settled = processMemoryMb(api.child.pid);
  process.stdout.write(`server resident memory 5 s later: ${settled?.rss ?? "?"} MB (anonymous ${settled?.anon ?? "?"} MB, mapped files ${settled?.file ?? "?"} MB; target ≤ 400 MB)\n`);
  if (failures.length > 0) {
    process.stdout.write(`\nfailed calls:\n${failures.map((f) => `  ${f}`).join("\n")}\n`);
    process.exitCode = 1;
  }
} finally {
  await api?.stop();
  await postgres?.close();
  if (!kept) await rm(work, { recursive: true, force: true });
}
