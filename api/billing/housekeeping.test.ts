import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { createCredits } from "./credits.ts";
import { sweepBilling } from "./housekeeping.ts";

let temp: TempDatabase;
beforeAll(async () => {
  temp = await openTempDatabase();
}, 60_000);
afterAll(async () => temp?.close());

describe("sweepBilling()", () => {
  it("sweepBilling() releases only holds older than the request limit and purges only expired idempotency keys", async () => {
    const credits = createCredits(temp.db);
    const { id } = await credits.mintToken(temp.db, { kind: "paid" });
    await credits.grant(temp.db, id, 10, { reason: "purchase", ref: "test" });
    const old = await credits.hold(id, 2, { endpoint: "GET /x", requestHash: "a" });
    const live = await credits.hold(id, 3, { endpoint: "GET /x", requestHash: "b" });
    await temp.db.query(`UPDATE holds SET created_at = now() - interval '10 minutes' WHERE id = $1`, [old!.holdId]);
    const insert = (key: string, age: string) =>
      temp.db.query(
        `INSERT INTO billing_idempotency (token_id, idem_key, request_hash, endpoint, state, response_status, response_body, created_at, completed_at)
         VALUES ($1, $2, 'h', 'GET /x', 'done', 200, '{}', now() - $3::interval, now())`,
        [id, key, age],
      );
    await insert("old-key", "25 hours");
    await insert("new-key", "1 hour");

    expect(await sweepBilling(temp.db, credits)).toEqual({ releasedHolds: 1, purgedKeys: 1 });
    expect((await temp.db.query<{ status: string }>(`SELECT status FROM holds WHERE id = $1`, [live!.holdId])).rows[0]?.status).toBe("held");
    expect((await temp.db.query(`SELECT 1 FROM billing_idempotency WHERE idem_key = 'new-key'`)).rowCount).toBe(1);
    // The released hold is back on the balance, and the balance is still the ledger's sum.
    const { rows } = await temp.db.query<{ balance: string }>(`SELECT balance FROM tokens WHERE id = $1`, [id]);
    expect(Number(rows[0]!.balance)).toBe(7);
    expect(await credits.ledgerSum(id)).toBe(7);
    expect(await sweepBilling(temp.db, credits)).toEqual({ releasedHolds: 0, purgedKeys: 0 });
  });
});
