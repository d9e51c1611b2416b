/**
 * Standard x402 v2 `exact` payments for one premium call: the payer signs an EIP-3009 transferWithAuthorization of
 * the call's price to the publisher wallet and sends it base64 JSON in the PAYMENT-SIGNATURE header. Verification
 * and settlement are x402's own (@x402/evm's exact facilitator scheme, run here with the settler key, or a remote
 * facilitator over HTTP); this module adds what the fair-trade promise needs around them:
 *
 * - claim: the authorization is verified, its payer screened, and its nonce claimed (x402_exact_payments, pending)
 *   before the call runs, so one signed payment pays one call;
 * - settle: only a call that is charged moves money; the transfer is submitted, the row marked settled, a token
 *   minted for the payer and the call's credits granted to it (a ledger entry) in one transaction;
 * - release: a call that ends uncharged (bad parameter, failure, no-charge outcome) deletes the claim; nothing
 *   moved on chain and the payer may use the authorization again.
 */
import { HTTPFacilitatorClient, decodePaymentSignatureHeader, encodePaymentResponseHeader } from "@x402/core/http";
import { SettleError, VerifyError, type PaymentPayload, type PaymentRequirements, type SettleResponse, type VerifyResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, defineChain, http, publicActions, type LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createNonceManager, jsonRpc } from "viem/nonce";
import { clip } from "../http/clip.ts";
import { ApiError } from "../registry/types.ts";
import type { Credits, Database, TokenInfo } from "../state/types.ts";

/** Largest PAYMENT-SIGNATURE header read (a v2 exact payload is well under 2 KB). */
export const MAX_PAYMENT_HEADER_BYTES = 8192;

