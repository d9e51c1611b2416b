/**
 * Confirm a payment (POST /api/payment/confirm, and the x402 retry with X-Payment-Tx + X-Payment-Quote):
 * check the quote, verify the USDC transfer on chain, then in ONE transaction consume the quote, record the
 * payment (tx hash UNIQUE), mint or top up the token, grant the credits and, on a wallet's first payment of
 * at least the smallest quotable amount (USD 0.50), the bonus (wallet UNIQUE). Concurrent confirms of one payment end with one mint and one bonus.
 */
import { clip } from "../http/clip.ts";
import { ApiError } from "../registry/types.ts";
import type { Sql, TokenInfo } from "../state/types.ts";
import { nowOf, requireConfigured, type PaymentDeps } from "./deps.ts";
import { creditsForPayment, FIRST_PAYMENT_BONUS, MIN_AMOUNT_UNITS } from "./pricing.ts";
import { screenWallet, walletBlocked } from "./screening.ts";
import { unitsToUsdNumber } from "./units.ts";
import { CHAIN_CLOCK_SKEW_SECONDS, verifyTransfer } from "./verify-transfer.ts";
import { paymentToken } from "./payment-token.ts";
import { hashToken } from "../billing/credits.ts";

/**
 * After its expiry a quote still confirms for this long, for a payment mined inside the window that is still
 * gathering confirmations; the block must lie inside the window in any case.
 */
export const CONFIRM_GRACE_SECONDS = 600;

/** Result of a successful confirm. */
export interface ConfirmResult {
  /** The bearer token: newly minted, or the one that was topped up. */
  token: string;
  tokenId: string;
  /** Credits added by this payment, bonus included. */
  credits: number;
  balance: number;
  txAmountUsd: number;
  /** `bundle` when a discounted bundle applied, else `base`. */
  rate: "base" | "bundle";
  welcomeBonusCredits?: number;
  isFirstPayment?: boolean;
  senderWallet: string;
  txHash: string;
  /** True when this is the answer of an earlier confirm of the same payment and memo, repeated (nothing moved now). */
  replayed?: boolean;
}

