/**
 * `npm run bench:premium`: what billing costs a premium call. Starts api/billing/bench/server.ts (an embedded
 * Postgres, one funded token, the premium routing route billed on one port and under PREMIUM_BILLING=off on
 * another). At each level (1 and 16 connections on one token) it first warms both paths at that concurrency
 * (BENCH_WARMUP seconds each, not measured: the code a level runs is compiled before its first paid run, so
 * that run does not pay the JIT's warm-up for the off runs after it), then runs autocannon in paired rounds
 * (paid, then off; BENCH_ROUNDS of them). It prints, as medians of the rounds: requests/s, mean/p50/p99
 * latency, paid/off throughput, the mean latency a paid call adds, how many paid calls shared each commit, the
 * Node server process's CPU time per request (which the machine's other load moves far less than req/s), the
 * main thread's busy time per request (the event loop's active time: at 16 connections both servers are bound
 * by it, so paid/off throughput follows its ratio) and the main thread's own CPU time per request (Linux: the
 * busy time minus the time it was ready but not running, or blocked), and the server's resident memory after
 * the runs. The ratio and the added latency are the medians of each round's own (a round's two runs are
 * neighbours in time, so the machine's drifts move both alike), printed beside every round's figure. Each
 * level also prints its CPU budget per request on the whole machine (every core and process, from /proc/stat)
 * beside the three parts of it the benchmark itself runs: the Node server, the embedded Postgres (every process
 * under the server) and this script's load generator. When the machine's cores are all busy, throughput
 * follows that budget, not the main thread's alone. Last, the same two apps are called in the server process
 * without HTTP (16 calls at a time, A B A B): the main-thread time the billing wrapper itself adds per call,
 * apart from sockets and the load generator.
 * Snapshots: a fresh replay of the feeds the route reads, in a temp folder (removed at the end), so every paid
 * call is charged; SNAPSHOTS_DIR overrides it (stale snapshots make every paid call free: no commit at all).
 * Env: BENCH_DURATION (seconds per run, default 3), BENCH_ROUNDS (paired rounds per level, default 5),
 * BENCH_WARMUP (seconds per path and level, default 2), BENCH_LEVELS (default "1,16"), SNAPSHOTS_DIR,
 * BENCH_NODE_ARGS (extra Node flags for the server process, space-separated, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { feeds } from "../pipelines/feeds/index.ts";
import { runFeeds } from "../pipelines/runner/run-feeds.ts";
import { median } from "./lib/median.ts";
import { cpuSpentMs, descendantsCpuMs, machineBusyMs, processCpuMs } from "./lib/process-stats.ts";

const ROOT = resolve(import.meta.dirname, "..");
// Fresh snapshots (a replay of the feeds the route reads), so paid calls are charged, not served free as stale.
const snapshotsDir = process.env.SNAPSHOTS_DIR ? resolve(process.env.SNAPSHOTS_DIR) : await mkdtemp(join(tmpdir(), "agentfeed-bench-premium-"));
if (!process.env.SNAPSHOTS_DIR) {
  await runFeeds({ feeds: { pricing: feeds.pricing, benchmarks: feeds.benchmarks, status: feeds.status }, snapshotsDir, replayDir: join(ROOT, "pipelines/fixtures") });
}
const seconds = Number(process.env.BENCH_DURATION ?? 3);
const rounds = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 5)));
const warmup = Number(process.env.BENCH_WARMUP ?? 2);
const levels = (process.env.BENCH_LEVELS ?? "1,16").split(",").map(Number);
const query = "/api/premium/routing?task=code&top_n=5";

const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "api/billing/bench/server.ts", snapshotsDir], {
  cwd: ROOT,
  env: { ...process.env, RECEIPT_SIGNING_KEY: process.env.RECEIPT_SIGNING_KEY || "11".repeat(32) },
  stdio: ["ignore", "pipe", "inherit"],
});
const { paidPort, offPort, token } = await new Promise<{ paidPort: number; offPort: number; token: string }>((ok, fail) => {
  child.stdout!.once("data", (c: Buffer) => ok(JSON.parse(c.toString().split("\n")[0]!)));
  child.once("exit", (code) => fail(new Error(`bench server exited with ${code}`)));
});


interface Run {
  /** The Node server process's CPU time per request in µs (Postgres not included). */
  cpuUs: number | null;
  /** The server's main-thread (event loop) busy time per request in µs. */
  loopUs: number;
  /** The server's main thread's CPU time per request in µs (Linux; null elsewhere). */
  mainCpuUs: number | null;
  /** CPU time per request in µs of the embedded Postgres (every process under the server), of this script (the
   * load generator) and of the whole machine (every core, every process). */
  postgresUs: number | null;
  loadUs: number;
  machineUs: number | null;
  rps: number;
  mean: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function run(port: number, connections: number, headers: Record<string, string>): Promise<Run> {
  const before = processCpuMs(child.pid);
  const mainBefore = processCpuMs(child.pid, child.pid);
  const loopBefore = (await stats()).loopBusyMs;
  const pgBefore = descendantsCpuMs(child.pid);
  const machineBefore = machineBusyMs();
  const loadBefore = process.cpuUsage();
  const r = await autocannon({ url: `http://127.0.0.1:${port}${query}`, connections, duration: seconds, headers });
  const load = process.cpuUsage(loadBefore);
  const machineAfter = machineBusyMs();
  const pgAfter = descendantsCpuMs(child.pid);
  const loopAfter = (await stats()).loopBusyMs;
  const after = processCpuMs(child.pid);
  const mainAfter = processCpuMs(child.pid, child.pid);
  const perRequest = (a: number | null, b: number | null) =>
    a !== null && b !== null && r.requests.total > 0 ? ((b - a) * 1000) / r.requests.total : null;
  const loopUs = r.requests.total > 0 ? ((loopAfter - loopBefore) * 1000) / r.requests.total : 0;
  const loadUs = r.requests.total > 0 ? (load.user + load.system) / r.requests.total : 0;
  return {
    cpuUs: perRequest(before, after),
    loopUs,
    mainCpuUs: perRequest(mainBefore, mainAfter),
    postgresUs: perRequest(0, cpuSpentMs(pgBefore, pgAfter)),
    loadUs,
    machineUs: perRequest(machineBefore, machineAfter),
    rps: r.requests.average,
    mean: r.latency.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
  };
}