/** What verifies and settles a payment: x402's exact EVM facilitator scheme locally, or a remote facilitator. */
export interface ExactSettler {
  /** One line for the start banner and /api/payment/info. */
  describe: string;
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

/**
 * Settle with our own key through viem: the settler account submits transferWithAuthorization and pays the gas.
 *
 * One account has one nonce sequence, so its submissions are serialized: each transaction is prepared (nonce, gas,
 * fees), signed and handed to the node before the next one starts, and the waits for receipts run concurrently.
 * The nonce comes from viem's nonce manager (one per settler): it takes the node's pending count but never a nonce
 * at or below the last one it handed out, in case the node has not yet counted a transaction it just accepted. A
 * submission that fails before it reaches the node leaves no gap: the manager is reset and the next one asks the
 * node again. Settlements from different payers therefore never collide on the settler's nonce.
 */
export function localSettler(o: { rpcUrl: string; chainId: number; privateKey: `0x${string}` } | { rpcUrl: string; chainId: number; account: LocalAccount }): ExactSettler {
  const nonceManager = createNonceManager({ source: jsonRpc() });
  const account: LocalAccount = { ...("account" in o ? o.account : privateKeyToAccount(o.privateKey)), nonceManager };
  const chain = defineChain({ id: o.chainId, name: `eip155:${o.chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [o.rpcUrl] } } });
  const client = createWalletClient({ account, chain, transport: http(o.rpcUrl, { timeout: 20_000, retryCount: 2 }) }).extend(publicActions);
  type Signer = Parameters<typeof toFacilitatorEvmSigner>[0];
  const base = { ...(client as unknown as Signer), address: account.address };
  const submit = serialized();
  const signer: Signer = {
    ...base,
    writeContract: (args) => submit(() => base.writeContract(args)),
    sendTransaction: (args) => submit(() => base.sendTransaction(args)),
    async waitForTransactionReceipt(args) {
      try {
        return await base.waitForTransactionReceipt(args);
      } catch (err) {
        // A transaction that never got mined (dropped, or stuck behind one that was): let the next submission
        // take its nonce from the node again instead of counting on from it.
        nonceManager.reset({ address: account.address, chainId: o.chainId });
        throw err;
      }
    },
  };
  const scheme = new ExactEvmScheme(toFacilitatorEvmSigner(signer));
  return {
    describe: `settled by this service (settler ${account.address})`,
    verify: (p, r) => scheme.verify(p, r),
    settle: (p, r) => scheme.settle(p, r),
  };
}

/** Run the given steps one at a time, in call order (a failed step does not stop the ones after it). */
function serialized(): <T>(step: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (step) => {
    const run = tail.then(step, step);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Settle through a facilitator's HTTP API (X402_FACILITATOR_URL). */
export function remoteSettler(url: string): ExactSettler {
  const client = new HTTPFacilitatorClient({ url, timeoutMs: 30_000 });
  return { describe: `settled by the facilitator at ${new URL(url).origin}`, verify: (p, r) => client.verify(p, r), settle: (p, r) => client.settle(p, r) };
}

/** The payload of a PAYMENT-SIGNATURE header; 400 invalid_payment_signature for anything that is not one. */
export function readPaymentHeader(value: string): PaymentPayload {
  if (value.length > MAX_PAYMENT_HEADER_BYTES) throw new ApiError(400, "invalid_payment_signature", `PAYMENT-SIGNATURE is longer than ${MAX_PAYMENT_HEADER_BYTES} bytes`);
  let payload: PaymentPayload;
  try {
    payload = decodePaymentSignatureHeader(value.trim());
  } catch {
    throw new ApiError(400, "invalid_payment_signature", "PAYMENT-SIGNATURE is not base64 JSON of an x402 payment payload");
  }
  const auth = (payload?.payload as { authorization?: Record<string, unknown> } | undefined)?.authorization;
  if (!payload || typeof payload !== "object" || payload.x402Version !== 2 || typeof payload.accepted !== "object" || payload.accepted === null || !auth) {
    throw new ApiError(400, "invalid_payment_signature", "PAYMENT-SIGNATURE must be an x402 v2 payload of the exact scheme (accepted requirements and an EIP-3009 authorization)");
  }
  if (typeof auth["from"] !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(auth["from"]) || typeof auth["nonce"] !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(auth["nonce"])) {
    throw new ApiError(400, "invalid_payment_signature", "the authorization needs a from address and a 32-byte nonce");
  }
  return payload;
}

/** An upstream reason code as the answers may quote it: word characters and a few separators, at most 100. */
function reasonText(value: string | undefined, fallback: string): string {
  const clean = (value ?? "").replace(/[^\w .:-]/g, "").trim().slice(0, 100);
  return clean || fallback;
}

/** Whether the payload answers exactly what we asked for this call (scheme, network, asset, payee, amount). */
function matches(accepted: PaymentRequirements, asked: PaymentRequirements): boolean {
  const same = (a: unknown, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();
  return same(accepted.scheme, asked.scheme) && same(accepted.network, asked.network) && same(accepted.asset, asked.asset) && same(accepted.payTo, asked.payTo) && accepted.amount === asked.amount;
}

/** A verified, claimed payment, waiting for the call's outcome. */
export interface ExactClaim {
  payer: string;
  /** Move the money (the call is charged); on success the token holding the call's credits. */
  settle(credits: number): Promise<{ ok: true; token: TokenInfo; bearer: string; header: string; transaction: string } | { ok: false; header: string; reason: string }>;
  /** The call ended uncharged: forget the claim (nothing moved). */
  release(): Promise<void>;
}

/** What exact payments need. */
export interface ExactPaymentsDeps {
  db: Database;
  credits: Credits;
  settler: ExactSettler;
  chainId: number;
  /** Sanctions screening of the payer (true: refuse). */
  isBlocked(address: string): boolean;
  /** Receives settlement failures and other server-side errors. */
  onError?: (error: unknown, where: string) => void;
}

/** Exact payments as the premium wrapper uses them. */
export interface ExactPayments {
  describe: string;
  /**
   * Verify the header's payment against `requirements` and claim it for `endpoint`; `resourceUrl` is the call's
   * resource as its 402 names it, which a payload that names its resource must match. Throws ApiError (400, 402,
   * 403, 409).
   */
  claim(header: string, requirements: PaymentRequirements, endpoint: string, resourceUrl: string): Promise<ExactClaim>;
}

/** Build exact payments over a settler. */
export function createExactPayments(deps: ExactPaymentsDeps): ExactPayments {
  return {
    describe: deps.settler.describe,
    async claim(header, requirements, endpoint, resourceUrl) {
      const payload = readPaymentHeader(header);
      if (!matches(payload.accepted, requirements)) {
        throw new ApiError(402, "payment_mismatch", `the payment answers other requirements than this call's: pay ${requirements.amount} base units of ${requirements.asset} on ${requirements.network} to ${requirements.payTo} (scheme exact)`);
      }
      // x402 clients copy the 402's resource into the payload: a payment made for one call does not pay another.
      const named = (payload as { resource?: { url?: unknown } }).resource?.url;
      if (named !== undefined && named !== resourceUrl) {
        throw new ApiError(402, "payment_mismatch", `the payment was made for another resource (${typeof named === "string" ? clip(named) : "not a URL"}); sign the requirements of this call's own 402 (${clip(resourceUrl)})`);
      }
      const auth = (payload.payload as { authorization: { from: string; nonce: string } }).authorization;
      const payer = auth.from.toLowerCase();
      const nonce = auth.nonce.toLowerCase();
      const key = [deps.chainId, payer, nonce];
      const used = () => new ApiError(409, "payment_already_used", "this signed payment was already used (or is paying another call right now); sign a new one");
      // A payment seen here before is refused as such, before the chain is asked (which would call it invalid).
      if ((await deps.db.query("SELECT 1 FROM x402_exact_payments WHERE chain_id = $1 AND payer = $2 AND nonce = $3", key)).rowCount! > 0) throw used();
      let verified: VerifyResponse;
      try {
        verified = await deps.settler.verify(payload, requirements);
      } catch (err) {
        // A facilitator that refuses the payment answers a non-2xx with isValid false: a refusal, not an outage.
        if (err instanceof VerifyError) verified = { isValid: false, ...(err.invalidReason ? { invalidReason: err.invalidReason } : {}) };
        else {
          deps.onError?.(err, "x402 exact verify");
          throw new ApiError(503, "payment_verification_unavailable", "the payment could not be verified now (chain or facilitator unreachable); nothing was charged, retry later");
        }
      }
      if (!verified.isValid) {
        const reason = reasonText(verified.invalidReason, "invalid");
        throw new ApiError(402, "payment_invalid", `the payment was refused: ${reason}`, { reason });
      }
      if (deps.isBlocked(payer)) throw new ApiError(403, "wallet_blocked", "the paying wallet is on the sanctions list this service screens against; nothing was charged");
      const claimed = await deps.db.query(
        `INSERT INTO x402_exact_payments (chain_id, payer, nonce, endpoint, amount_units, status) VALUES ($1, $2, $3, $4, $5, 'pending') ON CONFLICT DO NOTHING`,
        [...key, endpoint, requirements.amount],
      );
      if (claimed.rowCount === 0) throw used();
      const release = async () => {
        await deps.db.query("DELETE FROM x402_exact_payments WHERE chain_id = $1 AND payer = $2 AND nonce = $3 AND status = 'pending'", key);
      };
      return {
        payer,
        release,
        async settle(credits) {
          let result: SettleResponse;
          try {
            result = await deps.settler.settle(payload, requirements);
          } catch (err) {
            if (!(err instanceof SettleError)) deps.onError?.(err, "x402 exact settle");
            const reason = err instanceof SettleError ? reasonText(err.errorReason, "settlement_failed") : "settlement_error";
            result = { success: false, errorReason: reason, transaction: "", network: requirements.network as SettleResponse["network"] };
          }
          if (!result.success || !/^0x[0-9a-fA-F]{64}$/.test(result.transaction)) {
            await release();
            const reason = reasonText(result.errorReason, "settlement_failed");
            return { ok: false, header: encodePaymentResponseHeader({ success: false, errorReason: reason, transaction: "", network: requirements.network as SettleResponse["network"] }), reason };
          }
          const transaction = result.transaction.toLowerCase();
          const minted = await deps.db.transaction(async (tx) => {
            const token = await deps.credits.mintToken(tx, { kind: "paid", wallet: payer });
            await tx.query(
              "UPDATE x402_exact_payments SET status = 'settled', tx_hash = $4, token_id = $5, settled_at = now() WHERE chain_id = $1 AND payer = $2 AND nonce = $3",
              [...key, transaction, token.id],
            );
            await deps.credits.grant(tx, token.id, credits, { reason: "purchase", ref: `x402-exact:${transaction}` });
            return token;
          });
          const token = await deps.credits.tokenByBearer(minted.token);
          if (!token) throw new Error(`x402 exact: the token minted for ${transaction} is unknown to the ledger`);
          return { ok: true, token, bearer: minted.token, header: encodePaymentResponseHeader({ ...result, payer }), transaction };
        },
      };
    },
  };
}
