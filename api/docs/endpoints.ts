/**
 * The endpoint catalog as /api/meta and /llms.txt show it, derived from the registry: parameters come from
 * each route's zod schemas (as JSON Schema, input side), freshness from the manifest of the snapshot types
 * the route reads.
 */
import { z } from "zod";
import { staleSnapshots } from "../registry/freshness.ts";
import type { RouteDef, SnapshotMeta, SnapshotReader } from "../registry/types.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

/** One query or path parameter of an endpoint. */
export interface ParamDoc {
  name: string;
  in: "query" | "path";
  type: string;
  required: boolean;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
}

/** Freshness of an endpoint's data, computed against `now`. */
export interface FreshnessDoc {
  cadence: string;
  sla_seconds: number;
  last_success: string | null;
  stale: boolean;
}

/** One catalog row of /api/meta. */
export interface EndpointDoc {
  method: string;
  path: string;
  tier: string;
  summary: string;
  description?: string;
  tags: string[];
  content_type: string;
  cost_credits?: number;
  /** A full example URL, for routes that take parameters. */
  example?: string;
  params: ParamDoc[];
  freshness: FreshnessDoc | null;
}

/** zod object schema → parameter list (empty when the schema is not an object). */
export function paramsOf(schema: z.ZodType | undefined, where: "query" | "path"): ParamDoc[] {
  if (!schema) return [];
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  } catch {
    return [];
  }
  const props = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => {
    const doc: ParamDoc = { name, in: where, type: typeOf(p), required: where === "path" || required.has(name) };
    if (typeof p.description === "string") doc.description = p.description;
    if (p.default !== undefined) {
      doc.default = p.default;
      doc.required = false;
    }
    if (Array.isArray(p.enum)) doc.enum = p.enum;
    if (typeof p.minimum === "number") doc.minimum = p.minimum;
    if (typeof p.maximum === "number") doc.maximum = p.maximum;
    if (typeof p.pattern === "string") doc.pattern = p.pattern;
    if (typeof p.format === "string") doc.format = p.format;
    return doc;
  });
}

function typeOf(p: Record<string, unknown>): string {
  if (typeof p.type === "string") return p.type;
  if (Array.isArray(p.type)) return p.type.join(" | ");
  const alts = (p.anyOf ?? p.oneOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(alts)) return [...new Set(alts.map(typeOf))].join(" | ");
  if (Array.isArray(p.enum)) return typeof p.enum[0];
  return "string";
}

/**
 * Freshness of a route: its declared cadence/SLA (else the cadences and the shortest SLA of the types it reads), the
 * oldest last success among those types, and whether any of them is stale for it (api/registry/freshness.ts: the
 * rule premium calls are charged by).
 */
export function freshnessOf(route: AnyRoute, snapshots: SnapshotReader, now: Date): FreshnessDoc | null {
  const metas: SnapshotMeta[] = (route.snapshots ?? []).flatMap((t) => snapshots.get(t)?.meta ?? []);
  // A route whose answer does not age with its data (chargedWhenStale) and that declares no SLA has none to show.
  if (!route.freshness && (metas.length === 0 || route.chargedWhenStale)) return null;
  const sla = route.freshness?.slaSeconds ?? Math.min(...metas.map((m) => m.slaSeconds));
  const cadence = route.freshness?.cadence ?? metas.map((m) => m.cadence).join("; ");
  const declared = route.snapshots?.length ?? 0;
  const successes = metas.map((m) => m.lastSuccess);
  const lastSuccess =
    metas.length < declared || successes.some((s) => s === null)
      ? null
      : (successes as string[]).sort()[0] ?? null;
  const stale = declared > 0 ? lastSuccess === null || staleSnapshots(route, snapshots, now).length > 0 : false;
  return { cadence, sla_seconds: sla, last_success: lastSuccess, stale };
}

/** The catalog of every registered route, in registry order. */
export function describeEndpoints(routes: readonly AnyRoute[], snapshots: SnapshotReader, now: Date, baseUrl: string): EndpointDoc[] {
  return routes.map((r) => {
    const doc: EndpointDoc = {
      method: r.method,
      path: r.path,
      tier: r.tier,
      summary: r.summary,
      tags: r.tags,
      content_type: r.contentType ?? "application/json",
      params: [...paramsOf(r.params, "path"), ...paramsOf(r.query, "query")],
      freshness: freshnessOf(r, snapshots, now),
    };
    if (r.description) doc.description = r.description;
    if (r.cost !== undefined) doc.cost_credits = r.cost;
    if (r.example) doc.example = `${baseUrl}${r.example}`;
    return doc;
  });
}

/** rou3 path (`/a/:b`) → OpenAPI path (`/a/{b}`). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}
