/**
 * The fair-trade rules: every way a premium call ends without a charge, each with its reason code. The
 * wrapper (premium.ts) applies them, /.well-known/agent-fair-trade.json and the README publish this same list.
 */

/** Reason codes the wrapper itself uses when it charges nothing. */
export const NO_CHARGE_REASONS = {
  server_error: "server_error",
  schema_failure: "schema_failure",
  stale_data: "stale_data",
  client_error: "client_error",
  breaker_open: "breaker_open",
  snapshot_unavailable: "snapshot_unavailable",
} as const;

/** One published no-charge rule. */
export interface NoChargeRule {
  reason: string;
  when: string;
  /** What the client gets. */
  answer: string;
  /** Whether a credit was held first and given back; always false since a paid call writes nothing before its handler ran (one durable write, after). */
  held: boolean;
}

/** Every rule the wrapper applies, in the order it checks them. */
export const NO_CHARGE_RULES: readonly NoChargeRule[] = [
  {
    reason: "breaker_open",
    when: "a per-token circuit breaker is open (the same request repeated too often, or too many charged calls a minute)",
    answer: "429 breaker_open with Retry-After",
    held: false,
  },
  {
    reason: "snapshot_unavailable",
    when: "a snapshot the endpoint reads has not been produced or cannot be read",
    answer: "503 snapshot_unavailable",
    held: false,
  },
  {
    reason: "client_error",
    when: "the endpoint rejects the input after the handler ran (an ApiError with a 4xx status: unknown subject, bad combination of parameters)",
    answer: "the 4xx error",
    held: false,
  },
  {
    reason: "server_error",
    when: "the endpoint fails: any exception, or any 5xx answer",
    answer: "the 5xx error (500 internal_error for an unexpected exception)",
    held: false,
  },
  {
    reason: "schema_failure",
    when: "the endpoint's answer does not match its own published response schema",
    answer: "500 schema_failure (the malformed body is never sent)",
    held: false,
  },
  {
    reason: "stale_data",
    when: "a snapshot the endpoint reads is older than its freshness SLA: the endpoint's for the snapshots it is keyed to, the snapshot feed's own for the others and when the endpoint declares none (manifest lastSuccess + slaSeconds; listed per endpoint)",
    answer: "200 with the data, billing.credits_charged 0, billing.no_charge_reason stale_data and a receipt",
    held: false,
  },
  {
    reason: "<endpoint outcome>",
    when: "an outcome the endpoint documents as free (out of coverage, untracked subject, no data …); listed per endpoint",
    answer: "200 with the answer, billing.credits_charged 0, billing.no_charge_reason set to the outcome code and a receipt",
    held: false,
  },
];
