/**
 * The free previews of the premium verdicts (the contract's free preview endpoints): each preview's daily limit per
 * client and the premium endpoint it is a cut of. The one list the quota, the response helper and (later) the
 * preview routes read.
 */

/** One free preview. */
export interface PreviewSpec {
  /** The preview's path, also the quota's counter name. */
  route: string;
  /** Calls per client per UTC day. */
  limit: number;
  /** The premium endpoint that answers in full. */
  premiumEndpoint: string;
  /** What the preview shows, for documentation and the upgrade hint. */
  shows: string;
}

/** Where a client learns the price of credits and the wallet to pay. */
export const PAYMENT_INFO_PATH = "/api/payment/info";
/** Where a client buys credits. */
export const BUY_CREDITS_PATH = "/api/payment/buy-credits";

/** The previews of issue 13's verdicts, by route. */
export const PREVIEWS = {
  "/api/preview/routing": { route: "/api/preview/routing", limit: 5, premiumEndpoint: "/api/premium/routing", shows: "top-1 model only" },
  "/api/preview/route-verdict": {
    route: "/api/preview/route-verdict",
    limit: 10,
    premiumEndpoint: "/api/premium/route-verdict",
    shows: "top verdict only, no runners-up, no receipt",
  },
  "/api/preview/benchmark-trust-verdict": {
    route: "/api/preview/benchmark-trust-verdict",
    limit: 10,
    premiumEndpoint: "/api/premium/benchmark-trust-verdict",
    shows: "band and score only",
  },
  "/api/preview/failover-verdict": {
    route: "/api/preview/failover-verdict",
    limit: 10,
    premiumEndpoint: "/api/premium/failover-verdict",
    shows: "destination and reason only",
  },
  "/api/preview/provider-reliability-verdict": {
    route: "/api/preview/provider-reliability-verdict",
    limit: 10,
    premiumEndpoint: "/api/premium/provider-reliability-verdict",
    shows: "picks only, no ranking, no receipt",
  },
  "/api/preview/stack-safety-verdict": {
    route: "/api/preview/stack-safety-verdict",
    limit: 10,
    premiumEndpoint: "/api/premium/stack-safety-verdict",
    shows: "gate only, no CVE evidence, at most 3 packages",
  },
  "/api/preview/x402-settlement-verdict": {
    route: "/api/preview/x402-settlement-verdict",
    limit: 10,
    premiumEndpoint: "/api/premium/x402-settlement-verdict",
    shows: "classifications only",
  },
  "/api/preview/sec/filings/guidance-delta": {
    route: "/api/preview/sec/filings/guidance-delta",
    limit: 10,
    premiumEndpoint: "/api/premium/sec/filings/guidance-delta",
    shows: "summary only, quotes redacted",
  },
} as const satisfies Record<string, PreviewSpec>;

/** The route of a declared preview. */
export type PreviewRoute = keyof typeof PREVIEWS;
