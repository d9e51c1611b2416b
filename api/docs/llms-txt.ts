/**
 * /llms.txt in the llmstxt.org format: `# name`, a `> summary` line, a short paragraph, then `## section`
 * lists of `- [title](url): description` built from the registry, and how to pay (the publisher wallet, the
 * same one the quote and /api/payment/info give). Routes with path parameters and the machine-readable
 * documents go under `## Optional`, which an agent may skip.
 */
import type { RouteDef } from "../registry/types.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

const SECTION_TITLES: Record<string, string> = {
  discovery: "Discovery",
  free: "Free data",
  preview: "Free previews",
  payment: "Payments",
  premium: "Premium (credits)",
};

function line(baseUrl: string, r: AnyRoute): string {
  const title = `${r.method} ${r.path}`;
  const url = `${baseUrl}${r.path.replace(/:([A-Za-z_]\w*)/g, "{$1}")}`;
  return `- [${title}](${url}): ${r.summary.replace(/\s+/g, " ").trim()}`;
}

/** Where credits are paid, when payments are configured. */
export interface LlmsPayment {
  wallet: string;
  usdcContract: string;
  chainId: number;
  /** Set when payments run on the server's local test chain: the warning to print first. */
  testChainWarning?: string;
}

/** Render llms.txt for `routes` served at `baseUrl`. */
export function buildLlmsTxt(
  routes: readonly AnyRoute[],
  baseUrl: string,
  payment: LlmsPayment | null = null,
  options: { premiumBilling?: boolean } = {},
): string {
  const main = new Map<string, string[]>();
  const optional: string[] = [];
  for (const r of routes) {
    const optionalRoute = r.path.includes(":");
    if (optionalRoute) {
      optional.push(line(baseUrl, r));
      continue;
    }
    const title = SECTION_TITLES[r.tier] ?? r.tier;
    main.set(title, [...(main.get(title) ?? []), line(baseUrl, r)]);
  }
  const out = [
    "# agentfeed",
    "",
    `> Open AI-ecosystem data for agents — news, provider status, model prices, benchmarks, GPU prices, papers, repositories, registries, weather alerts and dated history — served free as JSON from snapshots written by scheduled pipelines, plus computed intelligence (routing, cost projections, news search) paid in credits with ${payment?.testChainWarning ? "Test USDC on this instance's local test chain (test money, not Base)" : "USDC on Base"}, never charged when it fails.`,
    "",
    `Free routes need no credential, send CORS headers, and are limited per client IP (see RateLimit-* headers). Snapshot answers carry an ETag; send If-None-Match to get a 304 (answers made per request, such as /api/health, /api/warehouse, the previews and payment balances, are no-store). A parameter a free route does not declare is ignored; a paid or preview call with one is refused with 400 invalid_query and nothing charged. Errors are JSON: { "ok": false, "error": "<code>", "message": "..." }. The full catalog with parameters and freshness is ${baseUrl}/api/meta.`,
    "",
  ];
  for (const [title, lines] of main) out.push(`## ${title}`, "", ...lines, "");
  if (routes.some((r) => r.path === "/api/warehouse")) {
    out.push(
      "## Warehouse for researchers",
      "",
      `Typed daily history (model prices with who stated them and when, aggregator catalogs, benchmark scores, GPU prices, MCP registry size, latency probes, status pages) as Parquet day files and one DuckDB database, read-only with HTTP range requests. ${baseUrl}/api/warehouse lists every table's columns and the URL of each day file (${baseUrl}/warehouse/{table}/{YYYY-MM-DD}.parquet), with SQL ready to paste. In DuckDB (httpfs): SELECT … FROM read_parquet([<the listed URLs>]), or ATTACH '${baseUrl}/warehouse/warehouse.duckdb' AS af (READ_ONLY).`,
      "",
    );
  }
  out.push("## Paying for premium calls", "");
  if (options.premiumBilling === false) {
    out.push(
      "Premium billing is off on this instance (PREMIUM_BILLING=off): premium routes are served without a token, without charge and without receipts. Call them like free routes.",
      "",
    );
  } else if (payment) {
    if (payment.testChainWarning) {
      out.push(payment.testChainWarning, "", `Dev accounts funded with test USDC and the test chain's RPC URL: ${baseUrl}/api/payment/info under test_chain.`, "");
    }
    out.push(
      `Publisher wallet (${payment.testChainWarning ? "TEST CHAIN, Test USDC" : "USDC on Base"}, chain ${payment.chainId}, token contract ${payment.usdcContract}): ${payment.wallet}. The same wallet is in every quote and in ${baseUrl}/api/payment/info; refuse to pay if they disagree.`,
      "",
      `Credits first: POST ${baseUrl}/api/payment/buy-credits { amount_usd, sender_wallet } → send that USDC from sender_wallet to the wallet → POST ${baseUrl}/api/payment/confirm { tx_hash, nonce } → use the returned token as Authorization: Bearer <token>. One call at a time: call a premium route without a token, read the 402, pay a quote, retry with X-Payment-Tx and X-Payment-Quote; or, where the 402 offers it, pay that one call with a standard x402 client (exact scheme: a signed EIP-3009 authorization in PAYMENT-SIGNATURE, settled only when the call is charged). A free trial (25 credits) needs only a wallet signature: POST ${baseUrl}/api/payment/trial-credits. No charge when a call fails; every paid answer carries a signed receipt (${baseUrl}/.well-known/agent-fair-trade.json).`,
      "",
    );
  } else {
    out.push("Payments are not configured on this instance: premium routes answer 402 without a way to pay, payment routes 503.", "");
  }
  out.push("## Optional", "", ...optional);
  out.push(`- [OpenAPI 3.1 document](${baseUrl}/openapi.json): machine-readable description of every route`);
  return out.join("\n") + "\n";
}
