/**
 * Payment configuration from the environment. Without PUBLISHER_WALLET or BASE_RPC_URL payments are off and
 * every payment endpoint answers 503 payments_not_configured; everything else has a default.
 */
import { getAddress, isAddress, type LocalAccount } from "viem";
import { z } from "zod";
import { envIssueLine } from "../config-issue.ts";

/** Base mainnet chain id. */
export const BASE_CHAIN_ID = 8453;
/** Circle's USDC on Base mainnet. */
export const BASE_USDC_ADDRESS = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/**
 * Confirmations required before a payment is credited. Base makes a block every 2 seconds from one
 * sequencer; a transaction is final only once its batch is settled on Ethereum (many minutes), so waiting for
 * finality is too slow for a purchase. Three blocks (about 6 s) ride out the short reorgs of the unsafe head
 * that a sequencer hiccup can cause, at a cost the payer barely notices.
 */
export const DEFAULT_MIN_CONFIRMATIONS = 3;

const address = z
  .string()
  .trim()
  .refine((v) => isAddress(v, { strict: true }), { message: "not an address (0x + 40 hex; mixed case must carry a valid EIP-55 checksum)" })
  .transform((v) => getAddress(v));

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .optional()
  .transform((v) => v === "true" || v === "1" || v === "yes");

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const EnvSchema = z.object({
  BASE_RPC_URL: optionalString.pipe(z.url({ protocol: /^(https?|wss?)$/ }).optional()),
  CHAIN_ID: z.coerce.number().int().positive().default(BASE_CHAIN_ID),
  USDC_ADDRESS: optionalString.pipe(address.optional()),
  PUBLISHER_WALLET: optionalString.pipe(address.optional()),
  // The block that mines a payment is its first confirmation: 0 would ask for less than a mined payment.
  MIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(DEFAULT_MIN_CONFIRMATIONS),
  REQUIRE_WALLET_PROOF: flag,
  SANCTIONS_LIST: optionalString,
});

/** Payment settings; `configured` is false when PUBLISHER_WALLET or BASE_RPC_URL is missing. */
export interface PaymentConfig {
  configured: boolean;
  rpcUrl: string | undefined;
  chainId: number;
  /** Checksummed USDC contract address. */
  usdcAddress: `0x${string}`;
  /** Checksummed publisher wallet, the only accepted recipient. */
  publisherWallet: `0x${string}` | undefined;
  minConfirmations: number;
  requireWalletProof: boolean;
  /** Path of a replacement sanctions list; the bundled list when undefined. */
  sanctionsList: string | undefined;
  /** Set when payments run on the local test chain (test money), never on a live network. */
  testChain?: TestChainDetails;
  /** Set when standard x402 `exact` payments are accepted: who settles them (api/payments/x402-exact-setup.ts). */
  exactSettlement?: string;
}

/** The local test chain payments run on (see test-chain/start.ts). */
export interface TestChainDetails {
  rpcUrl: string;
  /** Dev accounts of the anvil mnemonic that hold test USDC. */
  fundedAccounts: `0x${string}`[];
  /** Test USDC each funded account got at start, in base units. */
  fundedUnits: bigint;
  /** The throwaway account (test ETH, no test USDC) that settles x402 exact payments when nothing else is configured; not listed. */
  settler?: LocalAccount;
}

/** A payment setting has a value that cannot be used. */
export class PaymentConfigError extends Error {
  override name = "PaymentConfigError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Read the payment settings from an environment (process.env by default). */
export function loadPaymentConfig(env: Record<string, string | undefined> = process.env): PaymentConfig {
  const parsed = EnvSchema.safeParse({
    BASE_RPC_URL: env.BASE_RPC_URL,
    CHAIN_ID: env.CHAIN_ID || undefined,
    USDC_ADDRESS: env.USDC_ADDRESS,
    PUBLISHER_WALLET: env.PUBLISHER_WALLET,
    MIN_CONFIRMATIONS: env.MIN_CONFIRMATIONS || undefined,
    REQUIRE_WALLET_PROOF: env.REQUIRE_WALLET_PROOF?.trim().toLowerCase(),
    SANCTIONS_LIST: env.SANCTIONS_LIST,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PaymentConfigError(`payment config: ${issue ? envIssueLine(issue, env) : "invalid"}`, { cause: parsed.error });
  }
  const e = parsed.data;
  return {
    configured: e.BASE_RPC_URL !== undefined && e.PUBLISHER_WALLET !== undefined,
    rpcUrl: e.BASE_RPC_URL,
    chainId: e.CHAIN_ID,
    usdcAddress: (e.USDC_ADDRESS ?? BASE_USDC_ADDRESS) as `0x${string}`,
    publisherWallet: e.PUBLISHER_WALLET as `0x${string}` | undefined,
    minConfirmations: e.MIN_CONFIRMATIONS,
    requireWalletProof: e.REQUIRE_WALLET_PROOF,
    sanctionsList: e.SANCTIONS_LIST,
  };
}
