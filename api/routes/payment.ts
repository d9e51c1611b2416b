/**
 * Payment endpoints: /api/payment/info, buy-credits (a quote), confirm (on-chain USDC verification, token
 * and credits), trial-credits (a signed trial request) and balance. The logic lives in api/payments/; these
 * declarations only parse the request. Build them with createPaymentRoutes(deps) once the database, the
 * ledger and the chain client exist; without deps (or without PUBLISHER_WALLET / BASE_RPC_URL) every
 * endpoint answers 503 payments_not_configured.
 */
import { z } from "zod";
import { paymentServices } from "../services.ts";
import { bearerOf, tokenBalance } from "../payments/balance.ts";
import { confirmPayment } from "../payments/confirm.ts";
import { requireConfigured, nowOf, type PaymentDeps } from "../payments/deps.ts";
import { paymentInfo } from "../payments/info.ts";
import { NETWORK_LABELS } from "../payments/network.ts";
import { createQuote } from "../payments/quotes.ts";
import { grantTrial } from "../payments/trial.ts";
import { defineRoute } from "../registry/define.ts";

/** Body of POST /api/payment/buy-credits. */
export const BuyCreditsBody = z.object({
  amount_usd: z.number().min(0.5).max(10000).meta({ description: "USD (= USDC) to pay, at most 6 decimals" }),
  sender_wallet: z.string().max(64).meta({ description: "the paying wallet: EIP-55 checksummed or all lower case" }),
  signature: z.string().max(200).optional().meta({ description: "EIP-191 signature of proof_message by sender_wallet (front-running guard)" }),
  proof_message: z.string().max(500).optional().meta({ description: "the exact signed text: 'agentfeed quote', amount_usd, sender_wallet, timestamp lines" }),
});

/**
 * Body of POST /api/payment/confirm. A body without nonce is refused here (400 invalid_body, the message says to send
 * the quote's memo), so the schema clients read marks it required; an empty or blank one is the handler's nonce_required.
 */
export const ConfirmBody = z.object({
  tx_hash: z.string().max(80).meta({ description: "hash of the USDC transfer, any case, 0x optional" }),
  nonce: z
    .string({ error: (issue) => (issue.input === undefined ? "nonce is required: send the memo of the quote from POST /api/payment/buy-credits" : undefined) })
    .max(80)
    .meta({ description: "the quote's memo" }),
});

/** Body of POST /api/payment/trial-credits. */
export const TrialBody = z.object({
  message: z.string().max(1000),
  signature: z.string().max(200),
});

const QuoteResponse = z.object({
  ok: z.literal(true),
  wallet: z.string(),
  sender_wallet: z.string(),
  memo: z.string(),
  amount_usd: z.number(),
  credits: z.number().int(),
  currency: z.literal("USDC"),
  network: z.enum(NETWORK_LABELS),
  contract: z.string(),
  expires_at: z.string(),
  ttl_seconds: z.number().int(),
  next_step: z.string(),
  proven: z.boolean(),
});

const ConfirmResponse = z.object({
  ok: z.literal(true),
  token: z.string(),
  credits: z.number().int(),
  balance: z.number().int(),
  tx_amount_usd: z.number(),
  rate: z.enum(["base", "bundle"]).meta({ description: "bundle when a discounted bundle applied; base whenever the base rate did (the 1.00 USD bundle included)." }),
  welcome_bonus_credits: z.number().int().optional(),
  is_first_payment: z.boolean().optional(),
  replayed: z
    .literal(true)
    .optional()
    .meta({ description: "Present when this confirm repeats an earlier one of the same payment and memo (its answer lost): the same token and what that payment granted, nothing added now; balance is the token's balance now." }),
});

const TrialResponse = z.object({
  ok: z.literal(true),
  token: z.string(),
  credits: z.number().int(),
  expires_at: z.string(),
  wallet: z.string(),
  how_to_use: z.string(),
});

const BalanceResponse = z.object({
  ok: z.literal(true),
  balance: z.number().int(),
  created: z.string(),
  last_used: z.string().nullable(),
  total_purchased: z.number().int(),
  kind: z.enum(["paid", "trial"]),
  expires_at: z.string().optional(),
});

