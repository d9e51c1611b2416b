/**
 * A delivery worker in a process of its own, for the crash test and the benchmark:
 * `tsx api/webhooks/testing/run-worker.ts` with DATABASE_URL set; WORKER_CONCURRENCY, WORKER_LEASE_MS,
 * WORKER_TIMEOUT_MS and WORKER_POLL_MS tune it; private callbacks follow WATCHES_ALLOW_PRIVATE_CALLBACKS.
 * Prints `ready` once running; stops cleanly on SIGTERM.
 */
import { loadConfig } from "../../config.ts";
import { openDatabase } from "../../state/database.ts";
import { startDeliveryWorker } from "../worker.ts";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("run-worker: DATABASE_URL is not set");
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const concurrency = num("WORKER_CONCURRENCY", 64);
const db = await openDatabase({ databaseUrl, poolSize: Math.min(20, concurrency + 2) });
const worker = startDeliveryWorker(db, {
  allowPrivate: loadConfig().allowPrivateCallbacks,
  concurrency,
  leaseMs: num("WORKER_LEASE_MS", 60_000),
  timeoutMs: num("WORKER_TIMEOUT_MS", 5000),
  pollMs: num("WORKER_POLL_MS", 200),
  onError: (error) => process.stderr.write(`run-worker: ${error instanceof Error ? error.message : String(error)}\n`),
});
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void worker.stop().then(async () => {
    await db.close();
    process.exit(0);
  });
});
