/** The body of GET /api/payment/info: where to pay, what credits cost, both flows, and the verification rules. */
import type { PaymentConfig } from "./config.ts";
import { CONFIRM_GRACE_SECONDS } from "./confirm.ts";
import { BASE_RATE, bundleTable, FIRST_PAYMENT_BONUS, MIN_AMOUNT_UNITS } from "./pricing.ts";
import { CHAIN_CLOCK_SKEW_SECONDS } from "./verify-transfer.ts";
import { PROOF_STATEMENT, PROOF_WINDOW_SECONDS } from "./proof.ts";
import { QUOTE_TTL_SECONDS } from "./quotes.ts";
import { currencyOnNetwork, networkLabel, TEST_CHAIN_WARNING } from "./network.ts";
import { DEV_MNEMONIC, TEST_TOKEN } from "./test-chain/start.ts";
import { unitsToUsd, unitsToUsdNumber } from "./units.ts";
import { TRIAL_CREDITS, TRIAL_DAYS } from "./trial.ts";
import { TRIAL_STATEMENT, TRIAL_WINDOW_SECONDS } from "./trial-message.ts";

/** What /api/payment/info adds on the local test chain: the warning, the RPC endpoint and the funded dev accounts. */
function testChainBlock(config: PaymentConfig) {
  const chain = config.testChain;
  if (!chain) return {};
  return {
    test_chain: {
      warning: TEST_CHAIN_WARNING,
      chain_id: config.chainId,
      rpc_url: chain.rpcUrl,
      token: { name: TEST_TOKEN.name, symbol: TEST_TOKEN.symbol, decimals: TEST_TOKEN.decimals, contract: config.usdcAddress },
      funded_accounts: chain.fundedAccounts,
      funded_amount: `${unitsToUsd(chain.fundedUnits)} ${TEST_TOKEN.symbol} each`,
      funded_accounts_how:
        `anvil's public development accounts 1–${chain.fundedAccounts.length} of the mnemonic "${DEV_MNEMONIC}" (their keys are public knowledge); import one into a wallet pointed at rpc_url, or run \`npm run try:premium -- --buy\`.`,
      ephemeral:
        "The chain lives in memory and starts empty, with a new token, at every server start; credits and tokens already granted survive in the database, but transactions of an earlier run cannot be confirmed again.",
    },
  };
}

