/**
 * The token a confirmed payment mints, derived from the payment rather than drawn at random: HMAC-SHA256 of the
 * transaction hash and the quote's memo under a key only this service holds (HKDF of the receipt signing seed,
 * so instances sharing RECEIPT_SIGNING_KEY derive the same). The same confirm repeated after its answer was lost
 * can then be answered with the same token although tokens are stored only as hashes: whoever holds the memo of
 * the quote that was paid gets the token that payment bought, and nothing else (no credits move again).
 */
import { createHmac, hkdfSync } from "node:crypto";
import { TOKEN_PREFIX } from "../billing/credits.ts";

/** The HKDF `info` that separates this key from every other use of the seed. */
const KEY_INFO = "agentfeed payment token v1";

/** The derivation key of payment tokens from a 32-byte receipt signing seed. */
export function paymentTokenKey(seed: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", seed, new Uint8Array(0), KEY_INFO, 32));
}

/** The token minted for the payment `txHash` (0x + 64 lower-case hex) against the quote memo `nonce`. */
export function paymentToken(key: Uint8Array, txHash: string, nonce: string): string {
  return `${TOKEN_PREFIX}${createHmac("sha256", key).update(`${txHash}\n${nonce}`).digest("hex")}`;
}
