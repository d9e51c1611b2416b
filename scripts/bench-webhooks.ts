/**
 * `npm run bench:webhooks`: webhook delivery throughput. In a fresh embedded Postgres (or DATABASE_URL) it
 * inserts N pending outbox rows (as watch evaluation would), runs the delivery worker against a local receiver
 * (private callbacks allowed for it, as WATCHES_ALLOW_PRIVATE_CALLBACKS=1 does), and prints deliveries per
 * second from the first claim to the last row settled, the attempt latency, and `lost` (rows not delivered plus
 * ids the receiver never saw; must be 0).
 *
 * Env: BENCH_DELIVERIES (default 5000), BENCH_CONCURRENCY (worker concurrency, default 64).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { openDatabase } from "../api/state/database.ts";
import { openTempDatabase, type TempDatabase } from "../api/state/testing/temp-database.ts";
import type { Database } from "../api/state/types.ts";
import { seedDeliveries, seedWatch } from "../api/webhooks/testing/seed.ts";
import { startDeliveryWorker } from "../api/webhooks/worker.ts";

const count = Number(process.env.BENCH_DELIVERIES ?? 5000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);

let temp: TempDatabase | undefined;
let db: Database;
if (process.env.DATABASE_URL) db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 20 });
else {
  temp = await openTempDatabase();
  db = temp.db;
}
const seen = new Set<string>();
let requests = 0;
const receiver = createServer((req, res) => {
  requests++;
  seen.add(String(req.headers["webhook-id"]));
  req.resume();
  req.on("end", () => res.writeHead(204).end());
});
await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
const port = (receiver.address() as AddressInfo).port;

try {
  const { watchId } = await seedWatch(db, `http://127.0.0.1:${port}/hook`);
  const ids: string[] = [];
  for (let done = 0; done < count; done += 1000) ids.push(...(await seedDeliveries(db, watchId, Math.min(1000, count - done))));
  const latencies: number[] = [];
  let settled = 0;
  let allSettled!: () => void;
  const finished = new Promise<void>((ok) => (allSettled = ok));
  const started = performance.now();
  const worker = startDeliveryWorker(db, {
    allowPrivate: true,
    concurrency,
    pollMs: 50,
    onError: (error) => process.stderr.write(`bench-webhooks: ${error instanceof Error ? error.message : String(error)}\n`),
    onAttempt: ({ outcome }) => {
      latencies.push(outcome.latencyMs);
      if (outcome.delivered && ++settled === count) allSettled();
    },
  });
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE watch_id = $1 AND state <> 'delivered'`, [watchId]);
  const notDelivered = Number(rows[0]!.n);
  const unseen = ids.filter((id) => !seen.has(id)).length;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  console.log(`bench:webhooks  ${count} deliveries, worker concurrency ${concurrency}, ${db.kind} Postgres, local receiver`);
  console.log(`  throughput     ${Math.round(count / seconds)} deliveries/s (${seconds.toFixed(2)} s)`);
  console.log(`  attempt ms     p50 ${pct(50)}  p99 ${pct(99)}  max ${pct(100)}`);
  console.log(`  requests       ${requests} (duplicates ${requests - seen.size})`);
  console.log(`  lost           ${notDelivered + unseen}`);
  if (notDelivered + unseen > 0) process.exitCode = 1;
} finally {
  receiver.closeAllConnections();
  await new Promise<void>((ok) => receiver.close(() => ok()));
  if (temp) await temp.close();
  else await db.close();
}
