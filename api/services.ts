/**
 * The process's stateful services, set once by api/server.ts at start: the payment dependencies the payment
 * routes answer with. Routes read them through a getter so the one route registry serves both a full
 * instance (state and payments wired) and a data-only one (payment routes answer 503).
 */
import type { PaymentDeps } from "./payments/deps.ts";

let payments: PaymentDeps | undefined;

/** Set (or clear) the payment dependencies of this process. */
export function setPaymentServices(deps: PaymentDeps | undefined): void {
  payments = deps;
}

/** The payment dependencies of this process, when state is wired. */
export function paymentServices(): PaymentDeps | undefined {
  return payments;
}
