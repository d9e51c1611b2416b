/** Wire the payment deps at startup: config from the environment, the sanctions list, and the chain client. */
import type { Credits, Database } from "../state/types.ts";
import { createChainReader } from "./chain.ts";
import { loadPaymentConfig } from "./config.ts";
import type { PaymentDeps } from "./deps.ts";
import { processReceiptKey } from "../billing/receipt-key.ts";
import { paymentTokenKey } from "./payment-token.ts";
import { loadSanctions } from "./sanctions.ts";

/** Build PaymentDeps from the environment (payments stay off, answering 503, without PUBLISHER_WALLET or BASE_RPC_URL). */
export async function setupPayments(input: { db: Database; credits: Credits; env?: Record<string, string | undefined> }): Promise<PaymentDeps> {
  const config = loadPaymentConfig(input.env ?? process.env);
  return {
    db: input.db,
    credits: input.credits,
    config,
    chain: config.rpcUrl ? createChainReader(config.rpcUrl) : undefined,
    sanctions: await loadSanctions(config.sanctionsList),
    tokenKey: async () => paymentTokenKey((await processReceiptKey(input.env ?? process.env)).seed),
  };
}
