/**
 * The 402 challenge of a premium call without a valid credential: an x402 v2 PaymentRequired object (in the
 * body and, base64 JSON, in the PAYMENT-REQUIRED header) plus this service's own quote flow, which is how a
 * client actually pays here: buy-credits → USDC transfer → retry with X-Payment-Tx / X-Payment-Quote.
 */
import type { PaymentConfig } from "../payments/config.ts";
import { MIN_AMOUNT_UNITS } from "../payments/pricing.ts";
import { unitsToUsd, unitsToUsdNumber } from "../payments/units.ts";
import { TEST_CHAIN_WARNING } from "../payments/network.ts";
import { TEST_TOKEN } from "../payments/test-chain/start.ts";

/** USDC base units per credit at the base rate (1 credit = USD 0.02). */
export const UNITS_PER_CREDIT = 20_000n;
/** How long the payer has: the quote lifetime. */
export const PAYMENT_TIMEOUT_SECONDS = 1800;
/** Headers of the x402 retry. */
export const X402_HEADERS = {
  tx: "X-Payment-Tx",
  quote: "X-Payment-Quote",
  token: "X-Payment-Token",
  required: "PAYMENT-REQUIRED",
  /** x402 v2: the client's signed payment payload, and the server's settlement answer. */
  signature: "PAYMENT-SIGNATURE",
  response: "PAYMENT-RESPONSE",
} as const;

/** Where and in what a premium call is paid; null when payments are off on this instance. */
export interface PaymentTerms {
  chainId: number;
  /** USDC contract address. */
  asset: string;
  /** Publisher wallet. */
  payTo: string;
  /** True on the server's local test chain (test money): every 402 then says so. */
  testChain?: boolean;
  /** The token's EIP-712 domain as read from the contract (name, version), for the `exact` scheme's `extra`. */
  tokenDomain?: { name: string; version: string };
  /** True when a signed `exact` payment in PAYMENT-SIGNATURE is accepted (a settler or facilitator is configured). */
  acceptsExact?: boolean;
}

/** Payment terms from the payments configuration (null unless PUBLISHER_WALLET and BASE_RPC_URL are set). */
export function paymentTermsFrom(config: PaymentConfig): PaymentTerms | null {
  if (!config.configured || !config.publisherWallet) return null;
  return { chainId: config.chainId, asset: config.usdcAddress, payTo: config.publisherWallet, ...(config.testChain ? { testChain: true } : {}) };
}

/** EIP-712 domain name of the USDC contract: "USDC" on Base Sepolia, "USD Coin" on Base mainnet and others. */
export function usdcDomainName(chainId: number): string {
  return chainId === 84532 ? "USDC" : "USD Coin";
}

