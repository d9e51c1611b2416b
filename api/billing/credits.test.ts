import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { CreditLedger, Database } from "../state/types.ts";
import { createCredits, CreditsError, hashToken, TOKEN_PREFIX } from "./credits.ts";

let temp: TempDatabase;
let db: Database;
let credits: CreditLedger;

const HAMMER = fileURLToPath(new URL("../state/testing/hammer.ts", import.meta.url));

beforeAll(async () => {
  temp = await openTempDatabase();
  db = temp.db;
  credits = createCredits(db);
});

afterAll(async () => {
  await temp?.close();
});

const charge = { endpoint: "/api/premium/test", requestHash: "req-1" };

async function paidToken(credit: number): Promise<{ token: string; id: string }> {
  const minted = await db.transaction((tx) => credits.mintToken(tx, { kind: "paid", wallet: "0xAbC0000000000000000000000000000000000001" }));
  if (credit > 0) await credits.grant(db, minted.id, credit, { reason: "purchase", ref: `pay-${minted.id}` });
  return minted;
}

async function balanceOf(id: string): Promise<number> {
  const { rows } = await db.query<{ balance: string }>("SELECT balance FROM tokens WHERE id = $1", [id]);
  return Number(rows[0]?.balance);
}

/** The ledger invariant for one token: balance = SUM(ledger.delta). */
async function expectInvariant(id: string): Promise<number> {
  const balance = await balanceOf(id);
  expect(await credits.ledgerSum(id)).toBe(balance);
  expect(balance).toBeGreaterThanOrEqual(0);
  return balance;
}

