import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateKeyToAccount, generatePrivateKey, type PrivateKeyAccount } from "viem/accounts";
import { ApiError } from "../registry/types.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { CONFIRM_GRACE_SECONDS, confirmPayment } from "./confirm.ts";
import type { PaymentDeps } from "./deps.ts";
import { paymentTokenKey } from "./payment-token.ts";
import { proofMessage } from "./proof.ts";
import { createQuote } from "./quotes.ts";
import { sanctionsList } from "./sanctions.ts";
import { startTestChain, type TestChain } from "./testing/chain.ts";
import { testClock, testPaymentDeps, type TestClock } from "./testing/deps.ts";
import { CHAIN_CLOCK_SKEW_SECONDS } from "./verify-transfer.ts";

const USD = 1_000_000n;
let temp: TempDatabase;
let chain: TestChain;
let deps: PaymentDeps;
let clock: TestClock;
const publisher = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  [temp, chain] = await Promise.all([openTempDatabase(), startTestChain()]);
  clock = testClock();
  deps = testPaymentDeps(temp, { rpcUrl: chain.anvil.rpcUrl, usdc: chain.usdc, publisher, clock });
}, 60_000);

afterAll(async () => {
  await Promise.all([temp?.close(), chain?.stop()]);
});

/** The ApiError code a promise rejects with. */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code}`;
    throw err;
  }
  return "resolved";
}

async function quoteFor(wallet: PrivateKeyAccount, amountUsd: number, d: PaymentDeps = deps) {
  return createQuote(d, { amountUsd, senderWallet: wallet.address });
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await temp.db.query<{ n: string }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

describe("confirmPayment()", () => {
  it("confirmPayment() credits a bundle plus the first-payment bonus and mints a token", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 5);
    expect(quote.credits).toBe(275);
    const hash = await chain.transfer(payer, publisher, 5n * USD);
    const result = await confirmPayment(deps, { txHash: hash, nonce: quote.memo });
    expect(result).toMatchObject({ credits: 325, balance: 325, txAmountUsd: 5, rate: "bundle", welcomeBonusCredits: 50, isFirstPayment: true });
    expect(result.token).toMatch(/^afk_[0-9a-f]{64}$/);
    const info = await deps.credits.tokenByBearer(result.token);
    expect(info).toMatchObject({ balance: 325, totalPurchased: 275, wallet: payer.address.toLowerCase(), kind: "paid" });

    // the same wallet again, topping up the same token: no second bonus; 2.50 is not a bundle → the base rate
    const quote2 = await quoteFor(payer, 2.5);
    const hash2 = await chain.transfer(payer, publisher, 2_500_000n);
    const again = await confirmPayment(deps, { txHash: hash2, nonce: quote2.memo, bearer: result.token });
    expect(again).toMatchObject({ token: result.token, credits: 125, balance: 450, rate: "base" });
    expect(again.isFirstPayment).toBeUndefined();
    expect(again.welcomeBonusCredits).toBeUndefined();
  });

  it("confirmPayment() grants no first-payment bonus for less than USD 0.50, and keeps it for the wallet's next payment", async () => {
    const payer = await chain.newWallet(2n * USD);
    const dust = await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, 1n), nonce: (await quoteFor(payer, 0.5)).memo });
    expect(dust).toMatchObject({ credits: 0, balance: 0, txAmountUsd: 0.000001, rate: "base" });
    expect(dust.welcomeBonusCredits).toBeUndefined();
    expect(await count("SELECT count(*) AS n FROM first_payment_bonuses WHERE wallet = $1", [payer.address.toLowerCase()])).toBe(0);
    const under = await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, 499_999n), nonce: (await quoteFor(payer, 0.5)).memo, bearer: dust.token });
    // within USD 0.01 of its quote, so the quote's 25 credits, but under USD 0.50: no bonus
    expect(under).toMatchObject({ credits: 25, balance: 25 });
    expect(under.isFirstPayment).toBeUndefined();
    const full = await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, 500_000n), nonce: (await quoteFor(payer, 0.5)).memo, bearer: dust.token });
    expect(full).toMatchObject({ credits: 25 + 50, balance: 25 + 75, welcomeBonusCredits: 50, isFirstPayment: true });
  });

  it("confirmPayment() pays the base rate when the amount differs by more than USD 0.01, the quote within it", async () => {
    const payer = await chain.newWallet(100n * USD);
    const q1 = await quoteFor(payer, 5);
    const r1 = await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, 3_123_456n), nonce: q1.memo });
    expect(r1).toMatchObject({ rate: "base", credits: 156 + 50, txAmountUsd: 3.123456 });
    const q2 = await quoteFor(payer, 30);
    const r2 = await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, 29_990_000n), nonce: q2.memo });
    expect(r2).toMatchObject({ rate: "bundle", credits: 1950 });
    const q3 = await quoteFor(payer, 1);
    const r3 = await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, 1_010_001n), nonce: q3.memo });
    expect(r3).toMatchObject({ rate: "base", credits: 50 });
    // the 1.00 USD bundle paid exactly is the base rate, and says so
    const q4 = await quoteFor(payer, 1);
    const r4 = await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, 1_000_000n), nonce: q4.memo });
    expect(r4).toMatchObject({ rate: "base", credits: 50 });
  });

  it("confirmPayment() accepts a tx hash once, in any case, with or without 0x", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1);
    const hash = await chain.transfer(payer, publisher, USD);
    await confirmPayment(deps, { txHash: hash.toUpperCase().replace("0X", "0x"), nonce: quote.memo });
    const quote2 = await quoteFor(payer, 1);
    expect(await codeOf(confirmPayment(deps, { txHash: hash.slice(2), nonce: quote2.memo }))).toBe("409 tx_already_used");
    expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: quote.memo }))).toBe("409 tx_already_used");
    expect(await count("SELECT count(*) AS n FROM payments WHERE tx_hash = $1", [hash.toLowerCase()])).toBe(1);
  });

  it("confirmPayment() repeated with the same tx and memo answers the same token again, nothing added, when tokens are derived", async () => {
    const keyed: PaymentDeps = { ...deps, tokenKey: async () => paymentTokenKey(new Uint8Array(32).fill(7)) };
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 5, keyed);
    const hash = await chain.transfer(payer, publisher, 5n * USD);
    const first = await confirmPayment(keyed, { txHash: hash, nonce: quote.memo });
    expect(first).toMatchObject({ credits: 325, balance: 325 });
    expect(first.replayed).toBeUndefined();
    // The answer was lost; the same confirm again (any spelling of the hash) gets the same token and nothing more.
    const again = await confirmPayment(keyed, { txHash: hash.slice(2).toUpperCase(), nonce: quote.memo.toUpperCase() });
    expect(again).toMatchObject({ token: first.token, credits: 325, balance: 325, welcomeBonusCredits: 50, isFirstPayment: true, replayed: true });
    expect(await count("SELECT count(*) AS n FROM ledger WHERE token_id = $1", [first.tokenId])).toBe(2);
    // Another memo, or the payment without derived tokens, is still the one-use rule.
    expect(await codeOf(confirmPayment(keyed, { txHash: hash, nonce: (await quoteFor(payer, 5, keyed)).memo }))).toBe("409 tx_already_used");
    expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: quote.memo }))).toBe("409 tx_already_used");
    expect(await codeOf(confirmPayment({ ...keyed, tokenKey: async () => paymentTokenKey(new Uint8Array(32).fill(8)) }, { txHash: hash, nonce: quote.memo }))).toBe("409 tx_already_used");

    // A top-up repeated with the same bearer answers that bearer; with another token it is refused.
    const quote2 = await quoteFor(payer, 1, keyed);
    const hash2 = await chain.transfer(payer, publisher, USD);
    const topped = await confirmPayment(keyed, { txHash: hash2, nonce: quote2.memo, bearer: first.token });
    expect(topped).toMatchObject({ token: first.token, credits: 50, balance: 375 });
    expect(await confirmPayment(keyed, { txHash: hash2, nonce: quote2.memo, bearer: first.token })).toMatchObject({ token: first.token, credits: 50, balance: 375, replayed: true });
    expect(await codeOf(confirmPayment(keyed, { txHash: hash2, nonce: quote2.memo }))).toBe("409 tx_already_used");
  });

  it("confirmPayment() refuses a used quote, an unknown nonce, a missing nonce and a malformed hash", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1);
    await confirmPayment(deps, { txHash: await chain.transfer(payer, publisher, USD), nonce: quote.memo });
    const other = await chain.transfer(payer, publisher, USD);
    expect(await codeOf(confirmPayment(deps, { txHash: other, nonce: quote.memo }))).toBe("409 quote_used");
    expect(await codeOf(confirmPayment(deps, { txHash: other, nonce: "0".repeat(32) }))).toBe("404 quote_not_found");
    expect(await codeOf(confirmPayment(deps, { txHash: other, nonce: "not-a-memo" }))).toBe("404 quote_not_found");
    expect(await codeOf(confirmPayment(deps, { txHash: other, nonce: undefined }))).toBe("400 nonce_required");
    expect(await codeOf(confirmPayment(deps, { txHash: other, nonce: " " }))).toBe("400 nonce_required");
    expect(await codeOf(confirmPayment(deps, { txHash: "0x1234", nonce: quote.memo }))).toBe("400 invalid_tx_hash");
  });

  it("confirmPayment() refuses an expired quote after the grace period", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1);
    const hash = await chain.transfer(payer, publisher, USD);
    clock.set(new Date(Date.parse(quote.expires_at) + (CONFIRM_GRACE_SECONDS + 1) * 1000));
    try {
      expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: quote.memo }))).toBe("410 quote_expired");
    } finally {
      clock.reset();
    }
  });

  it("confirmPayment() refuses a tx mined before the quote or after its expiry", async () => {
    const payer = await chain.newWallet(10n * USD);
    const early = await chain.transfer(payer, publisher, USD);
    const minedAt = await chain.latestTime();
    clock.set(new Date(minedAt.getTime() + 60_000));
    const late = await quoteFor(payer, 1);
    expect(await codeOf(confirmPayment(deps, { txHash: early, nonce: late.memo }))).toBe("422 tx_outside_quote_window");
    // a quote that expired before the tx was mined; confirm inside the grace period still checks the window
    clock.set(new Date(minedAt.getTime() - 1900_000));
    const old = await quoteFor(payer, 1);
    clock.set(new Date(Date.parse(old.expires_at) + 60_000));
    expect(await codeOf(confirmPayment(deps, { txHash: early, nonce: old.memo }))).toBe("422 tx_outside_quote_window");
    clock.reset();
  });

  it("confirmPayment() accepts a tx whose block clock lags the quote by less than the chain clock skew", async () => {
    const payer = await chain.newWallet(10n * USD);
    const lagging = await chain.transfer(payer, publisher, USD);
    const minedAt = await chain.latestTime();
    clock.set(new Date(minedAt.getTime() + (CHAIN_CLOCK_SKEW_SECONDS - 5) * 1000));
    try {
      const quote = await quoteFor(payer, 1);
      const confirmed = await confirmPayment(deps, { txHash: lagging, nonce: quote.memo });
      expect(confirmed).toMatchObject({ credits: 100, rate: "base" });
    } finally {
      clock.reset();
    }
  });

  it("confirmPayment() accepts a tx mined a few seconds after its quote expired (sent in the quote's last seconds)", async () => {
    const payer = await chain.newWallet(10n * USD);
    const last = await chain.transfer(payer, publisher, USD);
    const minedAt = await chain.latestTime();
    // The quote expired 10 s before the block's timestamp; confirmed 60 s after its expiry, inside the grace.
    clock.set(new Date(minedAt.getTime() - (1800 + 10) * 1000));
    const quote = await quoteFor(payer, 1);
    clock.set(new Date(Date.parse(quote.expires_at) + 60_000));
    try {
      expect(await confirmPayment(deps, { txHash: last, nonce: quote.memo })).toMatchObject({ credits: 100 });
    } finally {
      clock.reset();
    }
  });

  it("confirmPayment() refuses a reverted tx, another token, another sender and another recipient", async () => {
    const payer = await chain.newWallet(10n * USD);
    const stranger = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1);
    const reverted = await chain.transfer(payer, publisher, 1000n * USD, { gas: 100_000n });
    expect(await codeOf(confirmPayment(deps, { txHash: reverted, nonce: quote.memo }))).toBe("422 tx_reverted");
    const holder = await chain.newWallet(10n * USD, chain.otherToken);
    const q2 = await quoteFor(holder, 1);
    const wrongToken = await chain.transfer(holder, publisher, USD, { token: chain.otherToken });
    expect(await codeOf(confirmPayment(deps, { txHash: wrongToken, nonce: q2.memo }))).toBe("422 wrong_token");
    const byStranger = await chain.transfer(stranger, publisher, USD);
    expect(await codeOf(confirmPayment(deps, { txHash: byStranger, nonce: quote.memo }))).toBe("422 sender_mismatch");
    const elsewhere = await chain.transfer(payer, stranger.address, USD);
    expect(await codeOf(confirmPayment(deps, { txHash: elsewhere, nonce: quote.memo }))).toBe("422 wrong_recipient");
    // nothing was consumed: the quote still confirms with a good payment
    const good = await chain.transfer(payer, publisher, USD);
    await expect(confirmPayment(deps, { txHash: good, nonce: quote.memo })).resolves.toMatchObject({ credits: 100 });
  });

  it("confirmPayment() answers tx_pending before the tx is mined and tx_not_found for an unknown hash", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1);
    await chain.testClient.setAutomine(false);
    let hash: `0x${string}`;
    try {
      hash = await chain.transfer(payer, publisher, USD);
      expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: quote.memo }))).toBe("409 tx_pending");
    } finally {
      await chain.testClient.setAutomine(true);
    }
    await chain.mine(1);
    await expect(confirmPayment(deps, { txHash: hash, nonce: quote.memo })).resolves.toMatchObject({ credits: 100 });
    expect(await codeOf(confirmPayment(deps, { txHash: `0x${"ab".repeat(32)}`, nonce: (await quoteFor(payer, 1)).memo }))).toBe("404 tx_not_found");
  });

  it("confirmPayment() waits for MIN_CONFIRMATIONS", async () => {
    const strict = testPaymentDeps(temp, { rpcUrl: chain.anvil.rpcUrl, usdc: chain.usdc, publisher, env: { MIN_CONFIRMATIONS: "3" } });
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1, strict);
    const hash = await chain.transfer(payer, publisher, USD);
    expect(await codeOf(confirmPayment(strict, { txHash: hash, nonce: quote.memo }))).toBe("409 insufficient_confirmations");
    await chain.mine(2);
    await expect(confirmPayment(strict, { txHash: hash, nonce: quote.memo })).resolves.toMatchObject({ credits: 100 });
  });

  it("confirmPayment() refuses an RPC on another chain, an unknown bearer, and answers 503 when unconfigured", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1);
    const hash = await chain.transfer(payer, publisher, USD);
    const mainnet = testPaymentDeps(temp, { rpcUrl: chain.anvil.rpcUrl, usdc: chain.usdc, publisher, env: { CHAIN_ID: "1" } });
    expect(await codeOf(confirmPayment(mainnet, { txHash: hash, nonce: quote.memo }))).toBe("503 chain_mismatch");
    const down = testPaymentDeps(temp, { rpcUrl: "http://127.0.0.1:9", usdc: chain.usdc, publisher });
    expect(await codeOf(confirmPayment(down, { txHash: hash, nonce: quote.memo }))).toBe("503 chain_unavailable");
    expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: quote.memo, bearer: `afk_${"0".repeat(64)}` }))).toBe("401 invalid_token");
    const off = testPaymentDeps(temp, { rpcUrl: chain.anvil.rpcUrl, usdc: chain.usdc, publisher, env: { PUBLISHER_WALLET: "" } });
    expect(await codeOf(confirmPayment(off, { txHash: hash, nonce: quote.memo }))).toBe("503 payments_not_configured");
    expect(await codeOf(confirmPayment(undefined, { txHash: hash, nonce: quote.memo }))).toBe("503 payments_not_configured");
  });

  it("confirmPayment() mints once and grants one bonus under 20 concurrent confirms of one payment", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 5);
    const quote2 = await quoteFor(payer, 5);
    const hash = await chain.transfer(payer, publisher, 5n * USD);
    const tokensBefore = await count("SELECT count(*) AS n FROM tokens");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => codeOf(confirmPayment(deps, { txHash: hash, nonce: i % 2 ? quote.memo : quote2.memo }))),
    );
    expect(results.filter((r) => r === "resolved")).toHaveLength(1);
    expect(results.filter((r) => r !== "resolved").every((r) => r === "409 tx_already_used" || r === "409 quote_used")).toBe(true);
    expect(await count("SELECT count(*) AS n FROM tokens")).toBe(tokensBefore + 1);
    expect(await count("SELECT count(*) AS n FROM first_payment_bonuses WHERE wallet = $1", [payer.address.toLowerCase()])).toBe(1);
    expect(await count("SELECT count(*) AS n FROM ledger WHERE ref = $1", [`payment:${hash}`])).toBe(1);
    expect(await count("SELECT count(*) AS n FROM ledger WHERE ref = $1", [`first-payment:${payer.address.toLowerCase()}`])).toBe(1);
  });

  it("confirmPayment() with derived tokens mints once under 20 concurrent confirms; the others are 409 or the same token replayed", async () => {
    const keyed: PaymentDeps = { ...deps, tokenKey: async () => paymentTokenKey(new Uint8Array(32).fill(9)) };
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 5, keyed);
    const hash = await chain.transfer(payer, publisher, 5n * USD);
    const tokensBefore = await count("SELECT count(*) AS n FROM tokens");
    const results = await Promise.all(Array.from({ length: 20 }, () => confirmPayment(keyed, { txHash: hash, nonce: quote.memo }).catch((err: unknown) => err)));
    const answers = results.filter((r): r is Awaited<ReturnType<typeof confirmPayment>> => !(r instanceof Error));
    const refused = results.filter((r): r is ApiError => r instanceof ApiError);
    expect(answers.length + refused.length).toBe(20);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.token)).size).toBe(1);
    expect(refused.every((e) => e.status === 409)).toBe(true);
    expect(await count("SELECT count(*) AS n FROM tokens")).toBe(tokensBefore + 1);
    expect(await count("SELECT count(*) AS n FROM ledger WHERE ref = $1", [`payment:${hash}`])).toBe(1);
  });

  it("confirmPayment() grants one bonus when one new wallet confirms two payments concurrently", async () => {
    const payer = await chain.newWallet(10n * USD);
    const qa = await quoteFor(payer, 1);
    const qb = await quoteFor(payer, 1);
    const ha = await chain.transfer(payer, publisher, USD);
    const hb = await chain.transfer(payer, publisher, USD);
    const [a, b] = await Promise.all([confirmPayment(deps, { txHash: ha, nonce: qa.memo }), confirmPayment(deps, { txHash: hb, nonce: qb.memo })]);
    expect([a.isFirstPayment, b.isFirstPayment].filter(Boolean)).toHaveLength(1);
    expect(a.credits + b.credits).toBe(150);
    expect(await count("SELECT count(*) AS n FROM ledger WHERE reason = 'bonus' AND ref = $1", [`first-payment:${payer.address.toLowerCase()}`])).toBe(1);
  });

  it("confirmPayment() refuses an unproven quote when a proven quote of the wallet covers the payment", async () => {
    const victim = await chain.newWallet(10n * USD);
    // the attacker binds an unproven quote to the victim's wallet first
    const attackerQuote = await quoteFor(victim, 5);
    const now = new Date();
    const message = proofMessage({ amountUnits: 5n * USD, senderWallet: victim.address, timestamp: now });
    const signature = await victim.signMessage({ message });
    const proven = await createQuote(deps, { amountUsd: 5, senderWallet: victim.address, signature, proofMessage: message });
    expect(proven.proven).toBe(true);
    const hash = await chain.transfer(victim, publisher, 5n * USD);
    expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: attackerQuote.memo }))).toBe("403 proof_required");
    await expect(confirmPayment(deps, { txHash: hash, nonce: proven.memo })).resolves.toMatchObject({ credits: 325 });
  });

  it("confirmPayment() counts a proven quote as covering a transfer mined in its last seconds' tolerance", async () => {
    const victim = await chain.newWallet(10n * USD);
    const hash = await chain.transfer(victim, publisher, 5n * USD);
    const minedAt = await chain.latestTime();
    try {
      // The attacker's unproven quote came 5 s before the wallet's proven one (after a proof, a wallet's quotes
      // need one); both expired 15 and 10 s before the block, within the chain clock's tolerance.
      clock.set(new Date(minedAt.getTime() - (1800 + 15) * 1000));
      const attackerQuote = await quoteFor(victim, 5);
      const provenAt = new Date(minedAt.getTime() - (1800 + 10) * 1000);
      clock.set(provenAt);
      const message = proofMessage({ amountUnits: 5n * USD, senderWallet: victim.address, timestamp: provenAt });
      const proven = await createQuote(deps, { amountUsd: 5, senderWallet: victim.address, signature: await victim.signMessage({ message }), proofMessage: message });
      clock.set(new Date(minedAt.getTime() + 60_000));
      expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: attackerQuote.memo }))).toBe("403 proof_required");
      await expect(confirmPayment(deps, { txHash: hash, nonce: proven.memo })).resolves.toMatchObject({ credits: 325 });
    } finally {
      clock.reset();
    }
  });

  it("confirmPayment() grants nothing to a wallet listed since its quote and records the payment for refund review", async () => {
    const payer = await chain.newWallet(10n * USD);
    const quote = await quoteFor(payer, 1);
    const hash = await chain.transfer(payer, publisher, USD);
    const listedDeps = { ...deps, sanctions: sanctionsList([payer.address], "test list", "2026-11-20") };
    expect(await codeOf(confirmPayment(listedDeps, { txHash: hash, nonce: quote.memo }))).toBe("403 wallet_blocked");
    const { rows } = await temp.db.query<{ sender_wallet: string; amount_units: string; reason: string; list_date: string }>(
      "SELECT sender_wallet, amount_units, reason, list_date FROM payment_reviews WHERE tx_hash = $1",
      [hash.toLowerCase()],
    );
    expect(rows).toEqual([{ sender_wallet: payer.address.toLowerCase(), amount_units: "1000000", reason: "sanctions_list", list_date: "2026-11-20" }]);
    expect(await count("SELECT count(*) AS n FROM payments WHERE tx_hash = $1", [hash.toLowerCase()])).toBe(0);
    expect(await count("SELECT count(*) AS n FROM tokens WHERE wallet = $1", [payer.address.toLowerCase()])).toBe(0);
    // the same payment cannot be confirmed again, listed or not
    expect(await codeOf(confirmPayment(listedDeps, { txHash: hash, nonce: quote.memo }))).toBe("409 tx_already_used");
    const quote2 = await quoteFor(payer, 1);
    expect(await codeOf(confirmPayment(deps, { txHash: hash, nonce: quote2.memo }))).toBe("409 tx_already_used");
  });
});
