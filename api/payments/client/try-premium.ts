/**
 * The paid half as a newcomer tries it against a running server (`npm run try:premium`): read
 * /api/payment/info, get trial credits by signing the trial message with a fresh throwaway key (EIP-191), make
 * one premium call with the bearer token, and verify its receipt; on the server's local test chain it can also
 * buy credits (quote → Test USDC transfer from a funded dev account → confirm). Each step is printed with its
 * curl equivalent. Buying is refused unless the server says test_mode: it never moves real money.
 */
import { randomBytes } from "node:crypto";
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { trialMessage } from "../trial-message.ts";
import { DEV_MNEMONIC, devAccount, testChainDefinition, TEST_CHAIN_ID } from "../test-chain/start.ts";

/** The premium call the walkthrough makes. */
export const TRY_PREMIUM_PATH = "/api/premium/routing?task=code&top_n=3";
/** What the optional purchase buys, in USD of test USDC. */
export const TRY_BUY_USD = 1;
/** The funded dev account (index of the anvil mnemonic) the purchase pays from. */
export const TRY_BUY_ACCOUNT_INDEX = 1;

/** Options of {@link tryPremium}. */
export interface TryPremiumOptions {
  /** The server, e.g. http://localhost:3000 (no trailing slash needed). */
  baseUrl: string;
  /** Also buy credits on the test chain. */
  buy?: boolean;
  /** Receives the printed lines. */
  log?: (line: string) => void;
}

/** What the walkthrough saw. */
export interface TryPremiumResult {
  testMode: boolean;
  network: string;
  chainId: number;
  trial: { credits: number; wallet: string; token: string };
  premium: { status: number; creditsCharged: number; creditsRemaining: number; receiptId: string };
  verify: { valid: boolean };
  buy?: { txHash: string; credits: number; balance: number; premiumStatus: number; creditsCharged: number };
}

/** The walkthrough could not go on; the message says why and what to do. */
export class TryPremiumError extends Error {
  override name = "TryPremiumError";
}

type Json = Record<string, any>;

/** Quote `value` for a POSIX shell (single quotes). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: Json }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    throw new TryPremiumError(`cannot reach ${url}: ${(err as Error).message} — is the server running (npm start)?`);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Json };
  } catch {
    throw new TryPremiumError(`${url} answered ${res.status} with something other than JSON: ${text.slice(0, 200)}`);
  }
}

function expectOk(step: string, r: { status: number; body: Json }): Json {
  if (r.status < 200 || r.status >= 300 || r.body.ok === false) {
    throw new TryPremiumError(`${step} failed: ${r.status} ${r.body.error ?? ""} ${r.body.message ?? JSON.stringify(r.body).slice(0, 300)}`);
  }
  return r.body;
}

const postJson = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
/** "charged 1 credit(s), 24 left" or "charged 0 (no charge: stale_data), 25 left". */
const charge = (billing: Json | undefined) =>
  `charged ${billing?.credits_charged}${billing?.no_charge_reason ? ` (no charge: ${billing.no_charge_reason}${billing.no_charge_detail ? ` — ${billing.no_charge_detail}` : ""})` : " credit(s)"}, ${billing?.credits_remaining} left`;
const curlPost = (url: string, body: unknown) => `curl -s -X POST ${url} -H 'content-type: application/json' -d ${shellQuote(JSON.stringify(body))}`;