/** Run the hammer script as its own Node process (tsx as a loader, so SIGKILL hits that very process). */
function hammer(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", HAMMER, ...args], {
    env: { ...process.env, DATABASE_URL: `${temp.url}?application_name=hammer` },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

function collect(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("mintToken()", () => {
  it("mintToken() returns afk_ + 64 hex once and stores only its sha256", async () => {
    const { token, id } = await paidToken(0);
    expect(token).toMatch(/^afk_[0-9a-f]{64}$/);
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    const { rows } = await db.query<Record<string, unknown>>("SELECT * FROM tokens WHERE id = $1", [id]);
    expect(rows[0]?.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token.slice(4));
    expect(rows[0]?.wallet).toBe("0xabc0000000000000000000000000000000000001");
  });
});

describe("tokenByBearer()", () => {
  it("tokenByBearer() finds a token by its bearer value and refuses malformed or unknown ones", async () => {
    const { token, id } = await paidToken(25);
    const info = await credits.tokenByBearer(token);
    expect(info).toMatchObject({ id, kind: "paid", balance: 25, totalPurchased: 25, expiresAt: null, lastUsed: null });
    expect(new Date(info?.created ?? "").getTime()).toBeGreaterThan(0);
    expect((await credits.tokenByBearer(token))?.lastUsed).not.toBeNull();
    expect(await credits.tokenByBearer(token.toUpperCase())).toBeUndefined();
    expect(await credits.tokenByBearer(`${token}0`)).toBeUndefined();
    expect(await credits.tokenByBearer(hashToken(token))).toBeUndefined();
    expect(await credits.tokenByBearer(`afk_${"0".repeat(64)}`)).toBeUndefined();
    expect(await credits.tokenByBearer("")).toBeUndefined();
  });

  it("tokenByBearer() returns an expired trial with expiresAt in the past", async () => {
    const expiresAt = new Date(Date.now() - 1000);
    const { token } = await db.transaction((tx) => credits.mintToken(tx, { kind: "trial", expiresAt }));
    const info = await credits.tokenByBearer(token);
    expect(info?.kind).toBe("trial");
    expect(info?.expiresAt).toBe(expiresAt.toISOString());
  });
});

describe("grant()", () => {
  it("grant() adds a ledger row per grant and grows totalPurchased only on purchase", async () => {
    const { id } = await paidToken(0);
    expect(await credits.grant(db, id, 100, { reason: "purchase", ref: "pay-a" })).toBe(100);
    expect(await credits.grant(db, id, 20, { reason: "bonus", ref: "bonus-a" })).toBe(120);
    const { rows } = await db.query<{ total_purchased: string }>("SELECT total_purchased FROM tokens WHERE id = $1", [id]);
    expect(Number(rows[0]?.total_purchased)).toBe(100);
    const ledger = await db.query<{ delta: string; reason: string; ref: string }>(
      "SELECT delta, reason, ref FROM ledger WHERE token_id = $1 ORDER BY id",
      [id],
    );
    expect(ledger.rows).toEqual([
      { delta: "100", reason: "purchase", ref: "pay-a" },
      { delta: "20", reason: "bonus", ref: "bonus-a" },
    ]);
    await expectInvariant(id);
  });

  it("grant() rolls back with the caller's transaction", async () => {
    const { id } = await paidToken(10);
    await expect(
      db.transaction(async (tx) => {
        await credits.grant(tx, id, 50, { reason: "purchase", ref: "pay-rolled-back" });
        throw new Error("payment verification failed");
      }),
    ).rejects.toThrow("payment verification failed");
    expect(await expectInvariant(id)).toBe(10);
  });

  it("grant() refuses non-positive, fractional and unknown-token grants", async () => {
    const { id } = await paidToken(0);
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      await expect(credits.grant(db, id, bad, { reason: "purchase", ref: "x" })).rejects.toBeInstanceOf(CreditsError);
    }
    await expect(credits.grant(db, "tok_missing", 5, { reason: "bonus", ref: "x" })).rejects.toMatchObject({
      code: "unknown_token",
    });
    expect(await expectInvariant(id)).toBe(0);
  });
});

describe("hold() / commit() / release()", () => {
  it("hold() debits at once, commit() keeps it, release() gives it back; the invariant holds after every step", async () => {
    const { id } = await paidToken(10);
    const first = await credits.hold(id, 4, charge);
    expect(first?.balance).toBe(6);
    expect(await expectInvariant(id)).toBe(6);
    await credits.commit(first?.holdId ?? "", { responseHash: "resp", receiptId: "rcpt-1" });
    expect(await expectInvariant(id)).toBe(6);
    const second = await credits.hold(id, 5, charge);
    expect(second?.balance).toBe(1);
    expect(await credits.release(second?.holdId ?? "", "upstream_5xx")).toEqual({ balance: 6 });
    expect(await expectInvariant(id)).toBe(6);
    const { rows } = await db.query<{ status: string; reason: string | null; receipt_id: string | null }>(
      "SELECT status, reason, receipt_id FROM holds WHERE token_id = $1 ORDER BY created_at",
      [id],
    );
    expect(rows).toEqual([
      { status: "committed", reason: null, receipt_id: "rcpt-1" },
      { status: "released", reason: "upstream_5xx", receipt_id: null },
    ]);
  });

  it("hold() returns null and writes nothing when the balance is short", async () => {
    const { id } = await paidToken(3);
    expect(await credits.hold(id, 4, charge)).toBeNull();
    const held = await credits.hold(id, 3, charge);
    expect(held?.balance).toBe(0);
    expect(await credits.hold(id, 1, charge)).toBeNull();
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM holds WHERE token_id = $1", [id]);
    expect(rows[0]?.n).toBe(1);
    expect(await expectInvariant(id)).toBe(0);
  });

  it("hold() refuses an expired trial even with credits left", async () => {
    const minted = await db.transaction((tx) =>
      credits.mintToken(tx, { kind: "trial", expiresAt: new Date(Date.now() + 60_000) }),
    );
    await credits.grant(db, minted.id, 5, { reason: "trial", ref: "trial-1" });
    expect(await credits.hold(minted.id, 1, charge)).not.toBeNull();
    await db.query("UPDATE tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [minted.id]);
    expect(await credits.hold(minted.id, 1, charge)).toBeNull();
    expect(await expectInvariant(minted.id)).toBe(4);
  });

  it("commit() twice charges once; commit() after release() throws and charges nothing", async () => {
    const { id } = await paidToken(10);
    const held = await credits.hold(id, 2, charge);
    const holdId = held?.holdId ?? "";
    await credits.commit(holdId, { responseHash: "a" });
    await credits.commit(holdId, { responseHash: "b" });
    expect(await expectInvariant(id)).toBe(8);
    await expect(credits.release(holdId, "late")).rejects.toMatchObject({ name: "CreditsError", code: "hold_settled" });
    expect(await expectInvariant(id)).toBe(8);
    const other = await credits.hold(id, 3, charge);
    await credits.release(other?.holdId ?? "", "breaker_open");
    expect(await credits.release(other?.holdId ?? "", "breaker_open")).toEqual({ balance: 8 });
    await expect(credits.commit(other?.holdId ?? "", { responseHash: "c" })).rejects.toMatchObject({ code: "hold_settled" });
    expect(await expectInvariant(id)).toBe(8);
    const rows = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger WHERE token_id = $1", [id]);
    expect(rows.rows[0]?.n).toBe(4); // purchase, hold, hold, one release
    await expect(credits.commit("hold_missing", { responseHash: "x" })).rejects.toMatchObject({ code: "unknown_hold" });
  });

  it("the schema's CHECK refuses a negative balance and a zero ledger delta", async () => {
    const { id } = await paidToken(1);
    await expect(db.query("UPDATE tokens SET balance = balance - 2 WHERE id = $1", [id])).rejects.toThrow(/check constraint/);
    await expect(
      db.query("INSERT INTO ledger (token_id, delta, reason, ref) VALUES ($1, 0, 'bonus', 'zero')", [id]),
    ).rejects.toThrow(/check constraint/);
    await expect(credits.hold(id, 0, charge)).rejects.toBeInstanceOf(CreditsError);
    expect(await expectInvariant(id)).toBe(1);
  });
});

describe("concurrency", () => {
  it("hold() from 1000 concurrent calls in one process on 100 credits succeeds exactly 100 times", async () => {
    const { id } = await paidToken(100);
    const results = await Promise.all(
      Array.from({ length: 1000 }, async () => {
        const held = await credits.hold(id, 1, charge);
        if (held) await credits.commit(held.holdId, { responseHash: "ok" });
        return held !== null;
      }),
    );
    expect(results.filter(Boolean)).toHaveLength(100);
    expect(await expectInvariant(id)).toBe(0);
  });

  it("hold() from two processes × 500 concurrent calls on one server and 100 credits succeeds exactly 100 times", async () => {
    const { id } = await paidToken(100);
    const children = [hammer(["burst", id, "500"]), hammer(["burst", id, "500"])];
    const finished = Promise.all(children.map(collect));
    // Both processes connect first; then both are told to fire at once.
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve, reject) => {
            child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
            child.on("close", (code) => reject(new Error(`hammer exited before ready with ${code}`)));
          }),
      ),
    );
    for (const child of children) child.stdin?.end("go\n");
    const runs = await finished;
    const outcomes = runs.map((run) => {
      expect(run.code, run.stderr).toBe(0);
      const last = run.stdout.trim().split("\n").at(-1) ?? "";
      return JSON.parse(last) as { held: number; short: number };
    });
    expect(outcomes.reduce((sum, run) => sum + run.held, 0)).toBe(100);
    expect(outcomes.reduce((sum, run) => sum + run.short, 0)).toBe(900);
    expect(await expectInvariant(id)).toBe(0);
    const holds = await db.query<{ status: string; n: number }>(
      "SELECT status, count(*)::int AS n FROM holds WHERE token_id = $1 GROUP BY status",
      [id],
    );
    expect(holds.rows).toEqual([{ status: "committed", n: 100 }]);
  });
});

