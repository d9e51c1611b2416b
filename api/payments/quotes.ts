/**
 * Credit quotes (POST /api/payment/buy-credits): an amount in USDC base units bound to a sender wallet under
 * a fresh random memo (the nonce), valid QUOTE_TTL_SECONDS. A quote carrying a valid wallet proof is
 * `proven`; proven quotes outrank unproven ones at confirm (see confirm.ts).
 */
import { randomBytes } from "node:crypto";
import { ApiError } from "../registry/types.ts";
import { nowOf, requireConfigured, type PaymentDeps } from "./deps.ts";
import { MAX_AMOUNT_UNITS, MIN_AMOUNT_UNITS, quoteCredits } from "./pricing.ts";
import { verifyQuoteProof } from "./proof.ts";
import { AmountError, numberToUnits, unitsToUsd, unitsToUsdNumber } from "./units.ts";
import { screenWallet } from "./screening.ts";
import { parseWallet } from "./wallet.ts";
import { currencyOnNetwork, networkLabel, NETWORK_LABELS } from "./network.ts";

/** Quote lifetime. */
export const QUOTE_TTL_SECONDS = 1800;
/**
 * Unpaid, unexpired quotes one wallet may hold at once, counted apart for unproven and proven quotes (429
 * too_many_open_quotes beyond). Anyone can open unproven quotes for any wallet, so they must not use up the
 * wallet's own room: a quote with a valid wallet proof is only refused when the wallet holds this many open
 * proven quotes. A wallet thus stores at most twice this many open quotes.
 */
export const MAX_OPEN_QUOTES_PER_WALLET = 10;

/** A quote as buy-credits returns it. */
export interface Quote {
  ok: true;
  wallet: string;
  sender_wallet: string;
  memo: string;
  amount_usd: number;
  credits: number;
  currency: "USDC";
  network: (typeof NETWORK_LABELS)[number];
  contract: string;
  expires_at: string;
  ttl_seconds: number;
  next_step: string;
  proven: boolean;
}

/** Parse a request amount (JSON number) into base units within 0.50–10000 USD; ApiError 400 invalid_amount. */
export function parseAmount(amountUsd: number): bigint {
  let units: bigint;
  try {
    units = numberToUnits(amountUsd);
  } catch (err) {
    if (err instanceof AmountError) throw new ApiError(400, "invalid_amount", `amount_usd ${amountUsd}: ${err.message}`);
    throw err;
  }
  if (units < MIN_AMOUNT_UNITS || units > MAX_AMOUNT_UNITS) {
    throw new ApiError(400, "invalid_amount", `amount_usd ${amountUsd} is outside 0.50 to 10000`);
  }
  return units;
}

/** Create a quote: validate, check the optional wallet proof, store it, and describe the next step. */
export async function createQuote(
  depsIn: PaymentDeps | undefined,
  input: { amountUsd: number; senderWallet: string; signature?: string; proofMessage?: string },
): Promise<Quote> {
  const deps = requireConfigured(depsIn);
  const now = nowOf(deps);
  const units = parseAmount(input.amountUsd);
  const sender = parseWallet(input.senderWallet);
  screenWallet(deps, sender.checksummed, "no quote can be issued");
  let proofSignature: string | null = null;
  if (input.signature !== undefined) {
    if (!input.proofMessage) {
      throw new ApiError(400, "proof_message_required", "signature was given without proof_message, the exact text the wallet signed");
    }
    await verifyQuoteProof({ amountUnits: units, senderWallet: sender.checksummed, signature: input.signature, message: input.proofMessage, now });
    proofSignature = input.signature.toLowerCase();
  } else if (deps.config.requireWalletProof) {
    throw new ApiError(403, "proof_required", "this server requires a wallet proof on every quote: send signature and proof_message (see GET /api/payment/info)");
  } else {
    const earlier = await deps.db.query("SELECT 1 FROM payment_quotes WHERE sender_wallet = $1 AND proven LIMIT 1", [sender.lower]);
    if (earlier.rowCount > 0) {
      throw new ApiError(403, "proof_required", `wallet ${sender.checksummed} has used wallet proofs before, so its quotes need one: send signature and proof_message`);
    }
  }
  const { credits, rate } = quoteCredits(units);
  const nonce = randomBytes(16).toString("hex");
  const expires = new Date(now.getTime() + QUOTE_TTL_SECONDS * 1000);
  try {
    // One transaction per wallet at a time (advisory lock on the wallet): the open-quote count and the insert
    // cannot interleave, so a flood of concurrent requests stops exactly at the cap. Unproven and proven quotes
    // are capped apart, so unproven quotes that anyone may open for a wallet never block its owner's proven one.
    const proven = proofSignature !== null;
    await deps.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`quote:${sender.lower}`]);
      const open = await tx.query<{ n: string; first_expiry: Date | null }>(
        `SELECT count(*) AS n, min(expires_at) AS first_expiry FROM payment_quotes
         WHERE sender_wallet = $1 AND ${proven ? "proven" : "NOT proven"} AND consumed_at IS NULL AND expires_at > $2`,
        [sender.lower, now.toISOString()],
      );
      if (Number(open.rows[0]?.n ?? 0) >= MAX_OPEN_QUOTES_PER_WALLET) {
        const first = open.rows[0]?.first_expiry;
        const retry = first ? Math.max(1, Math.ceil((new Date(first).getTime() - now.getTime()) / 1000)) : QUOTE_TTL_SECONDS;
        const kind = proven ? "unpaid wallet-proven quotes" : "unpaid quotes without a wallet proof";
        const way = proven ? "" : "; quotes with a wallet proof (signature and proof_message, see GET /api/payment/info) are counted apart";
        throw new ApiError(
          429,
          "too_many_open_quotes",
          `wallet ${sender.checksummed} already has ${MAX_OPEN_QUOTES_PER_WALLET} ${kind} that have not expired; pay or wait for one of them (retry in ${retry} s)${way}`,
          { retry_after_seconds: retry },
          { "Retry-After": String(retry) },
        );
      }
      await tx.query(
        `INSERT INTO payment_quotes (nonce, sender_wallet, amount_units, credits, rate, proven, proof_signature, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [nonce, sender.lower, units.toString(), credits, rate, proven, proofSignature, now.toISOString(), expires.toISOString()],
      );
    });
  } catch (err) {
    if ((err as { code?: string }).code === "23505") {
      throw new ApiError(409, "proof_reused", "this wallet proof was already used for a quote; sign a new proof message");
    }
    throw err;
  }
  const publisher = deps.config.publisherWallet;
  return {
    ok: true,
    wallet: publisher,
    sender_wallet: sender.checksummed,
    memo: nonce,
    amount_usd: unitsToUsdNumber(units),
    credits,
    currency: "USDC",
    network: networkLabel(deps.config),
    contract: deps.config.usdcAddress,
    expires_at: expires.toISOString(),
    ttl_seconds: QUOTE_TTL_SECONDS,
    next_step:
      `Send ${unitsToUsd(units)} ${currencyOnNetwork(deps.config)} (contract ${deps.config.usdcAddress}) from ${sender.checksummed} to ${publisher}, ` +
      `then POST /api/payment/confirm with {"tx_hash": "<transaction hash>", "nonce": "${nonce}"} before ${expires.toISOString()}.`,
    proven: proofSignature !== null,
  };
}