/** The median of each figure over a level's paid or off runs (one disturbed run does not move it as it moves a mean). */
function middleOf(runs: Run[]): Run {
  const mid = (f: (r: Run) => number) => median(runs.map(f));
  const known = (f: (r: Run) => number | null) => (runs.every((r) => f(r) !== null) ? mid((r) => f(r)!) : null);
  return {
    cpuUs: known((r) => r.cpuUs),
    loopUs: mid((r) => r.loopUs),
    mainCpuUs: known((r) => r.mainCpuUs),
    postgresUs: known((r) => r.postgresUs),
    loadUs: mid((r) => r.loadUs),
    machineUs: known((r) => r.machineUs),
    rps: mid((r) => r.rps),
    mean: mid((r) => r.mean),
    p50: mid((r) => r.p50),
    p99: mid((r) => r.p99),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
  };
}

const stats = async () => (await (await fetch(`http://127.0.0.1:${paidPort}/bench/stats`)).json()) as { commits: number; settled: number; rssMb: number; loopBusyMs: number };
const auth = { authorization: `Bearer ${token}` };
/** A figure in whole µs, or "?" where it could not be read. */
const us = (v: number | null) => (v === null ? "?" : `${Math.round(v)}`);
const fmt = (name: string, r: Run) =>
  `${name.padEnd(10)}${Math.round(r.rps).toString().padStart(8)}  ${r.mean.toFixed(2).padStart(7)} ${r.p50.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)}  ${String(r.non2xx).padStart(7)}  ${String(r.cpuUs === null ? "-" : Math.round(r.cpuUs)).padStart(10)}  ${String(Math.round(r.loopUs)).padStart(11)}  ${String(r.mainCpuUs === null ? "-" : Math.round(r.mainCpuUs)).padStart(15)}\n`;