interface QuoteRow extends Record<string, unknown> {
  nonce: string;
  sender_wallet: string;
  amount_units: string;
  credits: string;
  rate: "bundle" | "quote";
  proven: boolean;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

/** Normalize a tx hash: trim, lower case, 0x added; ApiError 400 invalid_tx_hash otherwise. */
export function normalizeTxHash(value: string): `0x${string}` {
  const v = value.trim().toLowerCase();
  const hex = v.startsWith("0x") ? v.slice(2) : v;
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new ApiError(400, "invalid_tx_hash", `tx_hash "${clip(value)}" is not a transaction hash (64 hex characters, 0x optional)`);
  return `0x${hex}`;
}

const usedTx = (txHash: string) => new ApiError(409, "tx_already_used", `transaction ${txHash} was already used to buy credits`);

async function txUsed(sql: Sql, txHash: string): Promise<boolean> {
  const found = await sql.query("SELECT 1 FROM payments WHERE tx_hash = $1 UNION ALL SELECT 1 FROM payment_reviews WHERE tx_hash = $1", [txHash]);
  return found.rowCount > 0;
}

/**
 * A verified payment from a listed wallet: consume its quote and record the payment in payment_reviews (no
 * token, no credits), once; a concurrent or repeated confirm finds the quote used.
 */
async function holdForReview(
  deps: PaymentDeps,
  r: { nonce: string; txHash: string; quote: QuoteRow; units: bigint; blockNumber: bigint; now: Date },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const consumed = await tx.query(
      "UPDATE payment_quotes SET consumed_at = $2, tx_hash = $3 WHERE nonce = $1 AND consumed_at IS NULL RETURNING nonce",
      [r.nonce, r.now.toISOString(), r.txHash],
    );
    if (consumed.rowCount === 0) throw new ApiError(409, "quote_used", `the quote ${r.nonce} was already confirmed; create a new quote`);
    await tx.query(
      `INSERT INTO payment_reviews (tx_hash, quote_nonce, sender_wallet, amount_units, reason, list_source, list_date, block_number, recorded_at)
       VALUES ($1, $2, $3, $4, 'sanctions_list', $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [r.txHash, r.nonce, r.quote.sender_wallet, r.units.toString(), deps.sanctions.source, deps.sanctions.date, r.blockNumber.toString(), r.now.toISOString()],
    );
  });
}

/** Confirm a paid quote and credit the payer; throws ApiError with the rule that failed. */
export async function confirmPayment(
  depsIn: PaymentDeps | undefined,
  input: { txHash: string | undefined; nonce: string | undefined; bearer?: string },
): Promise<ConfirmResult> {
  const deps = requireConfigured(depsIn);
  if (!input.nonce || !input.nonce.trim()) {
    throw new ApiError(400, "nonce_required", "nonce is required: send the memo of the quote from POST /api/payment/buy-credits");
  }
  if (!input.txHash) throw new ApiError(400, "invalid_tx_hash", "tx_hash is required");
  const txHash = normalizeTxHash(input.txHash);
  const nonce = input.nonce.trim().toLowerCase();
  const now = nowOf(deps);

  const found = /^[0-9a-f]{32}$/.test(nonce)
    ? await deps.db.query<QuoteRow>("SELECT * FROM payment_quotes WHERE nonce = $1", [nonce])
    : { rows: [] as QuoteRow[] };
  const quote = found.rows[0];
  if (!quote) throw new ApiError(404, "quote_not_found", `no quote has the memo "${clip(input.nonce)}"; create one with POST /api/payment/buy-credits`);

  let topUp: TokenInfo | undefined;
  if (input.bearer !== undefined) {
    topUp = await deps.credits.tokenByBearer(input.bearer);
    if (!topUp) throw new ApiError(401, "invalid_token", "the bearer token to top up is unknown; omit Authorization to mint a new token");
  }
  const derived = !topUp && deps.tokenKey ? paymentToken(await deps.tokenKey(), txHash, nonce) : undefined;
  if (await txUsed(deps.db, txHash)) {
    // A used payment may be this very confirm repeated after its answer was lost: answer it again.
    const replay = await earlierConfirm(deps, { txHash, nonce, bearer: input.bearer, topUp, derived });
    if (replay) return replay;
    throw usedTx(txHash);
  }
  if (quote.consumed_at) throw new ApiError(409, "quote_used", `the quote ${nonce} was already confirmed; create a new quote`);
  const expiresAt = new Date(quote.expires_at);
  if (now.getTime() > expiresAt.getTime() + CONFIRM_GRACE_SECONDS * 1000) {
    throw new ApiError(410, "quote_expired", `the quote ${nonce} expired at ${expiresAt.toISOString()}; create a new quote`);
  }

  const listed = deps.sanctions.has(quote.sender_wallet);
  if (!listed) screenWallet(deps, quote.sender_wallet, "no credits can be granted");

  if (topUp) {
    if (topUp.expiresAt && new Date(topUp.expiresAt).getTime() <= now.getTime()) {
      throw new ApiError(401, "token_expired", `the bearer token expired at ${topUp.expiresAt}; omit Authorization to mint a new token`);
    }
  }

  const transfer = await verifyTransfer(deps.chain, txHash, {
    chainId: deps.config.chainId,
    usdc: deps.config.usdcAddress,
    publisher: deps.config.publisherWallet,
    sender: quote.sender_wallet,
    windowStart: new Date(quote.created_at),
    windowEnd: expiresAt,
    minConfirmations: deps.config.minConfirmations,
  });
  if (listed) {
    await holdForReview(deps, { nonce, txHash, quote, units: transfer.units, blockNumber: transfer.blockNumber, now });
    throw walletBlocked(deps.sanctions, quote.sender_wallet, "no credits were granted; the payment is recorded for refund review");
  }
  const { credits, rate } = creditsForPayment(transfer.units, {
    units: BigInt(quote.amount_units),
    credits: Number(quote.credits),
    rate: quote.rate,
  });

  return deps.db.transaction(async (tx) => {
    const consumed = await tx.query(
      "UPDATE payment_quotes SET consumed_at = $2, tx_hash = $3 WHERE nonce = $1 AND consumed_at IS NULL RETURNING nonce",
      [nonce, now.toISOString(), txHash],
    );
    if (consumed.rowCount === 0) {
      if (await txUsed(tx, txHash)) throw usedTx(txHash);
      throw new ApiError(409, "quote_used", `the quote ${nonce} was already confirmed; create a new quote`);
    }
    if (!quote.proven) {
      // a proven quote of the same wallet whose window holds this payment outranks this unproven one (its window
      // as verifyTransfer reads it: creation and expiry, give or take the chain's clock skew)
      const rival = await tx.query(
        `SELECT 1 FROM payment_quotes
          WHERE sender_wallet = $1 AND proven AND consumed_at IS NULL AND nonce <> $2
            AND created_at <= $3::timestamptz + make_interval(secs => $4 + 1) AND expires_at >= $3::timestamptz - make_interval(secs => $4)
          LIMIT 1`,
        [quote.sender_wallet, nonce, transfer.blockTime.toISOString(), CHAIN_CLOCK_SKEW_SECONDS],
      );
      if (rival.rowCount > 0) {
        throw new ApiError(403, "proof_required", `a wallet-proven quote of ${quote.sender_wallet} covers this payment; confirm with that quote's memo`);
      }
    }

