import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { CreditLedger } from "../state/types.ts";
import { createCredits } from "./credits.ts";
import { isConnectionError } from "../state/unavailable.ts";
import { GroupCommit, type Settled, type Settlement } from "./group-commit.ts";

let tdb: TempDatabase;
let credits: CreditLedger;

beforeAll(async () => {
  tdb = await openTempDatabase();
  credits = createCredits(tdb.db);
});
afterAll(async () => {
  await tdb?.close();
});

async function token(balance: number, expiresAt?: Date): Promise<string> {
  return tdb.db.transaction(async (tx) => {
    const m = await credits.mintToken(tx, { kind: expiresAt ? "trial" : "paid", ...(expiresAt ? { expiresAt } : {}) });
    await credits.grant(tx, m.id, balance, { reason: expiresAt ? "trial" : "purchase", ref: `gc-${m.id}` });
    return m.id;
  });
}

let n = 0;
const settlement = (tokenId: string, cost = 1, extra: Partial<Settlement> = {}): Settlement => ({
  tokenId,
  cost,
  endpoint: "GET /api/premium/test",
  requestHash: "a".repeat(64),
  responseHash: "b".repeat(64),
  receiptId: `rcpt_${String(++n).padStart(24, "0")}`,
  ...extra,
});

async function ledgerOf(tokenId: string) {
  const { rows } = await tdb.db.query<{ balance: string; sum: string; charges: string }>(
    `SELECT t.balance, (SELECT SUM(delta) FROM ledger WHERE token_id = t.id) AS sum,
            (SELECT count(*) FROM holds WHERE token_id = t.id AND status = 'committed') AS charges
       FROM tokens t WHERE t.id = $1`,
    [tokenId],
  );
  return { balance: Number(rows[0]!.balance), ledgerSum: Number(rows[0]!.sum), charges: Number(rows[0]!.charges) };
}

