/**
 * Standard x402 `exact` payments at server start: on when payments are configured and either
 * X402_SETTLER_PRIVATE_KEY (this service settles through viem and pays the gas) or X402_FACILITATOR_URL (a
 * facilitator settles) is set; the settler key wins when both are. On the local test chain, without either, the
 * test chain's own throwaway settler account settles (test ETH for gas; no payer knows its key, so none can race it
 * for its nonce), so a standard x402 client can pay a fresh `npm start`. The token's EIP-712 domain (name, version)
 * is read from the contract, since the payer signs over it and the 402's `extra` must name it exactly.
 */
import { createPublicClient, http, parseAbi } from "viem";
import { z } from "zod";
import type { Credits, Database } from "../state/types.ts";
import type { PaymentDeps } from "./deps.ts";
import { createExactPayments, localSettler, remoteSettler, type ExactPayments } from "./x402-exact.ts";

const EnvSchema = z.object({
  X402_SETTLER_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/, "a 32-byte private key, 0x and 64 hex characters")
    .optional(),
  X402_FACILITATOR_URL: z.url({ protocol: /^https?$/ }).optional(),
});

const DOMAIN_ABI = parseAbi(["function name() view returns (string)", "function version() view returns (string)"]);

/** Exact payments as started, with the token domain the 402 names; undefined when off. */
export interface StartedExactPayments {
  exact: ExactPayments;
  tokenDomain: { name: string; version: string };
}

/** Start exact payments for `payments`; undefined when not configured. A bad setting throws one line naming it. */
export async function startExactPayments(input: {
  db: Database;
  credits: Credits;
  payments: PaymentDeps;
  env?: Record<string, string | undefined>;
  onError?: (error: unknown, where: string) => void;
}): Promise<StartedExactPayments | undefined> {
  const env = input.env ?? process.env;
  const parsed = EnvSchema.safeParse({ X402_SETTLER_PRIVATE_KEY: env.X402_SETTLER_PRIVATE_KEY || undefined, X402_FACILITATOR_URL: env.X402_FACILITATOR_URL || undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`x402 exact payments: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  const { X402_SETTLER_PRIVATE_KEY: key, X402_FACILITATOR_URL: facilitator } = parsed.data;
  const config = input.payments.config;
  const testChainSettler = config.testChain?.settler;
  if ((!key && !facilitator && !testChainSettler) || !config.configured || !config.rpcUrl) return undefined;
  const reader = createPublicClient({ transport: http(config.rpcUrl, { timeout: 10_000, retryCount: 2 }) });
  let tokenDomain: { name: string; version: string };
  try {
    const [name, version] = await Promise.all([
      reader.readContract({ address: config.usdcAddress, abi: DOMAIN_ABI, functionName: "name" }),
      reader.readContract({ address: config.usdcAddress, abi: DOMAIN_ABI, functionName: "version" }),
    ]);
    tokenDomain = { name, version };
  } catch (cause) {
    throw new Error(`x402 exact payments: cannot read name() and version() of the token ${config.usdcAddress} at BASE_RPC_URL: ${(cause as Error).message.split("\n")[0]}`, { cause });
  }
  const settler = key
    ? localSettler({ rpcUrl: config.rpcUrl, chainId: config.chainId, privateKey: key as `0x${string}` })
    : facilitator
      ? remoteSettler(facilitator)
      : testChainSettler && localSettler({ rpcUrl: config.rpcUrl, chainId: config.chainId, account: testChainSettler });
  if (!settler) return undefined;
  const exact = createExactPayments({
    db: input.db,
    credits: input.credits,
    settler,
    chainId: config.chainId,
    isBlocked: (address) => input.payments.sanctions.has(address),
    ...(input.onError ? { onError: input.onError } : {}),
  });
  return { exact, tokenDomain };
}