/** Build the payment info body for a configured server. */
export function paymentInfo(config: PaymentConfig & { publisherWallet: `0x${string}` }, baseUrl: string) {
  const paid = currencyOnNetwork(config);
  return {
    ok: true as const,
    test_mode: config.testChain !== undefined,
    ...testChainBlock(config),
    wallet: { address: config.publisherWallet, currency: "USDC" as const, network: networkLabel(config), contract: config.usdcAddress, chain_id: config.chainId },
    pricing: {
      base_rate: BASE_RATE,
      volume_bundles: bundleTable(),
      volume_rule: "each discounted bundle starts a tier: any amount gets the credits per USD of the largest bundle it reaches, floored (6.00 gives 330); below 5.00 the base rate",
      first_payment_bonus: FIRST_PAYMENT_BONUS,
      min_amount_usd: 0.5,
      max_amount_usd: 10000,
      credits_expire: false,
    },
    flow: {
      with_quote: [
        `POST ${baseUrl}/api/payment/buy-credits with {"amount_usd": 5, "sender_wallet": "<your wallet>"} (optionally "signature" and "proof_message", see verification.wallet_proof); keep the returned memo.`,
        `Check that the quote's wallet equals wallet.address here and in ${baseUrl}/llms.txt; refuse to pay if they differ.`,
        `Send amount_usd ${paid} (contract ${config.usdcAddress}) from sender_wallet to ${config.publisherWallet} within ${QUOTE_TTL_SECONDS} s.`,
        `POST ${baseUrl}/api/payment/confirm with {"tx_hash": "<hash>", "nonce": "<memo>"}; add "Authorization: Bearer <token>" to top up an existing token. Retry on 409 tx_pending or insufficient_confirmations.`,
        `Use the returned token as "Authorization: Bearer <token>"; GET ${baseUrl}/api/payment/balance shows its credits.`,
      ],
      x402_fallback: [
        "GET a premium path without a credential; the 402 answer carries payment instructions.",
        `POST ${baseUrl}/api/payment/buy-credits to bind a quote to your wallet; keep the memo.`,
        `Send the quoted ${paid} from sender_wallet to ${config.publisherWallet}.`,
        "Retry the premium call with headers X-Payment-Tx: <tx hash> and X-Payment-Quote: <memo>; the answer carries the data and a new token in X-Payment-Token.",
      ],
      ...(config.exactSettlement
        ? {
            x402_exact: [
              "GET a premium path without a credential; the PAYMENT-REQUIRED header (base64 JSON, x402 v2) offers the exact scheme: the call's price in accepts[0].amount (USDC base units), payTo, asset, and the token's EIP-712 name and version in extra.",
              "Sign an EIP-3009 transferWithAuthorization of that amount from your wallet to payTo (any x402 v2 client does this), and retry with it in the PAYMENT-SIGNATURE header.",
              `The payment is settled on chain only when the call is charged (${config.exactSettlement}); the answer carries the data, a receipt, PAYMENT-RESPONSE (the settlement transaction) and X-Payment-Token. A failed or uncharged call moves nothing, and one signed payment pays one call.`,
            ],
          }
        : {}),
    },
    verification: {
      rules: [
        "The transaction must be mined with status success.",
        `It must contain a Transfer event emitted by the USDC contract ${config.usdcAddress} (other tokens are refused) from the quote's sender_wallet to ${config.publisherWallet}.`,
        `Its block timestamp must lie between the quote's creation and its expiry, give or take ${CHAIN_CLOCK_SKEW_SECONDS} s (the chain's clock, and a transfer sent in a quote's last seconds mined in a later block).`,
        `A quote stays confirmable for ${CONFIRM_GRACE_SECONDS} s after expires_at so a payment mined in time can gather confirmations.`,
        "A transaction hash is accepted once (any case, with or without 0x); a quote is consumed once.",
        "Within amount_tolerance_usd of the quote the quoted credits are granted; otherwise floor(amount × base_rate) at the base rate.",
        `A sender wallet's first successful payment of at least USD ${unitsToUsdNumber(MIN_AMOUNT_UNITS).toFixed(2)} adds ${FIRST_PAYMENT_BONUS} bonus credits, once.`,
      ],
      chain_id: config.chainId,
      min_confirmations: config.minConfirmations,
      amount_tolerance_usd: 0.01,
      quote_ttl_seconds: QUOTE_TTL_SECONDS,
      wallet_proof: {
        required: config.requireWalletProof,
        statement: PROOF_STATEMENT,
        message_format: `${PROOF_STATEMENT}\\namount_usd: <amount, e.g. 5.00>\\nsender_wallet: <wallet>\\ntimestamp: <ISO 8601 with its zone, e.g. 2026-11-23T12:00:00Z>`,
        window_seconds: PROOF_WINDOW_SECONDS,
        how: "personal_sign (EIP-191) the message with sender_wallet; send it as proof_message and the signature as signature. A proven quote outranks unproven quotes of the same wallet at confirm.",
      },
    },
    trial: {
      statement: TRIAL_STATEMENT,
      message_format: `${TRIAL_STATEMENT}\\n\\nwallet: <wallet>\\ntimestamp: <ISO 8601 with its zone, e.g. 2026-11-23T12:00:00Z>\\nnonce: <16 hex characters>`,
      signing: "personal_sign (EIP-191) by the wallet named in the message",
      timestamp_window_seconds: TRIAL_WINDOW_SECONDS,
      credits: TRIAL_CREDITS,
      expires_after_days: TRIAL_DAYS,
      one_per_wallet: true,
      sanctions_screened: true,
      endpoint: `${baseUrl}/api/payment/trial-credits`,
    },
  };
}
