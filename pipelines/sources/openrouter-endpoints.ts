/**
 * OpenRouter per-model endpoints — `GET https://openrouter.ai/api/v1/models/{author}/{slug}/endpoints`
 * (docs: https://openrouter.ai/docs/api-reference/list-endpoints-for-a-model). Public, no key; one request per
 * model. Body: `{ data: { id, name, endpoints: [{ provider_name, tag, context_length, pricing { prompt,
 * completion, … }, quantization, status, uptime_last_30m?, latency_last_30m?, throughput_last_30m? }] } }`.
 * Prices are USD per token as decimal strings (shifted to per 1M tokens like the model list). The 30-minute
 * latency (ms to first token) and throughput (tokens/s) come as percentile objects `{ p50, p75, p90, p99 }`
 * (we keep p50) and are null without an API key; uptime is a percentage. Every text is sanitized and clipped.
 */
import { z } from "zod";
import type { Source } from "../lib/types.ts";
import { cleanLabel, perTokenToPer1M, round6 } from "./openrouter.ts";

/** Endpoint listings beyond this many per model are dropped (the parse result says how many). */
export const MAX_ENDPOINTS_PER_MODEL = 100;
/** Longest provider name, tag or quantization label kept. */
const MAX_LABEL = 80;

/** The endpoints URL of an aggregator model id (`author/slug`); throws on an id that is not of that form. */
export function openrouterEndpointsUrl(aggregatorId: string): string {
  const parts = aggregatorId.split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw new RangeError(`openrouter-endpoints: model id must be "author/slug", got ${JSON.stringify(aggregatorId.slice(0, 100))}`);
  }
  return `https://openrouter.ai/api/v1/models/${encodeURIComponent(parts[0])}/${encodeURIComponent(parts[1])}/endpoints`;
}

const numberish = z.union([z.number(), z.string()]).optional().nullable();
/** A 30-minute statistic: a percentile object (current API) or a bare number. */
const stat = z.union([z.number(), z.looseObject({ p50: z.number().optional().nullable() })]).optional().nullable();

/** One upstream endpoint as we accept it (tolerant: unknown fields pass, most fields optional). */
const UpstreamEndpoint = z.looseObject({
  name: z.string().optional().nullable(),
  provider_name: z.string().min(1),
  tag: z.string().optional().nullable(),
  context_length: z.number().optional().nullable(),
  pricing: z.looseObject({ prompt: numberish, completion: numberish }).optional().nullable(),
  quantization: z.string().optional().nullable(),
  status: z.union([z.number(), z.string()]).optional().nullable(),
  uptime_last_30m: z.number().optional().nullable(),
  latency_last_30m: stat,
  throughput_last_30m: stat,
});
type UpstreamEndpoint = z.infer<typeof UpstreamEndpoint>;

const UpstreamBody = z.looseObject({
  data: z.looseObject({
    id: z.string().optional().nullable(),
    name: z.string().optional().nullable(),
    endpoints: z.array(z.unknown()),
  }),
});

/** What `parse` returns: the model's id and name as listed, the endpoints it could read, and what it skipped. */
export interface OpenRouterEndpointsParsed {
  id: string | null;
  name: string | null;
  endpoints: UpstreamEndpoint[];
  /** Entries that did not fit the schema. */
  skipped: number;
  /** Entries beyond MAX_ENDPOINTS_PER_MODEL. */
  dropped: number;
}

/** One provider endpoint of a model, normalized. */
export const OpenRouterEndpointRowSchema = z.strictObject({
  provider: z.string().min(1).max(MAX_LABEL),
  /** The aggregator's endpoint tag (`deepinfra/fp8`, `google-vertex`), unique per model. */
  tag: z.string().min(1).max(MAX_LABEL),
  contextLength: z.number().int().positive().nullable(),
  inputPer1M: z.number().nonnegative().nullable(),
  outputPer1M: z.number().nonnegative().nullable(),
  /** Median output tokens per second over the last 30 minutes, when the aggregator states it. */
  throughputTps: z.number().nonnegative().nullable(),
  /** Median time to first token over the last 30 minutes, ms, when stated. */
  latencyMs: z.number().nonnegative().nullable(),
  /** Share of successful requests over the last 30 minutes, percent, when stated. */
  uptimePct: z.number().min(0).max(100).nullable(),
  quantization: z.string().min(1).max(MAX_LABEL).nullable(),
  /** The aggregator's endpoint status as given: 0 in normal operation; it lists 0, -1, -2, -3, -5, -10 without saying what the negative ones mean; null when absent or not an integer. */
  status: z.number().int().nullable(),
});
export type OpenRouterEndpointRow = z.infer<typeof OpenRouterEndpointRowSchema>;

