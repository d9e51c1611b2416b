/**
 * Credits stay exact across API processes and crashes: two API server processes on one Postgres server
 * answer 1,000 concurrent paid calls on a token holding 100 credits (exactly 100 are charged), and an API
 * process killed with SIGKILL under paid load loses no charged response's ledger entry.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { createCredits } from "../billing/credits.ts";
import { openDatabase } from "../state/database.ts";
import { embeddedUrl } from "../state/embedded.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database, Sql } from "../state/types.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../testing/openapi-contract.ts";

const ROOT = resolve(import.meta.dirname, "../..");
let temp: TempDatabase;
let snapshotsDir = "";
const servers: SpawnedApi[] = [];


/** Where the API processes keep state: the shared Postgres server, or the embedded default in one DATA_DIR. */
type StateEnv = { DATABASE_URL: string } | { DATABASE_URL: ""; DATA_DIR: string };

/** Start an API server process on the shared database. */
async function startApi(state: StateEnv = { DATABASE_URL: temp.url }): Promise<SpawnedApi> {
  const api = await spawnApi({
    SNAPSHOTS_DIR: snapshotsDir,
    ...state,
    RATE_LIMIT_PER_MINUTE: "0",
    // Bearer tokens only: no local test chain (an anvil per process) for a test of the billing path.
    PAYMENTS_TEST_CHAIN: "off",
    // A load test is the runaway loop the breakers exist to stop: lift them here.
    BREAKER_IDENTICAL_MAX: "100000",
    BREAKER_BURN_MAX: "100000",
  });
  servers.push(api);
  return api;
}

/** A distinct paid request (distinct so no two are the same request). */
const paidPath = (i: number) =>
  `/api/premium/cost/projection?model=gpt-4o&input_tokens_per_day=${1000 + i}&output_tokens_per_day=100`;

beforeAll(async () => {
  temp = await openTempDatabase();
  snapshotsDir = await mkdtemp(join(tmpdir(), "agentfeed-paid-load-"));
  // Fresh snapshots (a replay run), so no call is served free as stale.
  await runFeeds({ feeds: { pricing: feeds.pricing }, snapshotsDir, replayDir: join(ROOT, "pipelines/fixtures") });
}, 120_000);

afterAll(async () => {
  for (const api of servers) await api.stop();
  await temp?.close();
  if (snapshotsDir) await rm(snapshotsDir, { recursive: true, force: true });
});

