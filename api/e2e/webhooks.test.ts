/**
 * Webhook delivery across processes: a worker process killed with SIGKILL in the middle of delivering loses
 * nothing — a second worker process completes every message, and the receiver sees every webhook-id, with
 * duplicates (the messages in flight at the kill) only under the same id and the same body.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { seedDeliveries, seedWatch } from "../webhooks/testing/seed.ts";

const RUN_WORKER = fileURLToPath(new URL("../webhooks/testing/run-worker.ts", import.meta.url));
const MESSAGES = 300;

let temp: TempDatabase;
let receiver: Server;
let port = 0;
const children: ChildProcess[] = [];
/** Every request the receiver got: webhook-id and body. */
const received: { id: string; body: string }[] = [];

beforeAll(async () => {
  temp = await openTempDatabase();
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    // Slow answers keep many deliveries in flight, so the kill lands mid-delivery.
    req.on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), body });
      setTimeout(() => res.writeHead(200).end("ok"), 40);
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  port = (receiver.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  receiver?.closeAllConnections();
  await new Promise<void>((ok) => (receiver ? receiver.close(() => ok()) : ok()));
  await temp?.close();
});

/** Start a worker process; resolves once it prints `ready`, rejects at once if it exits first. */
function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", RUN_WORKER], {
    env: { ...process.env, DATABASE_URL: temp.url, WATCHES_ALLOW_PRIVATE_CALLBACKS: "1", WORKER_CONCURRENCY: "16", WORKER_LEASE_MS: "2000", WORKER_TIMEOUT_MS: "1000", WORKER_POLL_MS: "100" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      if (c.toString().includes("ready")) resolve(child);
    });
    child.once("exit", (code, signal) => reject(new Error(`worker exited (${code ?? signal}) before ready: ${stderr}`)));
  });
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

describe("webhook delivery survives kill -9", () => {
  it("a second worker completes what a killed one left; every id arrives, duplicates only under the same id", async () => {
    const { watchId } = await seedWatch(temp.db, `http://127.0.0.1:${port}/hook`);
    const ids = await seedDeliveries(temp.db, watchId, MESSAGES);
    const first = await startWorker();
    await until(() => received.length >= 40, "the first deliveries");
    first.kill("SIGKILL");
    await new Promise<void>((ok) => (first.exitCode !== null || first.signalCode !== null ? ok() : first.once("exit", () => ok())));
    const seenAtKill = received.length;
    expect(seenAtKill).toBeLessThan(MESSAGES);

    const second = await startWorker();
    await until(
      async () => (await temp.db.query(`SELECT 1 FROM webhook_deliveries WHERE watch_id = $1 AND state = 'delivered'`, [watchId])).rowCount === MESSAGES,
      "every message delivered",
    );
    second.kill("SIGTERM");
    await new Promise<void>((ok) => (second.exitCode !== null ? ok() : second.once("exit", () => ok())));

    const byId = new Map<string, string>();
    for (const { id, body } of received) {
      const earlier = byId.get(id);
      if (earlier !== undefined) expect(body, `duplicate ${id} carries the same body`).toBe(earlier);
      byId.set(id, body);
      expect(JSON.parse(body).ref, "the body belongs to its webhook-id").toBe(id);
    }
    expect([...byId.keys()].sort()).toEqual([...ids].sort());
    // Only what the killed worker had in flight (at most its concurrency, 16) may arrive twice.
    expect(received.length - MESSAGES).toBeLessThanOrEqual(16);
    const { rows } = await temp.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE state <> 'delivered'`);
    expect(Number(rows[0]!.n)).toBe(0);
  }, 120_000);
});
