/**
 * `npm run bench:premium`: what the billing wrapper costs. Starts api/billing/bench/server.ts (an embedded
 * Postgres, one funded token, the premium routing route paid and the same render unpaid), runs autocannon
 * against both in one run and prints requests/s, p50/p99 and the overhead of a paid call (auth + breakers +
 * hold + handler + commit + Ed25519 receipt) over the bare handler. Env: BENCH_DURATION (seconds, default 5),
 * BENCH_CONNECTIONS (default 10), SNAPSHOTS_DIR (default snapshots/).
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import autocannon from "autocannon";

const ROOT = resolve(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const query = "?task=code&top_n=5";

const child = spawn(process.execPath, ["--import", "tsx", "api/billing/bench/server.ts", resolve(process.env.SNAPSHOTS_DIR ?? "snapshots")], {
  cwd: ROOT,
  env: { ...process.env, RECEIPT_SIGNING_KEY: process.env.RECEIPT_SIGNING_KEY || "11".repeat(32) },
  stdio: ["ignore", "pipe", "inherit"],
});
const { port, token } = await new Promise<{ port: number; token: string }>((ok, fail) => {
  child.stdout!.once("data", (c: Buffer) => ok(JSON.parse(c.toString().split("\n")[0]!)));
  child.once("exit", (code) => fail(new Error(`bench server exited with ${code}`)));
});

async function run(path: string, headers: Record<string, string>) {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections, duration: seconds, headers });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

try {
  process.stdout.write(`autocannon: ${seconds} s each, ${connections} connections\n`);
  // Warm both paths (JIT, pool, key) before measuring.
  await fetch(`http://127.0.0.1:${port}/bench/unpaid/routing${query}`);
  await fetch(`http://127.0.0.1:${port}/api/premium/routing${query}`, { headers: { authorization: `Bearer ${token}` } });
  const unpaid = await run(`/bench/unpaid/routing${query}`, {});
  const paid = await run(`/api/premium/routing${query}`, { authorization: `Bearer ${token}` });
  const row = (name: string, r: typeof paid) =>
    `${name.padEnd(8)}${String(r.rps).padStart(8)}  ${String(r.p50).padStart(6)} ${String(r.p99).padStart(7)}  ${String(r.non2xx).padStart(7)}\n`;
  process.stdout.write(`\ncall      req/s   p50 ms  p99 ms  non-2xx\n${row("unpaid", unpaid)}${row("paid", paid)}`);
  const perCallMs = paid.rps > 0 && unpaid.rps > 0 ? ((1000 * connections) / paid.rps - (1000 * connections) / unpaid.rps).toFixed(2) : "?";
  process.stdout.write(
    `\npaid/unpaid throughput: ${(paid.rps / unpaid.rps).toFixed(2)}; p99 overhead: ${(paid.p99 - unpaid.p99).toFixed(1)} ms; added time per call at this concurrency: ${perCallMs} ms\n`,
  );
} finally {
  child.kill("SIGTERM");
}
