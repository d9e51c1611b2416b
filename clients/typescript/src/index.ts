/**
 * The agentfeed client: openapi-fetch over the types generated from the service's OpenAPI document
 * (./schema.ts), so `client.GET("/api/premium/route-verdict", { params: { query: { task: "code" } } })` is typed
 * in its path, parameters and answer; plus the payment helpers of the service's credit flow. The client keeps
 * the bearer token it was given or that a payment step returned, and sends it on every call.
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema.js";

export type { paths, operations, components } from "./schema.js";

/** An account that can sign an EIP-191 message, such as viem's `privateKeyToAccount(key)`. */
export interface MessageSigner {
  address: `0x${string}`;
  signMessage(args: { message: string }): Promise<`0x${string}`>;
}

/** Options of {@link createAgentfeedClient}. */
export interface AgentfeedClientOptions {
  /** The service, e.g. http://localhost:3000 (no trailing slash needed). */
  baseUrl: string;
  /** A bearer token (afk_…) bought earlier. */
  token?: string;
  /** Another fetch (tests, proxies). */
  fetch?: typeof globalThis.fetch;
}

/** The headers of the x402 retry: the transfer that paid the quote, and the quote's memo. */
export function x402Headers(payment: { txHash: string; memo: string }): { "X-Payment-Tx": string; "X-Payment-Quote": string } {
  return { "X-Payment-Tx": payment.txHash, "X-Payment-Quote": payment.memo };
}

/** The first line of the trial message the service expects (see GET /api/payment/info). */
export const TRIAL_STATEMENT = "agentfeed trial credits request";

/** The trial message for `wallet`: the statement, a blank line, then wallet, timestamp and a 16-hex nonce. */
export function trialMessage(wallet: string, timestamp: Date = new Date(), nonce: string = randomNonce()): string {
  return `${TRIAL_STATEMENT}\n\nwallet: ${wallet}\ntimestamp: ${timestamp.toISOString()}\nnonce: ${nonce}`;
}

function randomNonce(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A typed client of the service with its payment helpers. */
export type AgentfeedClient = Client<paths> & {
  /** The bearer token the client sends now (undefined before any). */
  readonly token: string | undefined;
  /** Use this token from now on (or none). */
  setToken(token: string | undefined): void;
  payments: PaymentHelpers;
};

/** The credit flow: quote → USDC transfer (your wallet) → confirm; or a trial; or one x402 retry. */
export interface PaymentHelpers {
  /** Where and how to pay (publisher wallet, token contract, bundles, trial message format). */
  info(): Promise<InfoAnswer>;
  /** Ask for a quote: the amount in USD and the wallet the USDC will come from. Pay `quote.wallet`, then confirm. */
  quote(args: { amountUsd: number; senderWallet: string }): Promise<QuoteAnswer>;
  /** Confirm the transfer that paid a quote; the token it returns is kept. */
  confirm(args: { txHash: string; memo: string }): Promise<ConfirmAnswer>;
  /** Trial credits for a wallet that signs the trial message (no transaction); the token is kept. */
  trial(account: MessageSigner): Promise<TrialAnswer>;
  /** Credits left on the current token. */
  balance(): Promise<BalanceAnswer>;
}

type Json<P extends keyof paths, M extends "get" | "post"> = paths[P][M] extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;
/** Payment instructions as GET /api/payment/info answers them. */
export type InfoAnswer = Json<"/api/payment/info", "get">;
/** A quote as POST /api/payment/buy-credits answers it. */
export type QuoteAnswer = Json<"/api/payment/buy-credits", "post">;
/** A confirmation as POST /api/payment/confirm answers it. */
export type ConfirmAnswer = Json<"/api/payment/confirm", "post">;
/** A trial grant as POST /api/payment/trial-credits answers it. */
export type TrialAnswer = Json<"/api/payment/trial-credits", "post">;
/** A balance as GET /api/payment/balance answers it. */
export type BalanceAnswer = Json<"/api/payment/balance", "get">;

/** Thrown by a payment helper when the service answers an error: its status and JSON error body. */
export class AgentfeedError extends Error {
  override name = "AgentfeedError";
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const b = body as { error?: string; message?: string } | null;
    super(`${status} ${b?.error ?? "error"}: ${b?.message ?? "the service answered an error"}`);
  }
}

function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new AgentfeedError(result.response.status, result.error ?? null);
  return result.data;
}

/** A client of the service at `baseUrl`. */
export function createAgentfeedClient(options: AgentfeedClientOptions): AgentfeedClient {
  let token = options.token;
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), ...(options.fetch ? { fetch: options.fetch } : {}) });
  client.use({
    onRequest({ request }) {
      if (token && !request.headers.has("authorization")) request.headers.set("authorization", `Bearer ${token}`);
      return request;
    },
    onResponse({ response }) {
      // An x402 retry that paid a quote answers with a new token: keep it for the next calls.
      const issued = response.headers.get("x-payment-token");
      if (issued) token = issued;
      return response;
    },
  });
  const keep = <T extends { token?: unknown }>(answer: T): T => {
    if (typeof answer.token === "string") token = answer.token;
    return answer;
  };
  const payments: PaymentHelpers = {
    info: async () => unwrap(await client.GET("/api/payment/info")),
    quote: async ({ amountUsd, senderWallet }) => unwrap(await client.POST("/api/payment/buy-credits", { body: { amount_usd: amountUsd, sender_wallet: senderWallet } })),
    confirm: async ({ txHash, memo }) => keep(unwrap(await client.POST("/api/payment/confirm", { body: { tx_hash: txHash, nonce: memo } }))),
    trial: async (account) => {
      const message = trialMessage(account.address);
      const signature = await account.signMessage({ message });
      return keep(unwrap(await client.POST("/api/payment/trial-credits", { body: { message, signature } })));
    },
    balance: async () => unwrap(await client.GET("/api/payment/balance")),
  };
  // defineProperty, not Object.assign: assign would copy the getter's value once instead of the getter.
  return Object.defineProperties(client, {
    token: { get: () => token, enumerable: true },
    setToken: { value: (next: string | undefined) => void (token = next) },
    payments: { value: payments, enumerable: true },
  }) as AgentfeedClient;
}
