/**
 * The trial request message a wallet signs (EIP-191):
 *
 *   agentfeed trial credits request
 *
 *   wallet: 0x…
 *   timestamp: 2025-01-01T12:00:00.000Z
 *   nonce: 0123456789abcdef
 *
 * Exactly these five lines ("\n" separated; "\r\n" accepted), the nonce 16 lower- or upper-case hex characters.
 */
import { ApiError } from "../registry/types.ts";
import { parseWallet, type Wallet } from "./wallet.ts";
import { clip } from "../http/clip.ts";
import { zonedInstant } from "./message-time.ts";

/** The fixed first line of a trial request. */
export const TRIAL_STATEMENT = "agentfeed trial credits request";
/** How far (either way) a trial timestamp may be from the server clock. */
export const TRIAL_WINDOW_SECONDS = 600;

/** Build the trial message for a wallet (what a client signs). */
export function trialMessage(input: { wallet: string; timestamp: Date; nonce: string }): string {
  return `${TRIAL_STATEMENT}\n\nwallet: ${input.wallet}\ntimestamp: ${input.timestamp.toISOString()}\nnonce: ${input.nonce}`;
}

/** Fields of a trial message; throws ApiError 400 invalid_trial_message naming what is wrong. */
export function parseTrialMessage(message: string): { wallet: Wallet; timestamp: Date; nonce: string } {
  const lines = message.replace(/\r\n/g, "\n").split("\n");
  const bad = (why: string) =>
    new ApiError(400, "invalid_trial_message", `trial message ${why}; expected "${TRIAL_STATEMENT}", a blank line, then wallet:, timestamp:, nonce: lines`);
  if (lines.length !== 5 || lines[0] !== TRIAL_STATEMENT || lines[1] !== "") throw bad("has the wrong shape");
  const wallet = /^wallet: (\S+)$/.exec(lines[2] ?? "")?.[1];
  const ts = /^timestamp: (\S+)$/.exec(lines[3] ?? "")?.[1];
  const nonce = /^nonce: ([0-9a-fA-F]{16})$/.exec(lines[4] ?? "")?.[1];
  if (!wallet) throw bad("has no wallet line");
  if (!ts) throw bad("has no timestamp line");
  if (!nonce) throw bad("has no nonce line of 16 hex characters");
  const timestamp = zonedInstant(ts);
  if (!timestamp) throw bad(`has an unusable timestamp "${clip(ts, 40)}" (ISO 8601 with its zone, such as 2026-11-23T12:00:00Z)`);
  return { wallet: parseWallet(wallet, "wallet", "invalid_trial_message"), timestamp, nonce: nonce.toLowerCase() };
}