/** Run the walkthrough against `baseUrl`; resolves with what each step returned, throws TryPremiumError on a failed step. */
export async function tryPremium(options: TryPremiumOptions): Promise<TryPremiumResult> {
  const base = options.baseUrl.replace(/\/+$/, "");
  const log = options.log ?? (() => {});
  const step = (title: string, curl: string) => {
    log("");
    log(title);
    log(`  $ ${curl}`);
  };

  // 0. Where payments go.
  step(`0. payment info — GET ${base}/api/payment/info`, `curl -s ${base}/api/payment/info`);
  const infoRes = await call(`${base}/api/payment/info`);
  if (infoRes.status === 503) {
    throw new TryPremiumError(`payments are off on ${base}: ${infoRes.body.message ?? infoRes.body.error}. The start line "payments: off (…)" says why; see api/payments/README.md.`);
  }
  const info = expectOk("payment info", infoRes);
  const testMode = info.test_mode === true;
  const chainId = Number(info.wallet?.chain_id);
  // On the test chain the network's own name already says TEST MONEY, not Base.
  log(`  → ${testMode ? "TEST CHAIN" : "LIVE network"}: pay ${info.wallet?.currency} on ${info.wallet?.network} (chain id ${chainId}) to ${info.wallet?.address}`);
  if (testMode && chainId !== TEST_CHAIN_ID) throw new TryPremiumError(`the server says test_mode but names chain id ${chainId}, not ${TEST_CHAIN_ID}; refusing to go on`);

  // 1. Trial credits: a fresh throwaway key signs the trial message.
  const throwaway = privateKeyToAccount(generatePrivateKey());
  const message = trialMessage({ wallet: throwaway.address, timestamp: new Date(), nonce: randomBytes(8).toString("hex") });
  const signature = await throwaway.signMessage({ message });
  const trialBody = { message, signature };
  step(`1. trial credits for a fresh throwaway wallet ${throwaway.address} (EIP-191 signature of the trial message) — POST ${base}/api/payment/trial-credits`, curlPost(`${base}/api/payment/trial-credits`, trialBody));
  const trial = expectOk("trial credits", await call(`${base}/api/payment/trial-credits`, postJson(trialBody)));
  const token = String(trial.token);
  log(`  → ${trial.credits} credits on token ${token}, expires ${trial.expires_at}`);

  // 2. One premium call with the bearer token.
  const premiumUrl = `${base}${TRY_PREMIUM_PATH}`;
  step(`2. a premium call with the token — GET ${premiumUrl}`, `curl -s ${shellQuote(premiumUrl)} -H 'Authorization: Bearer ${token}' > paid.json`);
  const premiumRes = await call(premiumUrl, { headers: { authorization: `Bearer ${token}` } });
  const premium = expectOk("premium call", premiumRes);
  const top = premium.recommendations?.[0]?.model;
  log(`  → ${premium.recommendations?.length ?? 0} recommendations${top ? `, top ${top.id ?? top.name ?? JSON.stringify(top)}` : ""}; ${charge(premium.billing)}; receipt ${premium.receipt?.id}`);

  // 3. Verify the receipt against the whole answer.
  step(
    `3. verify the signed receipt against the answer — POST ${base}/api/receipt/verify`,
    // From the saved answer: calling the route again would be a second call, charged again on fresh data.
    `jq '{receipt: .receipt, response: .}' paid.json | curl -s -X POST ${base}/api/receipt/verify -H 'content-type: application/json' -d @-`,
  );
  const verify = expectOk("receipt verification", await call(`${base}/api/receipt/verify`, postJson({ receipt: premium.receipt, response: premium })));
  log(`  → valid: ${verify.valid}${verify.reason ? ` (${verify.reason})` : ""}`);

  const result: TryPremiumResult = {
    testMode,
    network: String(info.wallet?.network),
    chainId,
    trial: { credits: Number(trial.credits), wallet: throwaway.address, token },
    premium: {
      status: premiumRes.status,
      creditsCharged: Number(premium.billing?.credits_charged),
      creditsRemaining: Number(premium.billing?.credits_remaining),
      receiptId: String(premium.receipt?.id),
    },
    verify: { valid: verify.valid === true },
  };
  if (options.buy) result.buy = await buyOnTestChain(base, info, log, step);
  return result;
}

