/**
 * Trial grants (POST /api/payment/trial-credits): a wallet signs the trial message (trial-message.ts) and,
 * once per wallet, gets TRIAL_CREDITS on a trial token that expires after TRIAL_DAYS. No chain transaction;
 * the wallet is screened (screening.ts); each message nonce works once.
 */
import { ApiError } from "../registry/types.ts";
import { nowOf, requireConfigured, type PaymentDeps } from "./deps.ts";
import { screenWallet } from "./screening.ts";
import { verifyPersonalSign } from "./signature.ts";
import { parseTrialMessage, TRIAL_WINDOW_SECONDS } from "./trial-message.ts";

/** Credits of a trial grant. */
export const TRIAL_CREDITS = 25;
/** Lifetime of a trial token. */
export const TRIAL_DAYS = 30;

/** The answer of a trial grant. */
export interface TrialGrant {
  ok: true;
  token: string;
  credits: number;
  expires_at: string;
  wallet: string;
  how_to_use: string;
}

/** Grant trial credits for a signed trial message; throws ApiError with the rule that failed. */
export async function grantTrial(depsIn: PaymentDeps | undefined, input: { message: string; signature: string }): Promise<TrialGrant> {
  const deps = requireConfigured(depsIn);
  const now = nowOf(deps);
  const { wallet, timestamp, nonce } = parseTrialMessage(input.message);
  const skew = Math.abs(now.getTime() - timestamp.getTime()) / 1000;
  if (skew > TRIAL_WINDOW_SECONDS) {
    throw new ApiError(400, "trial_message_expired", `the trial message timestamp ${timestamp.toISOString()} is ${Math.round(skew)} s from the server clock; at most ${TRIAL_WINDOW_SECONDS} s is accepted; sign a fresh message`);
  }
  if (!(await verifyPersonalSign(wallet.checksummed, input.message, input.signature))) {
    throw new ApiError(400, "invalid_signature", `signature is not an EIP-191 signature of the trial message by ${wallet.checksummed}`);
  }
  screenWallet(deps, wallet.checksummed, "no trial can be granted");
  const refuse = async (): Promise<never> => {
    const seen = await deps.db.query<{ nonce: string }>("SELECT nonce FROM trial_grants WHERE nonce = $1 OR wallet = $2", [nonce, wallet.lower]);
    if (seen.rows.some((r) => r.nonce === nonce)) throw new ApiError(409, "nonce_used", `the trial nonce ${nonce} was already used; sign a message with a new nonce`);
    throw new ApiError(409, "trial_already_granted", `wallet ${wallet.checksummed} already received its trial credits (one grant per wallet)`);
  };
  const pre = await deps.db.query("SELECT 1 FROM trial_grants WHERE nonce = $1 OR wallet = $2", [nonce, wallet.lower]);
  if (pre.rowCount > 0) return refuse();

  const expires = new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
  const conflict = new Error("trial grant conflict");
  let granted: string;
  try {
    granted = await deps.db.transaction(async (tx) => {
      const { token, id } = await deps.credits.mintToken(tx, { kind: "trial", wallet: wallet.lower, expiresAt: expires });
      const row = await tx.query(
        `INSERT INTO trial_grants (wallet, nonce, token_id, credits, signed_at, granted_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING wallet`,
        [wallet.lower, nonce, id, TRIAL_CREDITS, timestamp.toISOString(), now.toISOString(), expires.toISOString()],
      );
      // a concurrent grant for this wallet or nonce won the race: roll the minted token back
      if (row.rowCount === 0) throw conflict;
      await deps.credits.grant(tx, id, TRIAL_CREDITS, { reason: "trial", ref: `trial:${wallet.lower}` });
      return token;
    });
  } catch (err) {
    if (err === conflict) return refuse();
    throw err;
  }
  return {
    ok: true,
    token: granted,
    credits: TRIAL_CREDITS,
    expires_at: expires.toISOString(),
    wallet: wallet.checksummed,
    how_to_use: `Send "Authorization: Bearer ${granted}" on premium endpoints (/api/premium/...). Each call costs the credits its endpoint lists (cost_credits in GET /api/meta), nothing when the fair-trade rules say so; the token expires at ${expires.toISOString()}. Top it up with POST /api/payment/buy-credits and confirm with the same Authorization header.`,
  };
}
