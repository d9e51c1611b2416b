/**
 * Wallet screening, the same at every door (trial-credits, buy-credits, confirm): the zero address and the
 * publisher's own wallet are refused with 400 wallet_not_allowed; a wallet on the sanctions screening list
 * with 403 wallet_blocked naming the list and its date. Policy: api/security.md.
 */
import { zeroAddress } from "viem";
import { ApiError } from "../registry/types.ts";
import type { PaymentDeps } from "./deps.ts";
import type { SanctionsList } from "./sanctions.ts";

/** The 403 for a listed wallet; `what` says what was refused. */
export function walletBlocked(list: SanctionsList, wallet: string, what: string): ApiError {
  return new ApiError(
    403,
    "wallet_blocked",
    `wallet ${wallet} is on the sanctions screening list (${list.source}${list.date ? `, dated ${list.date}` : ""}); ${what}`,
    { list: list.source, list_date: list.date },
  );
}

/** Throw unless `wallet` (any case) may pay or receive credits; `what` completes the refusal message. */
export function screenWallet(deps: Pick<PaymentDeps, "config" | "sanctions">, wallet: string, what: string): void {
  const lower = wallet.toLowerCase();
  if (lower === zeroAddress) {
    throw new ApiError(400, "wallet_not_allowed", `the zero address ${zeroAddress} cannot hold or send USDC; use the wallet you pay from`);
  }
  const publisher = deps.config.publisherWallet?.toLowerCase();
  if (publisher && lower === publisher) {
    throw new ApiError(400, "wallet_not_allowed", `wallet ${wallet} is this service's own receiving wallet; pay from another wallet`);
  }
  if (deps.sanctions.has(lower)) throw walletBlocked(deps.sanctions, wallet, what);
}