const InfoResponse = z.object({
  ok: z.literal(true),
  test_mode: z.boolean().meta({ description: "true when payments run on the server's local test chain (chain id 31337, test money), never Base" }),
  test_chain: z
    .object({ warning: z.string(), chain_id: z.number().int(), rpc_url: z.string(), funded_accounts: z.array(z.string()) })
    .loose()
    .optional()
    .meta({ description: "Present only in test mode: the local chain's RPC URL, its test USDC and the dev accounts funded with it." }),
  wallet: z.object({ address: z.string(), currency: z.literal("USDC"), network: z.enum(NETWORK_LABELS), contract: z.string() }).loose(),
  pricing: z.object({ base_rate: z.number(), volume_bundles: z.array(z.object({ usd: z.number(), credits: z.number(), discount_pct: z.number() })), volume_rule: z.string() }).loose(),
  flow: z.object({ with_quote: z.array(z.string()), x402_fallback: z.array(z.string()), x402_exact: z.array(z.string()).optional().meta({ description: "Present when standard x402 exact payments (PAYMENT-SIGNATURE) are accepted." }) }),
  verification: z.object({ min_confirmations: z.number(), amount_tolerance_usd: z.number(), quote_ttl_seconds: z.number() }).loose(),
  trial: z.object({ statement: z.string() }).loose(),
});