try {
  process.stdout.write(`bench:premium — ${query}, autocannon ${seconds} s per run, ${rounds} rounds of paid then PREMIUM_BILLING=off per level; figures are medians of the rounds\n`);
  // Warm both paths (JIT, pool, key) before measuring.
  for (let i = 0; i < 50; i++) {
    await fetch(`http://127.0.0.1:${offPort}${query}`);
    await fetch(`http://127.0.0.1:${paidPort}${query}`, { headers: auth });
  }
  const summary: string[] = [];
  for (const connections of levels) {
    const paid: Run[] = [];
    const off: Run[] = [];
    // Warm both paths at this concurrency (not measured).
    if (warmup > 0) {
      await autocannon({ url: `http://127.0.0.1:${paidPort}${query}`, connections, duration: warmup, headers: auth });
      await autocannon({ url: `http://127.0.0.1:${offPort}${query}`, connections, duration: warmup });
    }
    const before = await stats();
    for (let round = 0; round < rounds; round++) {
      paid.push(await run(paidPort, connections, auth));
      off.push(await run(offPort, connections, {}));
    }
    const after = await stats();
    const p = middleOf(paid);
    const o = middleOf(off);
    // A round's paid and off runs are neighbours in time, so the machine's drifts move both alike: the level's
    // ratio and added latency are the medians of the rounds' own, printed beside them so the spread shows.
    const ratios = paid.map((r, i) => r.rps / off[i]!.rps);
    const added = paid.map((r, i) => r.mean - off[i]!.mean);
    const perCommit = after.commits > before.commits ? (after.settled - before.settled) / (after.commits - before.commits) : 0;
    process.stdout.write(`\n${connections} connection${connections === 1 ? "" : "s"} (one token)\ncall         req/s  mean ms  p50 ms  p99 ms  non-2xx  CPU µs/req  loop µs/req  main CPU µs/req\n${fmt("paid", p)}${fmt("billing off", o)}`);
    const line = `${connections} conn: paid ${Math.round(p.rps)} req/s vs off ${Math.round(o.rps)} req/s = ${median(ratios).toFixed(2)}× (rounds ${ratios.map((x) => x.toFixed(2)).join(" ")}); paid mean latency +${median(added).toFixed(2)} ms (rounds ${added.map((x) => x.toFixed(2)).join(" ")}); ${perCommit.toFixed(1)} paid calls per commit; Node CPU per request paid ${us(p.cpuUs)} µs vs off ${us(o.cpuUs)} µs; main thread per request paid ${Math.round(p.loopUs)} µs vs off ${Math.round(o.loopUs)} µs busy${p.mainCpuUs === null || o.mainCpuUs === null ? "" : `, ${Math.round(p.mainCpuUs)} µs vs ${Math.round(o.mainCpuUs)} µs on CPU`}`;
    process.stdout.write(`${line}\n`);
    summary.push(line);
    const budget = `${connections} conn: CPU per request on the whole machine paid ${us(p.machineUs)} µs vs off ${us(o.machineUs)} µs (Node server ${us(p.cpuUs)} vs ${us(o.cpuUs)}, Postgres ${us(p.postgresUs)} vs ${us(o.postgresUs)}, load generator ${us(p.loadUs)} vs ${us(o.loadUs)})`;
    process.stdout.write(`${budget}\n`);
    summary.push(budget);
  }
  // The wrapper alone: the same apps called in the server process without HTTP (no sockets, no load generator).
  // A third of a call per ms of one level's paid runs: 4,995 calls per run at the defaults (5 rounds of 3 s).
  const calls = Math.max(500, Math.round(seconds * rounds * 333));
  const inProcess = (await (await fetch(`http://127.0.0.1:${paidPort}/bench/in-process?n=${calls}`)).json()) as Record<"paid" | "off", { loopUs: number; wallUs: number }>;
  const inLine = `in process (no HTTP, 16 calls at a time, ${calls} calls per run, A B A B): main thread per call paid ${Math.round(inProcess.paid.loopUs)} µs vs off ${Math.round(inProcess.off.loopUs)} µs (billing adds ${Math.round(inProcess.paid.loopUs - inProcess.off.loopUs)} µs); wall per call paid ${Math.round(inProcess.paid.wallUs)} µs vs off ${Math.round(inProcess.off.wallUs)} µs`;
  process.stdout.write(`\n${inLine}\n`);
  summary.push(inLine);
  const final = await stats();
  process.stdout.write(`\npaid calls charged through the group commit: ${final.settled} in ${final.commits} commits\n`);
  process.stdout.write(`\nsummary\n${summary.join("\n")}\nserver resident memory after the runs: ${final.rssMb} MB (Node process; Postgres not included)\n`);
} finally {
  child.kill("SIGTERM");
  await new Promise((ok) => child.once("exit", ok));
  if (!process.env.SNAPSHOTS_DIR) await rm(snapshotsDir, { recursive: true, force: true });
}
