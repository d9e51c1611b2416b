/**
 * The paid path across real processes: anvil, the API server as a child process with an embedded Postgres,
 * and HTTP between them — quote → transfer → confirm → premium call → receipt → x402 retry → trial.
 */
import { describe, expect, it } from "vitest";
import { replaySnapshots } from "../../scripts/lib/replay-snapshots.ts";
import { runPaymentWalkthrough } from "../payments/testing/walkthrough.ts";

describe("payment walkthrough", () => {
  it("pays, calls, verifies and retries with x402 end to end", { timeout: 120_000 }, async () => {
    const r = await runPaymentWalkthrough(replaySnapshots);
    // One publisher wallet everywhere.
    expect(r.infoWallet).toBe(r.publisherWallet);
    expect(r.quote.wallet).toBe(r.publisherWallet);
    expect(r.llmsTxtNamesWallet).toBe(true);
    // 5.00 USD → the 275-credit bundle, plus the first-payment bonus.
    expect(r.quote.credits).toBe(275);
    expect(r.confirm).toMatchObject({ credits: 325, balance: 325, is_first_payment: true, welcome_bonus_credits: 50 });
    // One credit per premium call, and the receipt proves it.
    expect(r.premium).toMatchObject({ credits_charged: 1, credits_remaining: 324 });
    expect(r.premium.recommendations).toBe(3);
    expect(r.receiptValid).toBe(true);
    expect(r.tamperedReceiptValid).toBe(false);
    expect(r.balanceAfter).toBe(324);
    // x402: a 402 naming the chain, then a paid retry that issues a token (1 USD + bonus = 100, minus 1).
    expect(r.x402).toEqual({ challengeStatus: 402, challengeHeaderNetwork: "eip155:8453", retryStatus: 200, tokenIssued: true, charged: 1 });
    expect(r.trial.credits).toBe(25);
    expect(Date.parse(r.trial.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });
});
