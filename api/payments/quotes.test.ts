import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ApiError } from "../registry/types.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { PaymentDeps } from "./deps.ts";
import { proofMessage } from "./proof.ts";
import { purgeExpiredQuotes, QUOTE_RETENTION_DAYS } from "./housekeeping.ts";
import { createQuote, MAX_OPEN_QUOTES_PER_WALLET } from "./quotes.ts";
import { sanctionsList } from "./sanctions.ts";
import { testPaymentDeps } from "./testing/deps.ts";

let temp: TempDatabase;
let deps: PaymentDeps;
const publisher = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  temp = await openTempDatabase();
  deps = testPaymentDeps(temp, { rpcUrl: "http://127.0.0.1:9", publisher });
}, 60_000);
afterAll(async () => temp?.close());

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.code}`;
    throw err;
  }
  return "resolved";
}

const fresh = () => privateKeyToAccount(generatePrivateKey());

describe("createQuote()", () => {
  it("createQuote() prices the bundles exactly, other amounts at their volume tier's rate (base below 5), with a fresh memo", async () => {
    const wallet = fresh();
    const cases: [number, number][] = [[1, 50], [5, 275], [30, 1950], [200, 16000], [0.5, 25], [2.99, 149], [10000, 800000], [5.000001, 275], [201, 16080]];
    const memos = new Set<string>();
    for (const [usd, credits] of cases) {
      const q = await createQuote(deps, { amountUsd: usd, senderWallet: wallet.address });
      expect(q.credits, `amount ${usd}`).toBe(credits);
      expect(q).toMatchObject({ ok: true, wallet: publisher, sender_wallet: wallet.address, amount_usd: usd, currency: "USDC", network: "base", ttl_seconds: 1800, proven: false });
      expect(q.memo).toMatch(/^[0-9a-f]{32}$/);
      expect(Date.parse(q.expires_at) - Date.now()).toBeGreaterThan(1790_000);
      expect(q.next_step).toContain(q.memo);
      memos.add(q.memo);
    }
    expect(memos.size).toBe(cases.length);
  });

  it("createQuote() refuses bad amounts and bad wallets", async () => {
    const w = fresh().address;
    expect(await codeOf(createQuote(deps, { amountUsd: 0.49, senderWallet: w }))).toBe("400 invalid_amount");
    expect(await codeOf(createQuote(deps, { amountUsd: 10000.01, senderWallet: w }))).toBe("400 invalid_amount");
    expect(await codeOf(createQuote(deps, { amountUsd: 1.0000001, senderWallet: w }))).toBe("400 invalid_amount");
    // the EIP-55 example address with one letter's case flipped
    expect(await codeOf(createQuote(deps, { amountUsd: 1, senderWallet: "0x52908400098527886E0F7030069857D2E4169EE7".replace("E7", "e7") }))).toBe("400 invalid_wallet");
    expect(await codeOf(createQuote(deps, { amountUsd: 1, senderWallet: "0x1234" }))).toBe("400 invalid_wallet");
    await expect(createQuote(deps, { amountUsd: 1, senderWallet: w.toLowerCase() })).resolves.toMatchObject({ sender_wallet: w });
  });

  it("createQuote() marks a quote proven for a valid wallet proof and refuses bad proofs", async () => {
    const wallet = fresh();
    const message = proofMessage({ amountUnits: 5_000_000n, senderWallet: wallet.address, timestamp: new Date() });
    expect(message).toContain("amount_usd: 5.00\n");
    const signature = await wallet.signMessage({ message });
    const q = await createQuote(deps, { amountUsd: 5, senderWallet: wallet.address, signature, proofMessage: message });
    expect(q.proven).toBe(true);
    expect(await codeOf(createQuote(deps, { amountUsd: 5, senderWallet: wallet.address, signature, proofMessage: message }))).toBe("409 proof_reused");
    expect(await codeOf(createQuote(deps, { amountUsd: 6, senderWallet: wallet.address, signature, proofMessage: message }))).toBe("400 proof_mismatch");
    expect(await codeOf(createQuote(deps, { amountUsd: 5, senderWallet: wallet.address, signature }))).toBe("400 proof_message_required");
    const other = fresh();
    const forged = proofMessage({ amountUnits: 5_000_000n, senderWallet: other.address, timestamp: new Date() });
    expect(await codeOf(createQuote(deps, { amountUsd: 5, senderWallet: other.address, signature: await wallet.signMessage({ message: forged }), proofMessage: forged }))).toBe("400 invalid_signature");
    const stale = proofMessage({ amountUnits: 5_000_000n, senderWallet: other.address, timestamp: new Date(Date.now() - 11 * 60_000) });
    expect(await codeOf(createQuote(deps, { amountUsd: 5, senderWallet: other.address, signature: await other.signMessage({ message: stale }), proofMessage: stale }))).toBe("400 proof_expired");
    // a wallet that proved itself once needs a proof on later quotes
    expect(await codeOf(createQuote(deps, { amountUsd: 1, senderWallet: wallet.address }))).toBe("403 proof_required");
    await expect(createQuote(deps, { amountUsd: 1, senderWallet: other.address })).resolves.toMatchObject({ proven: false });
  });

  it("createQuote() refuses unproven quotes when REQUIRE_WALLET_PROOF is set, and answers 503 unconfigured", async () => {
    const strict = testPaymentDeps(temp, { rpcUrl: "http://127.0.0.1:9", publisher, env: { REQUIRE_WALLET_PROOF: "true" } });
    const wallet = fresh();
    expect(await codeOf(createQuote(strict, { amountUsd: 1, senderWallet: wallet.address }))).toBe("403 proof_required");
    const message = proofMessage({ amountUnits: 1_000_000n, senderWallet: wallet.address, timestamp: new Date() });
    await expect(createQuote(strict, { amountUsd: 1, senderWallet: wallet.address, signature: await wallet.signMessage({ message }), proofMessage: message })).resolves.toMatchObject({ proven: true });
    const off = testPaymentDeps(temp, { rpcUrl: "", publisher });
    expect(await codeOf(createQuote(off, { amountUsd: 1, senderWallet: wallet.address }))).toBe("503 payments_not_configured");
  });

  it("createQuote() screens the wallet: zero address and the publisher 400, a listed wallet 403 naming the list", async () => {
    const listed = fresh();
    const screened = testPaymentDeps(temp, { rpcUrl: "http://127.0.0.1:9", publisher, sanctions: sanctionsList([listed.address], "test list", "2026-11-01") });
    expect(await codeOf(createQuote(screened, { amountUsd: 1, senderWallet: "0x0000000000000000000000000000000000000000" }))).toBe("400 wallet_not_allowed");
    expect(await codeOf(createQuote(screened, { amountUsd: 1, senderWallet: publisher.toLowerCase() }))).toBe("400 wallet_not_allowed");
    const blocked = await createQuote(screened, { amountUsd: 1, senderWallet: listed.address }).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(ApiError);
    expect(blocked).toMatchObject({ status: 403, code: "wallet_blocked", details: { list: "test list", list_date: "2026-11-01" } });
    expect((blocked as ApiError).message).toContain("test list, dated 2026-11-01");
    const { rows } = await temp.db.query<{ n: string }>("SELECT count(*) AS n FROM payment_quotes WHERE sender_wallet = ANY($1)", [
      ["0x0000000000000000000000000000000000000000", publisher.toLowerCase(), listed.address.toLowerCase()],
    ]);
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it("createQuote(): unproven quotes a third party opens for a wallet never block the owner's proven quote; proven quotes have their own cap", async () => {
    const owner = fresh();
    const provenQuote = async (amountUsd: number) => {
      const message = proofMessage({ amountUnits: BigInt(Math.round(amountUsd * 1_000_000)), senderWallet: owner.address, timestamp: new Date() });
      return createQuote(deps, { amountUsd, senderWallet: owner.address, signature: await owner.signMessage({ message }), proofMessage: message });
    };
    // Anyone (no key of the owner) fills the owner's unproven slots.
    for (let i = 0; i < MAX_OPEN_QUOTES_PER_WALLET; i++) await createQuote(deps, { amountUsd: 0.5, senderWallet: owner.address });
    const refused = await createQuote(deps, { amountUsd: 5, senderWallet: owner.address }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, code: "too_many_open_quotes" });
    expect((refused as ApiError).message).toContain("quotes with a wallet proof (signature and proof_message");
    // The owner's quote with a wallet proof is still accepted, and then up to the proven cap.
    await expect(provenQuote(5)).resolves.toMatchObject({ proven: true, amount_usd: 5 });
    for (let i = 1; i < MAX_OPEN_QUOTES_PER_WALLET; i++) await expect(provenQuote((100 + i) / 100)).resolves.toMatchObject({ proven: true });
    const capped = await provenQuote(2).catch((e: unknown) => e);
    expect(capped).toMatchObject({ status: 429, code: "too_many_open_quotes" });
    expect((capped as ApiError).message).toContain(`already has ${MAX_OPEN_QUOTES_PER_WALLET} unpaid wallet-proven quotes`);
    expect(Number((capped as ApiError).headers?.["Retry-After"])).toBeGreaterThan(1700);
    const { rows } = await temp.db.query<{ proven: boolean; n: string }>(
      "SELECT proven, count(*) AS n FROM payment_quotes WHERE sender_wallet = $1 GROUP BY proven ORDER BY proven",
      [owner.address.toLowerCase()],
    );
    expect(rows.map((r) => [r.proven, Number(r.n)])).toEqual([[false, MAX_OPEN_QUOTES_PER_WALLET], [true, MAX_OPEN_QUOTES_PER_WALLET]]);
  });

  it("createQuote(): concurrent proven quotes stop exactly at the proven cap", async () => {
    const owner = fresh();
    const outcomes = await Promise.all(
      Array.from({ length: 3 * MAX_OPEN_QUOTES_PER_WALLET }, async (_, i) => {
        const amountUsd = (100 + i) / 100;
        const message = proofMessage({ amountUnits: BigInt(Math.round(amountUsd * 1_000_000)), senderWallet: owner.address, timestamp: new Date() });
        return createQuote(deps, { amountUsd, senderWallet: owner.address, signature: await owner.signMessage({ message }), proofMessage: message }).then(
          () => "ok",
          (e: unknown) => (e as ApiError).code,
        );
      }),
    );
    expect(outcomes.filter((o) => o === "ok").length).toBe(MAX_OPEN_QUOTES_PER_WALLET);
    expect(outcomes.filter((o) => o === "too_many_open_quotes").length).toBe(2 * MAX_OPEN_QUOTES_PER_WALLET);
  });

  it("createQuote() under a flood of 40 concurrent requests stores exactly MAX_OPEN_QUOTES_PER_WALLET open quotes per wallet, and the purge deletes old unpaid ones", async () => {
    const wallet = fresh();
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () => createQuote(deps, { amountUsd: 1, senderWallet: wallet.address }).then(() => "ok", (e: unknown) => (e as ApiError).code)),
    );
    const stored = async () =>
      Number((await temp.db.query<{ n: string }>("SELECT count(*) AS n FROM payment_quotes WHERE sender_wallet = $1", [wallet.address.toLowerCase()])).rows[0]?.n);
    const open = await stored();
    expect(open).toBe(MAX_OPEN_QUOTES_PER_WALLET);
    expect(outcomes.filter((o) => o === "ok").length).toBe(MAX_OPEN_QUOTES_PER_WALLET);
    expect(outcomes.filter((o) => o === "too_many_open_quotes").length).toBe(40 - MAX_OPEN_QUOTES_PER_WALLET);
    expect(await codeOf(createQuote(deps, { amountUsd: 1, senderWallet: wallet.address }))).toBe("429 too_many_open_quotes");

    // Kept QUOTE_RETENTION_DAYS after expiry, then deleted; consumed quotes are never purged.
    const later = (days: number) => new Date(Date.now() + 1800_000 + days * 86_400_000);
    expect(await purgeExpiredQuotes(temp.db, later(QUOTE_RETENTION_DAYS - 1))).toBe(0);
    expect(await stored()).toBe(open);
    expect(await purgeExpiredQuotes(temp.db, later(QUOTE_RETENTION_DAYS + 1))).toBeGreaterThanOrEqual(open);
    expect(await stored()).toBe(0);
  });
});
