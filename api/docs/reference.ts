/**
 * The endpoint reference as a plain, deterministic model of the registry: what the /docs page and
 * api/ENDPOINTS.md render. Only declarations go in (no manifest, no clock, no host), so the same registry
 * always gives the same text.
 */
import type { RouteDef } from "../registry/types.ts";
import { paramsOf, type ParamDoc } from "./endpoints.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

/** One input of an endpoint: a path or query parameter, or a field of the JSON body. */
export interface ReferenceInput {
  name: string;
  in: "path" | "query" | "body";
  type: string;
  required: boolean;
  /** Default, allowed values and bounds in words ("default 50; 1–200"), or "". */
  constraints: string;
  description: string;
}

/** One endpoint as the reference shows it. */
export interface ReferenceEndpoint {
  method: string;
  path: string;
  /** Stable anchor, GitHub's heading slug of "METHOD path". */
  anchor: string;
  tier: string;
  summary: string;
  description: string | null;
  contentType: string;
  costCredits: number | null;
  snapshots: string[];
  freshness: { cadence: string; slaSeconds: number } | null;
  /** A request path that succeeds on the bundled snapshots, for routes that take parameters. */
  example: string | null;
  inputs: ReferenceInput[];
}

/** Endpoints of one tier, in registry order. */
export interface ReferenceSection {
  tier: string;
  title: string;
  blurb: string;
  endpoints: ReferenceEndpoint[];
}

/** Section titles and one-line explanations per tier, in the order the reference lists them. */
export const TIERS: readonly { tier: string; title: string; blurb: string }[] = [
  { tier: "discovery", title: "Discovery", blurb: "What this service offers, generated from the same registry as this page." },
  { tier: "free", title: "Free data", blurb: "No credential; CORS enabled; limited per client IP (RateLimit-* headers)." },
  { tier: "preview", title: "Free previews", blurb: "Free samples of premium answers." },
  { tier: "payment", title: "Payments", blurb: "Buying credits (USDC), the free trial and balances." },
  { tier: "premium", title: "Premium (credits)", blurb: "Send Authorization: Bearer <token>; no charge when a call fails, a signed receipt when it succeeds." },
];

/** The reference model of `routes`: sections by tier (known tiers first), endpoints in registry order. */
export function buildReference(routes: readonly AnyRoute[]): ReferenceSection[] {
  const known = TIERS.map((t) => t.tier);
  const extra = [...new Set(routes.map((r) => r.tier))].filter((t) => !known.includes(t));
  const order = [...TIERS, ...extra.map((tier) => ({ tier, title: tier, blurb: "" }))];
  return order
    .map(({ tier, title, blurb }) => ({ tier, title, blurb, endpoints: routes.filter((r) => r.tier === tier).map(endpointOf) }))
    .filter((s) => s.endpoints.length > 0);
}

function endpointOf(route: AnyRoute): ReferenceEndpoint {
  return {
    method: route.method,
    path: route.path,
    anchor: headingSlug(`${route.method} ${route.path}`),
    tier: route.tier,
    summary: oneLine(route.summary),
    description: route.description ? oneLine(route.description) : null,
    contentType: route.contentType ?? "application/json",
    costCredits: route.cost ?? null,
    snapshots: route.snapshots ?? [],
    freshness: route.freshness ? { cadence: route.freshness.cadence, slaSeconds: route.freshness.slaSeconds } : null,
    example: route.example ?? null,
    inputs: [
      ...paramsOf(route.params, "path").map((p) => inputOf(p, "path")),
      ...paramsOf(route.query, "query").map((p) => inputOf(p, "query")),
      ...paramsOf(route.body, "query").map((p) => inputOf(p, "body")),
    ],
  };
}

function inputOf(p: ParamDoc, where: ReferenceInput["in"]): ReferenceInput {
  const parts: string[] = [];
  if (p.default !== undefined) parts.push(`default ${JSON.stringify(p.default)}`);
  if (p.enum) parts.push(`one of ${p.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  if (p.minimum !== undefined && p.maximum !== undefined) parts.push(`${p.minimum}–${p.maximum}`);
  else if (p.minimum !== undefined) parts.push(`≥ ${p.minimum}`);
  else if (p.maximum !== undefined) parts.push(`≤ ${p.maximum}`);
  if (p.format) parts.push(`format ${p.format}`);
  if (p.pattern && !p.enum) parts.push(`pattern ${p.pattern}`);
  return {
    name: p.name,
    in: where,
    type: p.type,
    required: p.required,
    constraints: parts.join("; "),
    description: p.description ? oneLine(p.description) : "",
  };
}

/** Collapse whitespace so a declaration's text fits one line or one table cell. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** GitHub's heading anchor: lower case, punctuation other than "-" and "_" dropped, spaces to "-". */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