/** The payment routes over `deps` (a value, or a getter for deps wired after registration). */
export function createPaymentRoutes(deps?: PaymentDeps | (() => PaymentDeps | undefined)) {
  const get = (): PaymentDeps | undefined => (typeof deps === "function" ? deps() : deps);
  const tags = ["payment"];
  return [
    defineRoute({
      method: "GET",
      path: "/api/payment/info",
      tier: "payment",
      tags,
      summary: "Where and how to pay: publisher wallet, USDC contract, credit bundles, both payment flows, verification rules, trial message format.",
      description:
        "Amounts are USDC on Base. wallet.contract is the only accepted token contract. verification lists every rule confirm checks; trial.statement is the fixed first line of the trial message. On a server running its local test chain (no payment configuration, see PAYMENTS_TEST_CHAIN) test_mode is true, wallet.network and test_chain say TEST MONEY, and the chain id is 31337, never Base's 8453. 503 payments_not_configured when payments are off.",
      response: InfoResponse,
      handle: (ctx) => paymentInfo(requireConfigured(get()).config, ctx.baseUrl),
    }),
    defineRoute({
      method: "POST",
      path: "/api/payment/buy-credits",
      tier: "payment",
      tags,
      summary: "Create a credit quote: amount and credits bound to sender_wallet under a fresh memo, valid 1800 s.",
      description:
        "amount_usd 0.5 to 10000 with at most 6 decimals (handled as integer base units). Volume tiers: the bundles 1→50, 5→275, 30→1950, 200→16000, and any amount at the rate of the largest bundle it reaches (6→330, 201→16080), floored; below 5 USD floor(amount×50). Optional wallet proof (signature + proof_message, EIP-191 by sender_wallet, timestamp within 600 s) makes the quote proven; a wallet that used a proof once needs one on later quotes; REQUIRE_WALLET_PROOF=true requires it always (403 proof_required). Screened: 400 wallet_not_allowed for the zero address or the publisher's wallet, 403 wallet_blocked for a wallet on the sanctions list; 429 too_many_open_quotes past 10 unpaid, unexpired quotes per wallet without a wallet proof, or past 10 with one (counted apart, so unproven quotes anyone opens for a wallet never block its owner's proven quote). Unpaid quotes are deleted 7 days after they expire.",
      body: BuyCreditsBody,
      response: QuoteResponse,
      errors: {
        403: "proof_required: a wallet proof is required (REQUIRE_WALLET_PROOF, or the wallet used one before).",
        409: "proof_reused: this wallet proof was already used for a quote.",
      },
      handle: (_ctx, input) => {
        const body = input.body as z.infer<typeof BuyCreditsBody>;
        return createQuote(get(), { amountUsd: body.amount_usd, senderWallet: body.sender_wallet, signature: body.signature, proofMessage: body.proof_message });
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/payment/confirm",
      tier: "payment",
      tags,
      summary: "Verify a USDC payment on chain against its quote and mint a token (or top up the bearer's) with the credits.",
      description:
        "Checks: quote exists (404 quote_not_found), unused (409 quote_used), not expired (410 quote_expired; 600 s grace for payments mined in time), tx unused (409 tx_already_used; but the same confirm repeated, same tx_hash and nonce, and the same bearer if one was sent, answers the first confirm's token again with replayed: true, so an answer lost on the way costs nothing), mined (409 tx_pending), success (422 tx_reverted), a Transfer by the USDC contract (422 wrong_token) from the bound wallet (422 sender_mismatch) to the publisher (422 wrong_recipient), mined inside the quote window, give or take 30 s for the chain's clock (422 tx_outside_quote_window), MIN_CONFIRMATIONS (409 insufficient_confirmations); an unproven quote loses to a proven quote of the same wallet covering the payment (403 proof_required). Authorization: Bearer tops up that token instead of minting one. credits includes the first-payment bonus when it applied (a sender wallet's first payment of at least USD 0.50; a smaller one leaves the bonus for the next). A payer on the sanctions list at confirm time gets 403 wallet_blocked, no credits, and the payment is recorded for refund review.",
      body: ConfirmBody,
      response: ConfirmResponse,
      bearer: "optional",
      errors: {
        401: "invalid_token / token_expired: the bearer token to top up is unknown or expired.",
        403: "proof_required: a wallet-proven quote of the same wallet covers this payment.",
        404: "quote_not_found / tx_not_found: no quote has this memo, or the chain does not know the transaction.",
        409: "quote_used, tx_already_used, tx_pending or insufficient_confirmations.",
        410: "quote_expired: the quote expired (payments mined in time get 600 s of grace).",
        422: "tx_reverted, wrong_token, no_usdc_transfer, wrong_recipient, sender_mismatch or tx_outside_quote_window.",
      },
      handle: async (ctx, input) => {
        const body = input.body as z.infer<typeof ConfirmBody>;
        const r = await confirmPayment(get(), { txHash: body.tx_hash, nonce: body.nonce, bearer: bearerOf(ctx.request) });
        return {
          ok: true as const,
          token: r.token,
          credits: r.credits,
          balance: r.balance,
          tx_amount_usd: r.txAmountUsd,
          rate: r.rate,
          ...(r.isFirstPayment ? { welcome_bonus_credits: r.welcomeBonusCredits, is_first_payment: true } : {}),
          ...(r.replayed ? { replayed: true as const } : {}),
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/api/payment/trial-credits",
      tier: "payment",
      tags,
      summary: "Grant 25 trial credits (token valid 30 days) for an EIP-191 signed trial message; one grant per wallet.",
      description:
        "message: 'agentfeed trial credits request', a blank line, then 'wallet: <address>', 'timestamp: <ISO 8601 with its zone, Z or ±hh:mm>' (within 600 s of the server clock), 'nonce: <16 hex>' (single use). Screened like every payment door (api/security.md): 400 wallet_not_allowed for the zero address or the publisher's wallet, 403 wallet_blocked for a wallet on the sanctions list. 409 trial_already_granted for a wallet in any case, 409 nonce_used for a replay.",
      body: TrialBody,
      response: TrialResponse,
      errors: {
        403: "sanctioned_wallet: the wallet is on the sanctions list.",
        409: "trial_already_granted / nonce_used: one grant per wallet; the nonce was already used.",
      },
      handle: (_ctx, input) => grantTrial(get(), input.body as z.infer<typeof TrialBody>),
    }),
    defineRoute({
      method: "GET",
      path: "/api/payment/balance",
      tier: "payment",
      tags,
      summary: "Balance of the bearer token: credits left, created, last used, total purchased, expiry for trials.",
      description: "Authorization: Bearer <token>. 401 invalid_token when missing or unknown, 401 token_expired for an expired trial token.",
      response: BalanceResponse,
      bearer: "required",
      handle: (ctx) => {
        const deps = requireConfigured(get());
        return tokenBalance(deps.credits, bearerOf(ctx.request), nowOf(deps));
      },
    }),
  ];
}

/** The payment routes without deps (every endpoint answers 503 until the lead registers createPaymentRoutes(deps)). */
export const paymentRoutes = createPaymentRoutes(paymentServices);
