/**
 * The wallet proof of a quote (front-running guard): an EIP-191 personal_sign by sender_wallet over
 *
 *   agentfeed quote
 *   amount_usd: 5.00
 *   sender_wallet: 0x…
 *   timestamp: 2025-01-01T12:00:00.000Z
 *
 * The amount is compared as base units (so "5", "5.0" and "5.00" all match 5 USD), the wallet case-insensitively,
 * and the timestamp must lie within PROOF_WINDOW_SECONDS of the server clock.
 */
import { ApiError } from "../registry/types.ts";
import { verifyPersonalSign } from "./signature.ts";
import { AmountError, decimalToUnits, unitsToUsd } from "./units.ts";
import { clip } from "../http/clip.ts";
import { zonedInstant } from "./message-time.ts";

/** First line of a quote proof message. */
export const PROOF_STATEMENT = "agentfeed quote";
/** How far (either way) a proof timestamp may be from the server clock. */
export const PROOF_WINDOW_SECONDS = 600;

/** Build the proof message a wallet signs for a quote. */
export function proofMessage(input: { amountUnits: bigint; senderWallet: string; timestamp: Date }): string {
  return [
    PROOF_STATEMENT,
    `amount_usd: ${unitsToUsd(input.amountUnits)}`,
    `sender_wallet: ${input.senderWallet}`,
    `timestamp: ${input.timestamp.toISOString()}`,
  ].join("\n");
}

/**
 * Check a quote proof: `message` is the exact text the wallet signed (sent as proof_message); its amount and
 * wallet must equal the request's, its timestamp be within the window, and the signature be the wallet's.
 */
export async function verifyQuoteProof(input: {
  amountUnits: bigint;
  senderWallet: `0x${string}`;
  signature: string;
  message: string;
  now: Date;
}): Promise<void> {
  const fields = parseProofMessage(input.message);
  if (fields.amountUnits !== input.amountUnits) {
    throw new ApiError(400, "proof_mismatch", `the proof message says amount_usd ${unitsToUsd(fields.amountUnits)} but the request asks for ${unitsToUsd(input.amountUnits)}`);
  }
  if (fields.wallet !== input.senderWallet.toLowerCase()) {
    throw new ApiError(400, "proof_mismatch", `the proof message names wallet ${fields.wallet}, not sender_wallet ${input.senderWallet}`);
  }
  const skew = Math.abs(input.now.getTime() - fields.timestamp.getTime()) / 1000;
  if (skew > PROOF_WINDOW_SECONDS) {
    throw new ApiError(400, "proof_expired", `the proof timestamp ${fields.timestamp.toISOString()} is ${Math.round(skew)} s from the server clock; at most ${PROOF_WINDOW_SECONDS} s is accepted`);
  }
  if (!(await verifyPersonalSign(input.senderWallet, input.message, input.signature))) {
    throw new ApiError(400, "invalid_signature", `signature is not an EIP-191 signature of the proof message by ${input.senderWallet}`);
  }
}

/** Fields of a proof message; throws ApiError 400 invalid_proof_message when its shape is wrong. */
export function parseProofMessage(message: string): { amountUnits: bigint; wallet: string; timestamp: Date } {
  const lines = message.replace(/\r\n/g, "\n").split("\n");
  const bad = (why: string) =>
    new ApiError(400, "invalid_proof_message", `proof message ${why}; expected "${PROOF_STATEMENT}", then lines amount_usd, sender_wallet, timestamp`);
  if (lines.length !== 4 || lines[0] !== PROOF_STATEMENT) throw bad("has the wrong shape");
  const amount = /^amount_usd: (\S+)$/.exec(lines[1] ?? "")?.[1];
  const wallet = /^sender_wallet: (0x[0-9a-fA-F]{40})$/.exec(lines[2] ?? "")?.[1];
  const ts = /^timestamp: (\S+)$/.exec(lines[3] ?? "")?.[1];
  if (!amount || !wallet || !ts) throw bad("misses a field");
  let amountUnits: bigint;
  try {
    amountUnits = decimalToUnits(amount);
  } catch (err) {
    if (err instanceof AmountError) throw bad(`has an unusable amount_usd "${amount}"`);
    throw err;
  }
  const timestamp = zonedInstant(ts);
  if (!timestamp) throw bad(`has an unusable timestamp "${clip(ts, 40)}" (ISO 8601 with its zone, such as 2026-11-23T12:00:00Z)`);
  return { amountUnits, wallet: wallet.toLowerCase(), timestamp };
}