    let token: string;
    let tokenId: string;
    if (topUp) {
      token = input.bearer!;
      tokenId = topUp.id;
      // purchased credits never expire: a topped-up trial token becomes a paid token
      await tx.query("UPDATE tokens SET kind = 'paid', expires_at = NULL WHERE id = $1 AND kind = 'trial'", [tokenId]);
    } else {
      ({ token, id: tokenId } = await deps.credits.mintToken(tx, { kind: "paid", wallet: quote.sender_wallet, ...(derived ? { token: derived } : {}) }));
    }

    const inserted = await tx.query(
      `INSERT INTO payments (tx_hash, quote_nonce, sender_wallet, amount_units, credits, rate, token_id, block_number, block_time, confirmed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING tx_hash`,
      [txHash, nonce, quote.sender_wallet, transfer.units.toString(), credits, rate, tokenId, transfer.blockNumber.toString(), transfer.blockTime.toISOString(), now.toISOString()],
    );
    if (inserted.rowCount === 0) throw usedTx(txHash);

    let balance: number | undefined;
    if (credits > 0) balance = await deps.credits.grant(tx, tokenId, credits, { reason: "purchase", ref: `payment:${txHash}` });

    // Only a payment of at least the smallest quotable amount earns the bonus (and uses the wallet's one
    // bonus up): a dust transfer must not turn gas into a dollar of credits.
    const bonus = transfer.units >= MIN_AMOUNT_UNITS
      ? await tx.query(
          `INSERT INTO first_payment_bonuses (wallet, tx_hash, token_id, credits, granted_at)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (wallet) DO NOTHING RETURNING wallet`,
          [quote.sender_wallet, txHash, tokenId, FIRST_PAYMENT_BONUS, now.toISOString()],
        )
      : { rowCount: 0 };
    const first = bonus.rowCount > 0;
    if (first) balance = await deps.credits.grant(tx, tokenId, FIRST_PAYMENT_BONUS, { reason: "bonus", ref: `first-payment:${quote.sender_wallet}` });
    if (balance === undefined) {
      const row = await tx.query<{ balance: string }>("SELECT balance FROM tokens WHERE id = $1", [tokenId]);
      balance = Number(row.rows[0]?.balance ?? 0);
    }
    return {
      token,
      tokenId,
      credits: credits + (first ? FIRST_PAYMENT_BONUS : 0),
      balance,
      txAmountUsd: unitsToUsdNumber(transfer.units),
      rate,
      ...(first ? { welcomeBonusCredits: FIRST_PAYMENT_BONUS, isFirstPayment: true } : {}),
      senderWallet: quote.sender_wallet,
      txHash,
    };
  });
}

/**
 * The answer of an earlier confirm of this payment with this memo, for a client whose first answer was lost:
 * the same token (the one topped up, with that bearer; the one minted, re-derived from the payment), the credits
 * that payment granted, the balance now, and `replayed`. Null when there is none to give (no such payment, another
 * memo or bearer, or a token minted before tokens were derived): the caller goes on and answers 409.
 */
async function earlierConfirm(
  deps: PaymentDeps,
  r: { txHash: string; nonce: string; bearer: string | undefined; topUp: TokenInfo | undefined; derived: string | undefined },
): Promise<ConfirmResult | null> {
  const { rows } = await deps.db.query<{ token_id: string; token_hash: string; balance: string; credits: string; amount_units: string; rate: "base" | "bundle"; sender_wallet: string; bonus: string | null }>(
    `SELECT p.token_id, t.token_hash, t.balance, p.credits, p.amount_units, p.rate, p.sender_wallet, b.credits AS bonus
       FROM payments p JOIN tokens t ON t.id = p.token_id LEFT JOIN first_payment_bonuses b ON b.tx_hash = p.tx_hash
      WHERE p.tx_hash = $1 AND p.quote_nonce = $2`,
    [r.txHash, r.nonce],
  );
  const row = rows[0];
  if (!row) return null;
  const token = r.topUp ? (r.topUp.id === row.token_id ? r.bearer! : null) : r.derived !== undefined && hashToken(r.derived) === row.token_hash ? r.derived : null;
  if (token === null) return null;
  const bonus = row.bonus === null ? 0 : Number(row.bonus);
  return {
    token,
    tokenId: row.token_id,
    credits: Number(row.credits) + bonus,
    balance: Number(row.balance),
    txAmountUsd: unitsToUsdNumber(BigInt(row.amount_units)),
    rate: row.rate,
    ...(bonus > 0 ? { welcomeBonusCredits: bonus, isFirstPayment: true } : {}),
    senderWallet: row.sender_wallet,
    txHash: r.txHash,
    replayed: true,
  };
}
