/** Wire the premium wrapper at startup from the state database, the credit ledger and the payment deps. */
import { confirmPayment } from "../payments/confirm.ts";
import type { PaymentDeps } from "../payments/deps.ts";
import type { StartedExactPayments } from "../payments/x402-exact-setup.ts";
import type { Credits, Database } from "../state/types.ts";
import { Breakers, breakerThresholdsFromEnv } from "./breakers.ts";
import { createPremiumGateway, type PremiumGateway } from "./premium.ts";
import { processReceiptKey } from "./receipt-key.ts";
import { paymentTermsFrom } from "./x402.ts";

/** The premium wrapper for this process: the process receipt key, payment terms and the x402 retry from `payments`. */
export function setupPremium(input: {
  db: Database;
  credits: Credits;
  payments: PaymentDeps;
  /** Standard x402 exact payments, when a settler or facilitator is configured (api/payments/x402-exact-setup.ts). */
  exact?: StartedExactPayments;
  onServerError?: (error: unknown, where: string) => void;
}): PremiumGateway {
  const base = paymentTermsFrom(input.payments.config);
  const terms = base && input.exact ? { ...base, tokenDomain: input.exact.tokenDomain, acceptsExact: true } : base;
  return createPremiumGateway({
    db: input.db,
    credits: input.credits,
    receiptKey: () => processReceiptKey(),
    payments: terms,
    confirmX402: terms ? (retry) => confirmPayment(input.payments, retry) : undefined,
    ...(terms && input.exact ? { exact: input.exact.exact } : {}),
    breakers: new Breakers({ thresholds: breakerThresholdsFromEnv() }),
    onServerError: input.onServerError,
  });
}
