import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { seedDeliveries, seedWatch } from "./testing/seed.ts";
import { recentDeliveries } from "../watches/store.ts";
import { DROPPED_DELETED, sanitizeError, startDeliveryWorker } from "./worker.ts";

let temp: TempDatabase;
let server: Server;
let port = 0;
/** What the receiver answers per path; each request is recorded. */
const script = new Map<string, number[]>();
const received: { path: string; id: string; headers: IncomingMessage["headers"]; body: string }[] = [];

beforeAll(async () => {
  temp = await openTempDatabase();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ path: req.url ?? "", id: String(req.headers["webhook-id"]), headers: req.headers, body });
      const codes = script.get(req.url ?? "") ?? [];
      res.writeHead(codes.length > 0 ? codes.shift()! : 200).end("ok");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  port = (server.address() as AddressInfo).port;
}, 60_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  await temp?.close();
});

/** Wait until the condition holds, polling the database (bounded). */
async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

const stateOf = async (id: string) =>
  (await temp.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM webhook_deliveries WHERE id = $1`, [id])).rows[0]!;

describe("delivery worker", () => {
  it("retries a receiver that fails twice, then delivers; same webhook-id each time; every attempt recorded", async () => {
    script.set("/flaky", [500, 503]);
    const { watchId, secret } = await seedWatch(temp.db, `http://127.0.0.1:${port}/flaky`);
    const [id] = await seedDeliveries(temp.db, watchId, 1);
    const worker = startDeliveryWorker(temp.db, { allowPrivate: true, pollMs: 100, random: () => 0 });
    try {
      await until(async () => (await stateOf(id!)).state === "delivered", "delivery");
    } finally {
      await worker.stop();
    }
    const hits = received.filter((r) => r.path === "/flaky");
    expect(hits.map((h) => h.id)).toEqual([id, id, id]);
    // Each attempt is signed afresh and verifies with the Standard Webhooks library.
    for (const hit of hits) expect(new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>)).toMatchObject({ watch_id: watchId });
    const { rows } = await temp.db.query<{ attempt: number; status_code: number; error: string | null }>(
      `SELECT attempt, status_code, error FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [id],
    );
    expect(rows).toEqual([
      { attempt: 1, status_code: 500, error: "HTTP 500" },
      { attempt: 2, status_code: 503, error: "HTTP 503" },
      { attempt: 3, status_code: 200, error: null },
    ]);
  });

  it("marks a delivery failed once it is 24 hours old and the attempt fails", async () => {
    script.set("/down", [500]);
    const { watchId } = await seedWatch(temp.db, `http://127.0.0.1:${port}/down`);
    const [id] = await seedDeliveries(temp.db, watchId, 1);
    await temp.db.query(`UPDATE webhook_deliveries SET created_at = now() - interval '25 hours' WHERE id = $1`, [id]);
    const worker = startDeliveryWorker(temp.db, { allowPrivate: true, pollMs: 100 });
    try {
      await until(async () => (await stateOf(id!)).state === "failed", "failure");
    } finally {
      await worker.stop();
    }
    expect(await stateOf(id!)).toEqual({ state: "failed", attempts: 1 });
  });

  it("refuses a private callback when private callbacks are off: no request, the attempt records why", async () => {
    const before = received.length;
    const { watchId } = await seedWatch(temp.db, `http://127.0.0.1:${port}/private`);
    const [id] = await seedDeliveries(temp.db, watchId, 1);
    const worker = startDeliveryWorker(temp.db, { allowPrivate: false, pollMs: 100, random: () => 0.5 });
    try {
      await until(async () => (await stateOf(id!)).attempts >= 1 && (await temp.db.query(`SELECT 1 FROM webhook_attempts WHERE delivery_id = $1`, [id])).rowCount > 0, "an attempt");
    } finally {
      await worker.stop();
    }
    expect(received.length).toBe(before);
    const { rows } = await temp.db.query<{ status_code: number | null; error: string }>(`SELECT status_code, error FROM webhook_attempts WHERE delivery_id = $1`, [id]);
    expect(rows[0]).toMatchObject({ status_code: null });
    expect(rows[0]!.error).toMatch(/^callback_not_public: /);
    expect((await stateOf(id!)).state).toBe("pending");
  });

  it("drops, unsent, what a deleted watch still had queued", async () => {
    const before = received.length;
    const { watchId } = await seedWatch(temp.db, `http://127.0.0.1:${port}/deleted`);
    const [id] = await seedDeliveries(temp.db, watchId, 1);
    await temp.db.query(`UPDATE watches SET status = 'deleted', deleted_at = now() WHERE id = $1`, [watchId]);
    const worker = startDeliveryWorker(temp.db, { allowPrivate: true, pollMs: 100 });
    try {
      await until(async () => (await stateOf(id!)).state === "failed", "the drop");
    } finally {
      await worker.stop();
    }
    expect(received.length).toBe(before);
    // The owner reading the watch sees why: one attempt with no answer and the reason.
    const [delivery] = await recentDeliveries(temp.db, watchId);
    expect(delivery).toMatchObject({ id, state: "failed", attempts: 1, next_attempt_at: null });
    expect(delivery!.attempt_log).toEqual([{ attempt: 1, started_at: expect.any(String), status_code: null, latency_ms: null, error: DROPPED_DELETED }]);
    expect(DROPPED_DELETED).toMatch(/watch deleted/);
  });

  it("delivers a batch larger than its concurrency, each once", async () => {
    const { watchId } = await seedWatch(temp.db, `http://127.0.0.1:${port}/batch`);
    const ids = await seedDeliveries(temp.db, watchId, 120);
    const worker = startDeliveryWorker(temp.db, { allowPrivate: true, pollMs: 100, concurrency: 8 });
    try {
      await until(async () => (await temp.db.query(`SELECT 1 FROM webhook_deliveries WHERE watch_id = $1 AND state = 'delivered'`, [watchId])).rowCount === 120, "the batch");
    } finally {
      await worker.stop();
    }
    const seen = received.filter((r) => r.path === "/batch").map((r) => r.id);
    expect(seen.sort()).toEqual([...ids].sort());
  });
});

describe("sanitizeError", () => {
  it("keeps one printable line of at most 300 characters", () => {
    expect(sanitizeError("a\r\nb\u0000c\u202ed")).toBe("a b c d");
    expect(sanitizeError("x".repeat(1000))).toHaveLength(300);
  });
});
