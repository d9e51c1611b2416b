/**
 * GET /api/x402-index/publishers (free): the x402 publisher registry — every crawled domain whose x402 discovery
 * document names a payee wallet, with its wallets and networks and when each was first and last seen. Read from
 * the warehouse table x402_publishers_daily (written by the weekly web-readiness crawl).
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { warehouseOf } from "./premium-model-reads.ts";
import { WEB_DOMAINS_SOURCE } from "../../pipelines/contract/snapshots/web-readiness.ts";

export const X402_INDEX_ATTRIBUTION = `Payee wallets named by each site's /.well-known/x402 discovery document (x402 v1 and v2), read by this service's weekly crawl of a curated list of domains (${WEB_DOMAINS_SOURCE}).`;

/** Body of GET /api/x402-index/publishers. */
export const PublishersResponse = z.strictObject({
  ok: z.literal(true),
  captured_at: z.string().nullable().meta({ description: "The newest crawl day held (YYYY-MM-DD); null without any." }),
  count: z.int().nonnegative(),
  publishers: z.array(
    z.strictObject({
      domain: z.string(),
      pay_to_wallets: z.array(
        z.strictObject({
          address: z.string(),
          network: z.string(),
          first_seen: z.string(),
          last_seen: z.string(),
          sources: z.array(z.enum(["discovery", "challenge"])).meta({ description: "Where the crawls read it: the discovery document, a 402 challenge of a listed resource, or both (empty for crawls before this was recorded)." }),
        }),
      ),
      first_seen: z.string().meta({ description: "The first crawl day any wallet of the domain was seen (YYYY-MM-DD)." }),
      listed_now: z.boolean().meta({ description: "Whether the newest crawl still found a wallet in the domain's discovery document." }),
    }),
  ),
  source_attribution: z.string(),
});
type Publishers = z.infer<typeof PublishersResponse>;

const SQL = `SELECT domain, pay_to, network, CAST(min(date) AS VARCHAR) AS first_seen, CAST(max(date) AS VARCHAR) AS last_seen,
  string_agg(DISTINCT source, ',') AS sources
FROM x402_publishers_daily GROUP BY domain, pay_to, network ORDER BY domain, first_seen, pay_to, network`;

/** The distinct sources of a wallet's rows ("both" counts as each). */
function sourcesOf(joined: string | null | undefined): ("discovery" | "challenge")[] {
  const parts = new Set((joined ?? "").split(",").flatMap((s) => (s === "both" ? ["discovery", "challenge"] : s ? [s] : [])));
  return (["discovery", "challenge"] as const).filter((s) => parts.has(s));
}

/** Render the registry. */
export async function renderPublishers(warehouse: WarehouseReader): Promise<Publishers> {
  const newest = warehouse.dates("x402_publishers_daily").at(-1) ?? null;
  const rows = await warehouse.query<Record<string, string>>(SQL);
  const byDomain = new Map<string, Publishers["publishers"][number]>();
  for (const r of rows) {
    const domain = r["domain"]!;
    const entry = byDomain.get(domain) ?? { domain, pay_to_wallets: [], first_seen: r["first_seen"]!, listed_now: false };
    entry.pay_to_wallets.push({ address: r["pay_to"]!, network: r["network"]!, first_seen: r["first_seen"]!, last_seen: r["last_seen"]!, sources: sourcesOf(r["sources"]) });
    if (r["first_seen"]! < entry.first_seen) entry.first_seen = r["first_seen"]!;
    if (r["last_seen"] === newest) entry.listed_now = true;
    byDomain.set(domain, entry);
  }
  const publishers = [...byDomain.values()];
  return { ok: true, captured_at: newest, count: publishers.length, publishers, source_attribution: X402_INDEX_ATTRIBUTION };
}

/** The free x402 index routes. */
export const x402IndexRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/x402-index/publishers",
    tier: "free",
    summary: "The x402 publisher registry: crawled domains whose x402 discovery document names payee wallets, with each wallet's network and when it was first and last seen.",
    description: [
      "Read from the warehouse table x402_publishers_daily, written by the weekly web-readiness crawl from each domain's /.well-known/x402 and from the 402 challenges of up to three of the site's own resources it lists (x402 v2: the PAYMENT-REQUIRED header, accepts[].network as a CAIP-2 id such as eip155:8453; v1: the JSON body, network names such as base mapped to theirs). Addresses are checksummed; entries without a valid address or network are skipped.",
      "first_seen and last_seen are crawl days (YYYY-MM-DD); listed_now says whether the newest crawl still found a wallet. Sorted by domain; a domain's wallets by first_seen.",
    ].join(" "),
    tags: ["x402", "web-readiness"],
    response: PublishersResponse,
    snapshots: ["web-readiness"],
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    render: (ctx: RenderContext) => renderPublishers(warehouseOf(ctx)),
  }),
];