describe("releaseStaleHolds()", () => {
  it("releaseStaleHolds() after a kill -9 mid-load keeps every committed charge and releases the unanswered ones", async () => {
    const purchased = 1_000_000;
    const { id } = await paidToken(purchased);
    const child = hammer(["loop", id, "8"]);
    const done = collect(child);
    let committed = 0;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        committed += chunk.toString().split("\n").filter((line) => line.startsWith("committed ")).length;
        if (committed >= 200) resolve();
      });
      child.on("close", (code) => reject(new Error(`hammer exited early with ${code}`)));
    });
    const live = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'hammer'",
    );
    expect(live.rows[0]?.n).toBeGreaterThan(0);
    child.kill("SIGKILL");
    const { stdout } = await done;
    const reported = stdout
      .split("\n")
      .filter((line) => line.startsWith("committed "))
      .map((line) => line.slice("committed ".length));
    expect(reported.length).toBeGreaterThanOrEqual(200);
    // The killed process's backends finish whatever statement they were in, then go away.
    for (let i = 0; i < 100; i++) {
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'hammer'",
      );
      if (rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ledgerHolds = await db.query<{ ref: string }>(
      "SELECT ref FROM ledger WHERE token_id = $1 AND reason = 'hold'",
      [id],
    );
    const holdRefs = new Set(ledgerHolds.rows.map((row) => row.ref));
    const committedRows = await db.query<{ id: string }>(
      "SELECT id FROM holds WHERE token_id = $1 AND status = 'committed'",
      [id],
    );
    const committedIds = new Set(committedRows.rows.map((row) => row.id));
    for (const holdId of reported) {
      expect(committedIds.has(holdId)).toBe(true);
      expect(holdRefs.has(holdId)).toBe(true);
    }
    // Every hold still open anywhere (earlier tests leave some too) is unanswered and gets released.
    const open = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM holds WHERE status = 'held'");
    expect(await credits.releaseStaleHolds(0)).toBe(open.rows[0]?.n);
    const after = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM holds WHERE token_id = $1 AND status = 'held'",
      [id],
    );
    expect(after.rows[0]?.n).toBe(0);
    expect(await expectInvariant(id)).toBe(purchased - committedIds.size);
  });

  it("releaseStaleHolds() leaves holds younger than the cut-off alone", async () => {
    const { id } = await paidToken(5);
    const young = await credits.hold(id, 2, charge);
    expect(await credits.releaseStaleHolds(3600)).toBe(0);
    await db.query("UPDATE holds SET created_at = now() - interval '2 hours' WHERE id = $1", [young?.holdId]);
    expect(await credits.releaseStaleHolds(3600)).toBe(1);
    const { rows } = await db.query<{ status: string; reason: string }>("SELECT status, reason FROM holds WHERE id = $1", [
      young?.holdId,
    ]);
    expect(rows[0]).toEqual({ status: "released", reason: "stale" });
    expect(await expectInvariant(id)).toBe(5);
  });
});