describe("paid load across API processes", () => {
  /** Fire 1,000 concurrent one-credit calls at two API processes for a token holding 100 credits. */
  async function hundredOfAThousand(db: Sql, a: { base: string }, b: { base: string }, token: string, id: string) {
    const credits = createCredits(db as Database);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const res = await fetch((i % 2 ? a : b).base + paidPath(i), { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { error?: string; billing?: { credits_charged: number } };
        return { status: res.status, error: body.error, charged: body.billing?.credits_charged ?? 0 };
      }),
    );
    const ok = answers.filter((x) => x.status === 200);
    expect(ok).toHaveLength(100);
    expect(ok.every((x) => x.charged === 1)).toBe(true);
    expect(answers.filter((x) => x.status === 402).every((x) => x.error === "insufficient_credits")).toBe(true);
    expect(answers.filter((x) => x.status !== 200 && x.status !== 402)).toEqual([]);

    const info = await credits.tokenByBearer(token);
    expect(info?.balance).toBe(0);
    expect(await credits.ledgerSum(id)).toBe(0);
    const { rows } = await db.query<{ committed: string; open: string }>(
      `SELECT count(*) FILTER (WHERE status = 'committed') AS committed, count(*) FILTER (WHERE status = 'held') AS open FROM holds WHERE token_id = $1`,
      [id],
    );
    expect(Number(rows[0]!.committed)).toBe(100);
    expect(Number(rows[0]!.open)).toBe(0);
  }

  it("two API processes on one Postgres server, 1,000 concurrent calls of cost 1 on 100 credits: exactly 100 charged", { timeout: 180_000 }, async () => {
    const credits = createCredits(temp.db);
    const { token, id } = await credits.mintToken(temp.db, { kind: "paid" });
    await credits.grant(temp.db, id, 100, { reason: "purchase", ref: "test:two-processes" });
    const [a, b] = await Promise.all([startApi(), startApi()]);
    await hundredOfAThousand(temp.db, a, b, token, id);
  });

  it("the embedded default owns its DATA_DIR: a second process there is refused, and shares the database through DATABASE_URL instead", { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "agentfeed-paid-load-state-"));
    const state = { DATABASE_URL: "", DATA_DIR: dataDir } as const;
    const a = await startApi(state); // starts the embedded Postgres and owns it
    const refused = await spawnApi({ SNAPSHOTS_DIR: snapshotsDir, ...state }).then(
      async (api) => {
        await api.stop();
        return undefined;
      },
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toContain(`belongs to the running agentfeed process pid ${a.child.pid}`);
    const url = await embeddedUrl(dataDir);
    const db = await openDatabase({ databaseUrl: url });
    try {
      const credits = createCredits(db);
      const { token, id } = await credits.mintToken(db, { kind: "paid" });
      await credits.grant(db, id, 100, { reason: "purchase", ref: "test:embedded" });
      const b = await startApi({ DATABASE_URL: url! });
      await hundredOfAThousand(db, a, b, token, id);
      await b.stop();
      await a.stop();
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  /** Concurrent paid callers against the process that is killed (each has one call in flight at a time). */
  const WORKERS = 16;
  it("an API process killed with SIGKILL under paid load: every charged response has its ledger entry", { timeout: 180_000 }, async () => {
    const credits = createCredits(temp.db);
    const { token, id } = await credits.mintToken(temp.db, { kind: "paid" });
    const purchased = 5000;
    await credits.grant(temp.db, id, purchased, { reason: "purchase", ref: "test:crash" });
    const victim = await startApi();

    const receipts: string[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(victim.base + paidPath(w * 100_000 + i), { headers: { authorization: `Bearer ${token}` } });
          const body = (await res.json()) as { receipt?: { id: string }; billing?: { credits_charged: number } };
          if (res.status === 200 && body.billing?.credits_charged === 1 && body.receipt) receipts.push(body.receipt.id);
        } catch {
          return; // the process is gone
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    while (receipts.length < 50) await new Promise((ok) => setTimeout(ok, 20));
    victim.child.kill("SIGKILL");
    stop = true;
    await load;

    // Restart: a new process on the same database comes up and serves.
    const again = await startApi();
    expect((await fetch(`${again.base}/api/health`)).status).toBe(200);

    // Every charged response the client saw is a committed hold with its ledger entry.
    const { rows } = await temp.db.query<{ receipt_id: string; status: string; debited: string }>(
      `SELECT h.receipt_id, h.status,
              (SELECT count(*) FROM ledger l WHERE l.ref = h.id AND l.reason = 'hold') AS debited
         FROM holds h WHERE h.token_id = $1 AND h.receipt_id = ANY($2)`,
      [id, receipts],
    );
    expect(rows).toHaveLength(receipts.length);
    expect(rows.every((r) => r.status === "committed" && Number(r.debited) === 1)).toBe(true);

    // The paid path writes no provisional row: nothing is left held by the killed process.
    const { rows: open } = await temp.db.query<{ n: string }>(`SELECT count(*) AS n FROM holds WHERE token_id = $1 AND status <> 'committed'`, [id]);
    expect(Number(open[0]!.n)).toBe(0);
    // The balance is the ledger's sum, and purchases minus every committed charge. Charges beyond the receipts the
    // client read are answers the kill cut off on the way (committed, then the socket died): at most the calls
    // that were in flight.
    expect((await credits.tokenByBearer(token))?.balance).toBe(await credits.ledgerSum(id));
    const { rows: committed } = await temp.db.query<{ n: string }>(`SELECT count(*) AS n FROM holds WHERE token_id = $1 AND status = 'committed'`, [id]);
    const cutOff = Number(committed[0]!.n) - receipts.length;
    expect(cutOff).toBeGreaterThanOrEqual(0);
    expect(cutOff, `${cutOff} charged answers never reached the client`).toBeLessThanOrEqual(WORKERS);
    const balance = (await credits.tokenByBearer(token))?.balance;
    expect(balance).toBe(purchased - Number(committed[0]!.n));
    expect(await credits.ledgerSum(id)).toBe(balance);
  });
});