describe("GroupCommit", () => {
  it("submit() shares one transaction among concurrent settlements and charges each exactly once", async () => {
    const id = await token(50);
    const gc = new GroupCommit(tdb.db);
    const results = await Promise.all(Array.from({ length: 40 }, () => gc.submit(settlement(id))));
    expect(results.every((r) => r.kind === "charged")).toBe(true);
    expect(gc.settled).toBe(40);
    expect(gc.commits).toBeLessThan(40);
    // Each call sees its own balance after its debit, in arrival order.
    expect(results.map((r) => (r as Extract<Settled, { kind: "charged" }>).balance).sort((a, b) => b - a)).toEqual(Array.from({ length: 40 }, (_, i) => 49 - i));
    expect(await ledgerOf(id)).toEqual({ balance: 10, ledgerSum: 10, charges: 40 });
  });

  it("submit() from two committers (two processes) on 100 credits, 1,000 calls: exactly 100 charged, 900 short, nothing else written", async () => {
    const id = await token(100);
    const a = new GroupCommit(tdb.db);
    const b = new GroupCommit(tdb.db);
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => (i % 2 ? a : b).submit(settlement(id))));
    expect(results.filter((r) => r.kind === "charged")).toHaveLength(100);
    expect(results.filter((r) => r.kind === "short")).toHaveLength(900);
    expect(results.filter((r) => r.kind === "short").every((r) => (r as { balance: number }).balance === 0)).toBe(true);
    expect(await ledgerOf(id)).toEqual({ balance: 0, ledgerSum: 0, charges: 100 });
  });

  it("submit() charges a cost-5 call only while the balance covers it, and a cheaper later call still fits", async () => {
    const id = await token(7);
    const gc = new GroupCommit(tdb.db);
    const [first, second, third] = await Promise.all([gc.submit(settlement(id, 5)), gc.submit(settlement(id, 5)), gc.submit(settlement(id, 2))]);
    expect(first).toMatchObject({ kind: "charged", balance: 2 });
    expect(second).toEqual({ kind: "short", balance: 2 });
    expect(third).toMatchObject({ kind: "charged", balance: 0 });
    expect(await ledgerOf(id)).toEqual({ balance: 0, ledgerSum: 0, charges: 2 });
  });

  it("submit() settles one batch over two tokens: each token's charges in arrival order until its balance runs out", async () => {
    const rich = await token(10);
    const poor = await token(2);
    const expired = await token(5, new Date(Date.now() - 1000));
    const gc = new GroupCommit(tdb.db);
    const order = [poor, rich, poor, expired, rich, poor, rich];
    const results = await Promise.all(order.map((id) => gc.submit(settlement(id, 1))));
    expect(gc.commits).toBe(1);
    expect(results.map((r) => r.kind)).toEqual(["charged", "charged", "charged", "expired", "charged", "short", "charged"]);
    expect(results.map((r) => ("balance" in r ? r.balance : null))).toEqual([1, 9, 0, null, 8, 0, 7]);
    expect(await ledgerOf(rich)).toEqual({ balance: 7, ledgerSum: 7, charges: 3 });
    expect(await ledgerOf(poor)).toEqual({ balance: 0, ledgerSum: 0, charges: 2 });
    expect(await ledgerOf(expired)).toEqual({ balance: 5, ledgerSum: 5, charges: 0 });
  });

  it("submit() with two batches in flight on one token: each call charged once, in order of its batch", async () => {
    const id = await token(30);
    const gc = new GroupCommit(tdb.db, { maxInFlight: 2 });
    const first = Array.from({ length: 10 }, () => gc.submit(settlement(id)));
    await new Promise((ok) => setImmediate(ok));
    const second = Array.from({ length: 30 }, () => gc.submit(settlement(id)));
    const results = await Promise.all([...first, ...second]);
    expect(gc.commits).toBe(2);
    expect(results.filter((r) => r.kind === "charged")).toHaveLength(30);
    expect(results.filter((r) => r.kind === "short")).toHaveLength(10);
    expect(await ledgerOf(id)).toEqual({ balance: 0, ledgerSum: 0, charges: 30 });
  });

  it("billing_charge_batch past its deadline answers late for every call and writes nothing", async () => {
    const id = await token(10);
    const { rows } = await tdb.db.query<{ o_outcome: string; o_balance: string | null }>(
      "SELECT * FROM billing_charge_batch($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], now() - interval '1 second')",
      [["hold_late1", "hold_late2"], [id, id], [1, 1], ["GET /x", "GET /x"], ["a".repeat(64), "a".repeat(64)], ["b".repeat(64), "b".repeat(64)], ["rcpt_late1", "rcpt_late2"]],
    );
    expect(rows).toEqual([{ o_outcome: "late", o_balance: null }, { o_outcome: "late", o_balance: null }]);
    expect(await ledgerOf(id)).toEqual({ balance: 10, ledgerSum: 10, charges: 0 });
  });

  it("submit() charges nothing when the token's row is held past the batch's deadline (the caller may have given up)", async () => {
    const id = await token(10);
    const gc = new GroupCommit(tdb.db, { deadlineMs: 300 });
    for (const keyed of [false, true]) {
      let release!: () => void;
      const held = new Promise<void>((ok) => (release = ok));
      let locked!: () => void;
      const lockTaken = new Promise<void>((ok) => (locked = ok));
      const holder = tdb.db.transaction(async (tx) => {
        await tx.query("SELECT id FROM tokens WHERE id = $1 FOR UPDATE", [id]);
        locked();
        await held;
      });
      await lockTaken;
      const call = gc.submit(settlement(id, 1, keyed ? { idempotency: { key: `late-${n}`, createdAt: new Date(), answer: () => ({ status: 200, body: "{}" }) } } : {}));
      const outcome = call.then(() => "settled", (error: unknown) => error);
      await new Promise((ok) => setTimeout(ok, 800));
      release();
      await holder;
      const error = await outcome;
      expect(isConnectionError(error), String(error)).toBe(true);
    }
    expect(await ledgerOf(id)).toEqual({ balance: 10, ledgerSum: 10, charges: 0 });
    // Once the row is free, calls charge again.
    expect((await gc.submit(settlement(id))).kind).toBe("charged");
  });

  it("submit() refuses an expired token and writes nothing for a no-charge settlement without a key", async () => {
    const expired = await token(5, new Date(Date.now() - 1000));
    const live = await token(5);
    const gc = new GroupCommit(tdb.db);
    expect(await gc.submit(settlement(expired))).toEqual({ kind: "expired" });
    expect(await gc.submit(settlement(live, 0))).toEqual({ kind: "free", balance: 5 });
    expect(await ledgerOf(expired)).toEqual({ balance: 5, ledgerSum: 5, charges: 0 });
    expect(await ledgerOf(live)).toEqual({ balance: 5, ledgerSum: 5, charges: 0 });
  });

  it("submit() with one Idempotency-Key from two committers: the first is charged and stored, the other charged nothing and sees it", async () => {
    const id = await token(10);
    const a = new GroupCommit(tdb.db);
    const b = new GroupCommit(tdb.db);
    const keyed = (): Settlement =>
      settlement(id, 1, { idempotency: { key: "k-1", createdAt: new Date(), answer: (s) => ({ status: 200, body: JSON.stringify({ settled: s.kind }) }) } });
    const [x, y] = await Promise.all([a.submit(keyed()), b.submit(keyed())]);
    const kinds = [x.kind, y.kind].sort();
    expect(kinds).toEqual(["charged", "key_taken"]);
    const taken = (x.kind === "key_taken" ? x : y) as Extract<Settled, { kind: "key_taken" }>;
    expect(taken.stored).toMatchObject({ state: "done", status: 200, body: JSON.stringify({ settled: "charged" }) });
    expect(await ledgerOf(id)).toEqual({ balance: 9, ledgerSum: 9, charges: 1 });
  });

  it("submit() rolls the whole batch back when its transaction fails: nothing is charged", async () => {
    const id = await token(10);
    const gc = new GroupCommit(tdb.db);
    // An endpoint with a NUL byte is refused by Postgres, which fails the whole batch.
    const results = await Promise.allSettled([gc.submit(settlement(id)), gc.submit(settlement(id, 1, { endpoint: "GET /\u0000" }))]);
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(await ledgerOf(id)).toEqual({ balance: 10, ledgerSum: 10, charges: 0 });
    expect(await gc.submit(settlement(id))).toMatchObject({ kind: "charged", balance: 9 });
  });
});
