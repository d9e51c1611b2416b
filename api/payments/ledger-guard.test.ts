import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { PaymentConfigError } from "./config.ts";
import { markTestChainLedger, refuseTestCreditsOnLive } from "./ledger-guard.ts";

let temp: TempDatabase;
beforeAll(async () => {
  temp = await openTempDatabase();
});
afterAll(async () => temp?.close());

const testChainRows = async () => (await temp.db.query("SELECT chain_id FROM payment_chains WHERE test_chain")).rows;

describe("test credits never reach a live ledger", () => {
  it("lets a ledger that never ran the test chain go live", async () => {
    await expect(refuseTestCreditsOnLive(temp.db, "temp")).resolves.toBeUndefined();
  });

  it("clears the test-chain mark of a ledger without tokens and lets it go live", async () => {
    await markTestChainLedger(temp.db);
    await markTestChainLedger(temp.db);
    expect(await testChainRows()).toEqual([{ chain_id: 31337 }]);
    await refuseTestCreditsOnLive(temp.db, "temp");
    expect(await testChainRows()).toEqual([]);
  });

  it("refuses a live start on a ledger that ran the test chain and holds tokens, naming the database and what to do", async () => {
    await markTestChainLedger(temp.db);
    const credits = createCredits(temp.db);
    await temp.db.transaction((tx) => credits.mintToken(tx, { kind: "trial" }));
    const refusal = refuseTestCreditsOnLive(temp.db, "/tmp/some-data-dir");
    await expect(refusal).rejects.toBeInstanceOf(PaymentConfigError);
    await expect(refuseTestCreditsOnLive(temp.db, "/tmp/some-data-dir")).rejects.toThrow(
      /state database \(\/tmp\/some-data-dir\) ran payments on the local TEST CHAIN \(chain 31337\) since .* holds 1 token\(s\).*fresh DATA_DIR or DATABASE_URL/,
    );
    expect(await testChainRows()).toEqual([{ chain_id: 31337 }]);
  });
});