/** Quote → Test USDC transfer from a funded dev account → confirm → a premium call with the new token. */
async function buyOnTestChain(
  base: string,
  info: Json,
  log: (line: string) => void,
  step: (title: string, curl: string) => void,
): Promise<NonNullable<TryPremiumResult["buy"]>> {
  if (info.test_mode !== true || !info.test_chain?.rpc_url) {
    throw new TryPremiumError("--buy only runs against a server on its local test chain (test_mode: true); it never moves real money");
  }
  const rpcUrl = String(info.test_chain.rpc_url);
  const payer = devAccount(TRY_BUY_ACCOUNT_INDEX);
  const publisher = String(info.wallet.address) as Hex;
  const token = String(info.wallet.contract) as Hex;

  const quoteBody = { amount_usd: TRY_BUY_USD, sender_wallet: payer.address };
  step(`4. buy: a quote for ${TRY_BUY_USD.toFixed(2)} test USDC from dev account ${TRY_BUY_ACCOUNT_INDEX} (${payer.address}) — POST ${base}/api/payment/buy-credits`, curlPost(`${base}/api/payment/buy-credits`, quoteBody));
  const quote = expectOk("quote", await call(`${base}/api/payment/buy-credits`, postJson(quoteBody)));
  log(`  → ${quote.credits} credits for ${quote.amount_usd} on ${quote.network}; pay ${quote.wallet}, memo ${quote.memo}, before ${quote.expires_at}`);
  if (String(quote.wallet).toLowerCase() !== publisher.toLowerCase()) {
    throw new TryPremiumError(`the quote names wallet ${quote.wallet} but /api/payment/info names ${publisher}; refusing to pay`);
  }

  const units = parseUnits(String(quote.amount_usd), 6);
  step(
    `5. buy: transfer ${quote.amount_usd} tUSDC on the test chain ${rpcUrl} (chain id ${TEST_CHAIN_ID}) to ${publisher}`,
    // The walkthrough sends it with viem; by hand, Foundry's cast (not installed with the project) does the same.
    `cast send ${token} 'transfer(address,uint256)' ${publisher} ${units} --rpc-url ${rpcUrl} --mnemonic ${shellQuote(DEV_MNEMONIC)} --mnemonic-index ${TRY_BUY_ACCOUNT_INDEX}   # Foundry's cast; this script sends it with viem`,
  );
  const chain = testChainDefinition(rpcUrl);
  const wallet = createWalletClient({ account: payer, chain, transport: http(rpcUrl) });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 100 });
  const txHash = await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: [publisher, units] });
  const mined = await publicClient.waitForTransactionReceipt({ hash: txHash, pollingInterval: 100, timeout: 30_000 });
  log(`  → ${txHash} mined in block ${mined.blockNumber} (${mined.status})`);

  const confirmBody = { tx_hash: txHash, nonce: quote.memo };
  step(`6. buy: confirm the payment — POST ${base}/api/payment/confirm`, curlPost(`${base}/api/payment/confirm`, confirmBody));
  const confirm = expectOk("confirm", await call(`${base}/api/payment/confirm`, postJson(confirmBody)));
  log(`  → ${confirm.credits} credits (rate ${confirm.rate}${confirm.welcome_bonus_credits ? `, first-payment bonus ${confirm.welcome_bonus_credits}` : ""}), balance ${confirm.balance}, token ${confirm.token}`);

  const premiumUrl = `${base}${TRY_PREMIUM_PATH}`;
  step(`7. buy: the premium call with the bought token — GET ${premiumUrl}`, `curl -s ${shellQuote(premiumUrl)} -H 'Authorization: Bearer ${confirm.token}'`);
  const paidRes = await call(premiumUrl, { headers: { authorization: `Bearer ${confirm.token}` } });
  const paid = expectOk("premium call with the bought token", paidRes);
  log(`  → ${charge(paid.billing)}; receipt ${paid.receipt?.id}`);
  return { txHash, credits: Number(confirm.credits), balance: Number(confirm.balance), premiumStatus: paidRes.status, creditsCharged: Number(paid.billing?.credits_charged) };
}
