/** Discovery routes: the endpoint catalog (/api/meta), the OpenAPI document and /llms.txt, all from the registry. */
import { z } from "zod";
import { paymentServices } from "../services.ts";
import { defineRoute } from "../registry/define.ts";
import { ERROR_CODES } from "../http/error-codes.ts";
import { API_VERSION, openApiDocument } from "../docs/openapi.ts";
import { buildLlmsTxt } from "../docs/llms-txt.ts";
import { TEST_CHAIN_WARNING } from "../payments/network.ts";
import { describeEndpoints } from "../docs/endpoints.ts";
import { UNBILLED_NOTE } from "../billing/unbilled.ts";
import { DUCKDB_PATH, partitionPath } from "./warehouse-files.ts";

const ParamSchema = z.strictObject({
  name: z.string(),
  in: z.enum(["query", "path"]),
  type: z.string(),
  required: z.boolean(),
  description: z.string().optional(),
  default: z.unknown().optional(),
  enum: z.array(z.unknown()).optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  pattern: z.string().optional(),
  format: z.string().optional(),
});

const EndpointSchema = z.strictObject({
  method: z.string(),
  path: z.string(),
  tier: z.string(),
  summary: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()),
  content_type: z.string(),
  cost_credits: z.number().int().optional(),
  example: z.url().optional(),
  params: z.array(ParamSchema),
  freshness: z
    .strictObject({
      cadence: z.string(),
      sla_seconds: z.number(),
      last_success: z.string().nullable(),
      stale: z.boolean(),
    })
    .nullable(),
});

/** Body of GET /api/meta. */
export const MetaResponse = z.strictObject({
  ok: z.literal(true),
  site: z.string().meta({ description: "The site's name." }),
  service: z.strictObject({ name: z.string(), base_url: z.string(), description: z.string() }).meta({ description: "Name, public base URL and one-line description of this instance." }),
  api: z.strictObject({
    version: z.string(),
    openapi: z.string(),
    llms_txt: z.string(),
    rate_limits: z.strictObject({
      free: z.strictObject({
        requests_per_minute: z.number().int().nullable(),
        scope: z.string(),
        headers: z.array(z.string()),
      }),
      payment: z.strictObject({
        requests_per_minute: z.number().int().nullable(),
        scope: z.string(),
      }),
    }),
    errors: z.strictObject({ shape: z.string(), codes: z.array(z.string()) }),
    premium_billing: z
      .strictObject({ enabled: z.literal(false), note: z.string() })
      .optional()
      .meta({ description: "Present only when the operator turned billing off (PREMIUM_BILLING=off)." }),
    warehouse: z
      .strictObject({
        listing: z.url(),
        duckdb: z.url(),
        day_files: z.string().meta({ description: "URL template of one Parquet day file; the listing gives every real URL." }),
        how: z.string(),
      })
      .meta({ description: "Where researchers download the warehouse: the listing of every table's day files, the DuckDB database, and how to query them." }),
    endpoints: z.array(EndpointSchema),
  }),
});

/** The name of the site, as /api/meta gives it. */
const SITE_NAME = "agentfeed";


/** /api/meta, /openapi.json, /llms.txt. */
export const metaRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/meta",
    tier: "discovery",
    summary: "Catalog of every endpoint with parameters, tiers, freshness SLAs and rate limits.",
    description:
      "Generated from the route registry. freshness.last_success is the oldest last success among the snapshot types a route reads; stale is true when one of those types never succeeded or is older than its SLA for the route (the route's for the types its SLA applies to, the type's own for the others), the rule paid calls are not charged by.",
    tags: ["discovery"],
    response: MetaResponse,
    render: (ctx) => ({
      ok: true as const,
      site: SITE_NAME,
      service: {
        name: SITE_NAME,
        base_url: ctx.baseUrl,
        description: "Open, self-hostable AI-ecosystem data service: dated snapshots served free as JSON.",
      },
      api: {
        version: API_VERSION,
        openapi: `${ctx.baseUrl}/openapi.json`,
        llms_txt: `${ctx.baseUrl}/llms.txt`,
        rate_limits: {
          free: {
            requests_per_minute: ctx.rateLimitPerMinute ? ctx.rateLimitPerMinute : null,
            scope: "per client IP, fixed 60-second window, shared by the discovery, free and preview tiers",
            headers: ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy", "Retry-After (on 429)"],
          },
          payment: {
            requests_per_minute: ctx.paymentRateLimitPerMinute ? ctx.paymentRateLimitPerMinute : null,
            scope: "per client IP, fixed 60-second window: every POST to a payment route, every x402 retry, and every premium or payment request with a bearer token the ledger does not know (429 rate_limited with Retry-After)",
          },
        },
        errors: { shape: '{ "ok": false, "error": "<code>", "message": "<text>" }', codes: [...ERROR_CODES] },
        ...(ctx.premiumBilling === false ? { premium_billing: { enabled: false as const, note: UNBILLED_NOTE } } : {}),
        warehouse: {
          listing: `${ctx.baseUrl}/api/warehouse`,
          duckdb: `${ctx.baseUrl}${DUCKDB_PATH}`,
          day_files: `${ctx.baseUrl}${partitionPath("{table}", "{YYYY-MM-DD}")}`,
          how: `DuckDB with httpfs: SELECT … FROM read_parquet([<the day file URLs the listing gives>]), or ATTACH '${ctx.baseUrl}${DUCKDB_PATH}' AS af (READ_ONLY). Read-only, with HTTP range requests.`,
        },
        endpoints: describeEndpoints(ctx.routes ?? [], ctx.snapshots, ctx.now, ctx.baseUrl),
      },
    }),
  }),
  defineRoute({
    method: "GET",
    path: "/openapi.json",
    tier: "discovery",
    summary: "OpenAPI 3.1.0 description of every route, generated from the registry.",
    tags: ["discovery"],
    response: z.looseObject({ openapi: z.literal("3.1.0"), info: z.looseObject({ version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
    render: (ctx) => openApiDocument(ctx.routes ?? [], { baseUrl: ctx.baseUrl, premiumBilling: ctx.premiumBilling !== false }) as { openapi: "3.1.0"; info: { version: string }; paths: Record<string, unknown> },
  }),
  defineRoute({
    method: "GET",
    path: "/llms.txt",
    tier: "discovery",
    summary: "llms.txt: a short guide for language models with links to every route.",
    tags: ["discovery"],
    contentType: "text/plain; charset=utf-8",
    response: z.string().meta({ description: "Markdown in the llmstxt.org format." }),
    render: (ctx) => ({ contentType: "text/plain; charset=utf-8", body: buildLlmsTxt(ctx.routes ?? [], ctx.baseUrl, llmsPayment(), { premiumBilling: ctx.premiumBilling !== false }) }),
  }),
];

/** The publisher wallet as /api/payment/info and quotes give it, when payments are configured. */
function llmsPayment() {
  const config = paymentServices()?.config;
  if (!config?.configured || !config.publisherWallet) return null;
  return {
    wallet: config.publisherWallet,
    usdcContract: config.usdcAddress,
    chainId: config.chainId,
    ...(config.testChain ? { testChainWarning: TEST_CHAIN_WARNING } : {}),
  };
}
