/**
 * A state database that stops answering (its processes paused, as a stalled disk or VM does): a query on an
 * open connection fails within the pool's query time-out and maps to 503 state_unavailable, and a charge sent
 * while the server was paused is not written when the server resumes after its deadline (the caller had
 * answered "nothing was charged").
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { stateUnavailable } from "../state/unavailable.ts";
import { createCredits } from "./credits.ts";
import { GroupCommit } from "./group-commit.ts";

let tdb: TempDatabase;

beforeAll(async () => {
  tdb = await openTempDatabase({ queryTimeoutMs: 1_500 });
});
afterAll(async () => {
  await tdb?.close();
});

/** Pids of the embedded server: its postmaster (whose command line names the data folder) and every child of it. */
function serverPids(dataDir: string): number[] {
  const procs: { pid: number; ppid: number; cmdline: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      procs.push({ pid: Number(entry), ppid, cmdline: readFileSync(`/proc/${entry}/cmdline`, "utf8") });
    } catch {
      /* gone */
    }
  }
  const postmaster = procs.find((p) => p.cmdline.includes(`${dataDir}/pg`));
  return postmaster ? [postmaster.pid, ...procs.filter((p) => p.ppid === postmaster.pid).map((p) => p.pid)] : [];
}

/** Run `fn` with the server's processes stopped; they continue afterwards, whatever happens. */
async function whilePaused<T>(fn: () => Promise<T>): Promise<T> {
  const pids = serverPids(tdb.dataDir);
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, "SIGSTOP");
  try {
    return await fn();
  } finally {
    for (const pid of pids) process.kill(pid, "SIGCONT");
  }
}

describe("a paused state database", () => {
  it("fails a query on an open connection within the query time-out, as 503 state_unavailable, and serves again on resume", async () => {
    await tdb.db.query("SELECT 1"); // the pool holds an open connection
    const started = Date.now();
    const error = await whilePaused(() => tdb.db.query("SELECT 1").then(() => null, (e: unknown) => e));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(stateUnavailable(error)?.code, `the query during the pause ended with ${String(error)}`).toBe("state_unavailable");
    expect((await tdb.db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("does not charge, after it resumes, a batch sent while it was paused", async () => {
    const credits = createCredits(tdb.db);
    const { id } = await credits.mintToken(tdb.db, { kind: "paid" });
    await credits.grant(tdb.db, id, 10, { reason: "purchase", ref: "paused" });
    const gc = new GroupCommit(tdb.db, { deadlineMs: 500 });
    await gc.submit({ tokenId: id, cost: 1, endpoint: "GET /x", requestHash: "a".repeat(64), responseHash: "b".repeat(64), receiptId: "rcpt_paused_0" });
    const error = await whilePaused(async () => {
      const call = gc.submit({ tokenId: id, cost: 1, endpoint: "GET /x", requestHash: "a".repeat(64), responseHash: "b".repeat(64), receiptId: "rcpt_paused_1" });
      return call.then(() => null, (e: unknown) => e);
    });
    expect(stateUnavailable(error)?.code, `the charge during the pause ended with ${String(error)}`).toBe("state_unavailable");
    // The statement sent before the pause reaches the server on resume; past its deadline, it writes nothing.
    await new Promise((ok) => setTimeout(ok, 1_000));
    const { rows } = await tdb.db.query<{ balance: string; charges: string }>(
      "SELECT t.balance, (SELECT count(*) FROM holds h WHERE h.token_id = t.id AND h.status = 'committed') AS charges FROM tokens t WHERE t.id = $1",
      [id],
    );
    expect(rows[0]).toEqual({ balance: "9", charges: "1" });
  });
});