/** Error thrown when the body is not an endpoints listing. */
export class OpenRouterEndpointsParseError extends Error {
  override name = "OpenRouterEndpointsParseError";
}

/** A sanitized, clipped label, or null when nothing printable is left. */
function label(value: string | null | undefined): string | null {
  return cleanLabel(value, MAX_LABEL);
}

/** A tag for an endpoint the aggregator lists without one: its provider name in lower case with dashes. */
function tagOf(e: UpstreamEndpoint, provider: string): string {
  const given = label(e.tag);
  if (given) return given;
  return provider.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "unknown";
}

function nonNegative(n: number | null | undefined): number | null {
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? round6(n) : null;
}

function median(s: z.infer<typeof stat>): number | null {
  if (typeof s === "number") return nonNegative(s);
  return nonNegative(s?.p50);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function statusOf(s: number | string | null | undefined): number | null {
  const n = typeof s === "string" && /^-?\d{1,6}$/.test(s.trim()) ? Number(s) : s;
  return typeof n === "number" && Number.isInteger(n) ? n : null;
}

/** The OpenRouter per-model endpoints source. */
export const openrouterEndpoints = {
  id: "openrouter-endpoints",
  description:
    "OpenRouter GET /api/v1/models/{author}/{slug}/endpoints (https://openrouter.ai/docs): per-model provider endpoints with prices, uptime, latency, throughput; public, one request per model",
  parse(body: string): OpenRouterEndpointsParsed {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (cause) {
      throw new OpenRouterEndpointsParseError(`openrouter-endpoints: body is not JSON (starts ${JSON.stringify(body.slice(0, 40))})`, { cause });
    }
    const top = UpstreamBody.safeParse(json);
    if (!top.success) {
      throw new OpenRouterEndpointsParseError(`openrouter-endpoints: body has no data.endpoints[] array: ${top.error.message}`, { cause: top.error });
    }
    const listed = top.data.data.endpoints;
    const endpoints: UpstreamEndpoint[] = [];
    let skipped = 0;
    for (const item of listed.slice(0, MAX_ENDPOINTS_PER_MODEL)) {
      const e = UpstreamEndpoint.safeParse(item);
      if (e.success) endpoints.push(e.data);
      else skipped++;
    }
    return {
      id: top.data.data.id ?? null,
      name: top.data.data.name ?? null,
      endpoints,
      skipped,
      dropped: Math.max(0, listed.length - MAX_ENDPOINTS_PER_MODEL),
    };
  },
  /** One row per endpoint tag (the first listing of a tag wins), sorted by provider then tag. */
  normalize(parsed: OpenRouterEndpointsParsed): OpenRouterEndpointRow[] {
    const byTag = new Map<string, OpenRouterEndpointRow>();
    for (const e of parsed.endpoints) {
      const provider = label(e.provider_name);
      if (!provider) continue;
      const tag = tagOf(e, provider);
      if (byTag.has(tag)) continue;
      const uptime = nonNegative(e.uptime_last_30m);
      byTag.set(tag, {
        provider,
        tag,
        contextLength: typeof e.context_length === "number" && Number.isInteger(e.context_length) && e.context_length > 0 ? e.context_length : null,
        inputPer1M: perTokenToPer1M(e.pricing?.prompt),
        outputPer1M: perTokenToPer1M(e.pricing?.completion),
        throughputTps: median(e.throughput_last_30m),
        latencyMs: median(e.latency_last_30m),
        uptimePct: uptime !== null && uptime <= 100 ? uptime : null,
        quantization: label(e.quantization),
        status: statusOf(e.status),
      });
    }
    return [...byTag.values()].sort((a, b) => compare(a.provider, b.provider) || compare(a.tag, b.tag));
  },
  row: OpenRouterEndpointRowSchema,
} satisfies Source<OpenRouterEndpointsParsed, OpenRouterEndpointRow>;
