/** What the payment functions need, wired once at startup (or by a test). */
import { ApiError } from "../registry/types.ts";
import type { Credits, Database } from "../state/types.ts";
import type { ChainReader } from "./chain.ts";
import type { PaymentConfig } from "./config.ts";
import type { SanctionsList } from "./sanctions.ts";

/** Dependencies of quotes, confirm, trial grants and balance. */
export interface PaymentDeps {
  db: Database;
  credits: Credits;
  config: PaymentConfig;
  /** Chain access; undefined when BASE_RPC_URL is not set. */
  chain: ChainReader | undefined;
  sanctions: SanctionsList;
  /** Clock (tests move it). */
  now?: () => Date;
  /**
   * The key payment tokens are derived with (payment-token.ts), so a confirm repeated after its answer was lost
   * gets the same token back; without it a minted token is random and such a repeat is 409 tx_already_used.
   */
  tokenKey?: () => Promise<Uint8Array>;
}

/** A configured payment setup: publisher wallet and chain present. */
export type ConfiguredDeps = PaymentDeps & { chain: ChainReader; config: PaymentConfig & { publisherWallet: `0x${string}` } };

/** Throw 503 payments_not_configured unless the publisher wallet and the chain are configured. */
export function requireConfigured(deps: PaymentDeps | undefined): ConfiguredDeps {
  if (!deps || !deps.config.configured || !deps.config.publisherWallet || !deps.chain) {
    throw new ApiError(503, "payments_not_configured", "payments are not configured on this server: PUBLISHER_WALLET and BASE_RPC_URL must both be set");
  }
  return deps as ConfiguredDeps;
}

/** The clock of a deps object. */
export function nowOf(deps: PaymentDeps): Date {
  return deps.now ? deps.now() : new Date();
}