/** One x402 v2 payment requirement. */
export interface PaymentRequirement {
  scheme: "exact";
  /** CAIP-2 chain id. */
  network: `${string}:${string}`;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

/** The x402 v2 PaymentRequired object. */
export interface PaymentRequired {
  x402Version: 2;
  error: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: PaymentRequirement[];
  extensions: Record<string, unknown>;
}

/** Input of {@link paymentChallenge}. */
export interface ChallengeInput {
  /** Full URL of the call (PUBLIC_BASE_URL + path + query). */
  resourceUrl: string;
  /** PUBLIC_BASE_URL, no trailing slash. */
  baseUrl: string;
  summary: string;
  cost: number;
  terms: PaymentTerms | null;
  /** Why there is no credential (missing, unknown or expired token). */
  why: string;
}

/** The x402 `exact` requirement of a call costing `cost` credits: its price in USDC base units to the publisher. */
export function paymentRequirement(terms: PaymentTerms, cost: number): PaymentRequirement {
  return {
    scheme: "exact",
    network: `eip155:${terms.chainId}`,
    amount: (BigInt(cost) * UNITS_PER_CREDIT).toString(),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    extra: terms.tokenDomain ?? { name: terms.testChain === true ? TEST_TOKEN.name : usdcDomainName(terms.chainId), version: "2" },
  };
}

/** The 402 body and PAYMENT-REQUIRED header value for a premium call. */
export function paymentChallenge(input: ChallengeInput): { body: Record<string, unknown>; header: string } {
  const { terms, cost, baseUrl } = input;
  const usd = unitsToUsd(BigInt(cost) * UNITS_PER_CREDIT);
  const test = terms?.testChain === true;
  const required: PaymentRequired = {
    x402Version: 2,
    error: terms
      ? `${test ? `${TEST_CHAIN_WARNING} ` : ""}payment required: send Authorization: Bearer <token>, ${terms.acceptsExact ? `or pay this call with the exact scheme below (a signed EIP-3009 authorization in ${X402_HEADERS.signature}), ` : ""}or pay and retry with ${X402_HEADERS.tx} and ${X402_HEADERS.quote}`
      : "payment required: payments are not available on this instance; use a bearer token issued by its operator",
    resource: { url: input.resourceUrl, description: input.summary, mimeType: "application/json" },
    accepts: terms ? [paymentRequirement(terms, cost)] : [],
    extensions: {},
  };
  const quoteFlow = terms
    ? {
        available: true,
        cost_credits: cost,
        cost_usd: usd,
        note: "this service settles through its own quote flow: a quote binds your wallet and a memo, then any USDC transfer from that wallet pays; credits left over stay on the returned token",
        steps: [
          {
            step: 1,
            action: "quote",
            method: "POST",
            url: `${baseUrl}/api/payment/buy-credits`,
            body: { amount_usd: minimumPurchaseUsd(cost), sender_wallet: "<your wallet address>" },
            returns: "wallet (pay to), memo (the quote nonce), credits, expires_at",
          },
          {
            step: 2,
            action: "transfer",
            detail: `send the quoted ${test ? `${TEST_TOKEN.name} (${TEST_TOKEN.symbol}, TEST MONEY, ${terms.asset}) on the local test chain eip155:${terms.chainId}, not Base,` : `USDC (${terms.asset}) on chain eip155:${terms.chainId}`} from sender_wallet to ${terms.payTo}; check the wallet against /api/payment/info and refuse to pay if they differ`,
          },
          {
            step: 3,
            action: "retry",
            method: "GET",
            url: input.resourceUrl,
            headers: { [X402_HEADERS.tx]: "<transaction hash>", [X402_HEADERS.quote]: "<memo from step 1>" },
            returns: `the data, billing and receipt; the new bearer token in the ${X402_HEADERS.token} response header`,
          },
        ],
        then: "send Authorization: Bearer <token> on later calls until the credits run out",
        payment_info: `${baseUrl}/api/payment/info`,
        trial: `${baseUrl}/api/payment/trial-credits`,
      }
    : {
        available: false,
        reason: "payments are not configured on this instance (PUBLISHER_WALLET and BASE_RPC_URL are unset)",
        then: "use Authorization: Bearer <token> with a token issued by the operator of this instance",
      };
  const body = {
    ok: false,
    error: "payment_required",
    ...(test ? { test_mode: true } : {}),
    message: `${input.why}; this call costs ${cost} credit${cost === 1 ? "" : "s"}. ${required.error}`,
    x402Version: required.x402Version,
    resource: required.resource,
    accepts: required.accepts,
    extensions: required.extensions,
    quote_flow: quoteFlow,
  };
  // The body's `error` is the service's error code; the header carries the x402 object as the spec shapes it.
  return { body, header: Buffer.from(JSON.stringify(required), "utf8").toString("base64") };
}

/** The smallest purchase that covers one call: the quote minimum (USD 0.50) or the call's price if higher. */
export function minimumPurchaseUsd(cost: number): number {
  const units = BigInt(cost) * UNITS_PER_CREDIT;
  return unitsToUsdNumber(units > MIN_AMOUNT_UNITS ? units : MIN_AMOUNT_UNITS);
}
