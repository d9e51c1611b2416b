/**
 * The settlement reads on a real Postgres: window totals that mix the daily totals with the partial days at the
 * window's edges equal a plain sum over the settlements, for windows of every shape; zero-value transfers never count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { refreshDailyTotals } from "./indexer.ts";
import { totalsByDay, totalsByWallet } from "./reads.ts";

let temp: TempDatabase | undefined;
const db = () => temp!.db as Database;
const TOKEN = `0x${"aa".repeat(20)}`;
const W1 = `0x${"01".repeat(20)}`;
const W2 = `0x${"02".repeat(20)}`;
const scope = { chainId: 8453, token: TOKEN, wallets: [W1, W2] };
const START = Date.parse("2026-10-01T00:00:00Z");
/** Settlements every 5 h 17 min over ~20 days, alternating wallets, amounts 1..n; every 7th worth zero. */
const settlements = Array.from({ length: 90 }, (_, i) => ({ time: new Date(START + i * (5 * 3600 + 17 * 60) * 1000), to: i % 2 ? W2 : W1, amount: i % 7 === 0 ? 0n : BigInt(i + 1) }));

beforeAll(async () => {
  temp = await openTempDatabase();
  for (const [i, s] of settlements.entries()) {
    await db().query(
      `INSERT INTO x402_settlements (chain_id, block_number, block_hash, block_time, tx_hash, log_index, token, from_address, to_address, amount_units)
       VALUES (8453, $1, $2, $3, $4, 0, $5, $6, $7, $8)`,
      [i, `0x${i.toString(16).padStart(64, "0")}`, s.time.toISOString(), `0x${(i + 1000).toString(16).padStart(64, "0")}`, TOKEN, `0x${"09".repeat(20)}`, s.to, s.amount.toString()],
    );
  }
  await refreshDailyTotals(db(), 8453, settlements.map((s) => s.time.toISOString().slice(0, 10)));
}, 60_000);
afterAll(async () => {
  await temp?.close();
});

const brute = (from: Date, to: Date) => {
  const out = new Map<string, { volume: bigint; count: number }>();
  for (const s of settlements) {
    if (s.time <= from || s.time > to || s.amount === 0n) continue;
    const t = out.get(s.to) ?? { volume: 0n, count: 0 };
    t.volume += s.amount;
    t.count += 1;
    out.set(s.to, t);
  }
  return out;
};

describe("totalsByWallet()", () => {
  it("equals a plain sum over (from, to] for windows inside a day, across one midnight, and over many days", async () => {
    const windows: [string, string][] = [
      ["2026-10-02T01:00:00Z", "2026-10-02T20:00:00Z"],
      ["2026-10-02T12:00:00Z", "2026-10-03T12:00:00Z"],
      ["2026-10-01T00:00:00Z", "2026-10-08T00:00:00Z"],
      ["2026-10-03T07:31:00Z", "2026-10-17T13:02:00Z"],
      ["2026-09-01T00:00:00Z", "2026-12-01T00:00:00Z"],
      // edges exactly on a settlement: the one at `from` is out, the one at `to` in
      [settlements[10]!.time.toISOString(), settlements[60]!.time.toISOString()],
    ];
    for (const [a, b] of windows) {
      const got = await totalsByWallet(db(), scope, new Date(a), new Date(b));
      const want = brute(new Date(a), new Date(b));
      expect(new Map(got.map((g) => [g.wallet, { volume: g.volumeUnits, count: g.count }])), `${a} .. ${b}`).toEqual(want);
    }
  });

  it("is empty for no wallets or an empty window", async () => {
    expect(await totalsByWallet(db(), { ...scope, wallets: [] }, new Date(START), new Date(START + 86_400_000 * 30))).toEqual([]);
    expect(await totalsByWallet(db(), scope, new Date(START + 1000), new Date(START + 1000))).toEqual([]);
  });
});

describe("totalsByDay()", () => {
  it("sums each UTC day from the daily totals, zero-value transfers left out", async () => {
    const days = await totalsByDay(db(), scope, "2026-10-01", "2026-10-03");
    for (const d of days) {
      const inDay = settlements.filter((s) => s.time.toISOString().startsWith(d.date) && s.amount > 0n);
      expect(d.count).toBe(inDay.length);
      expect(d.volumeUnits).toBe(inDay.reduce((a, s) => a + s.amount, 0n));
    }
    expect(days.map((d) => d.date)).toEqual(["2026-10-01", "2026-10-02", "2026-10-03"]);
    expect(await totalsByDay(db(), { ...scope, wallets: [W1] }, "2026-11-01", "2026-11-30")).toEqual([]);
  });
});
