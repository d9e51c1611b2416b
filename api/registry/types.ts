/**
 * The route registry contract. Each route is declared once; routing, validation, /api/meta, the OpenAPI
 * document, /llms.txt and the conformance tests all read the same declarations.
 */
import type { z } from "zod";
import type { SnapshotMeta } from "../../pipelines/contract/snapshot-meta.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import type { PreviewRoute } from "../previews/catalog.ts";

export type { SnapshotMeta };

export type Tier = "discovery" | "free" | "preview" | "premium" | "payment";

/** A snapshot as the server holds it: the body the pipelines wrote plus its manifest entry. */
export interface LoadedSnapshot<T = unknown> {
  type: string;
  data: T;
  /** Manifest facts about the type. */
  meta: SnapshotMeta;
}

/** Read access to everything the pipelines wrote, as seen by a render function. */
export interface SnapshotReader {
  get<T = unknown>(type: string): LoadedSnapshot<T> | undefined;
  /** Every type in the manifest. */
  types(): string[];
  /** Dates (YYYY-MM-DD, ascending) with a dated file for a type. */
  dates(type: string): string[];
  /** A dated snapshot body, read from disk on demand; undefined when absent. */
  dated(type: string, date: string): Promise<unknown | undefined>;
}

export interface RenderContext {
  snapshots: SnapshotReader;
  /** PUBLIC_BASE_URL (no trailing slash). */
  baseUrl: string;
  now: Date;
  /** Every registered route (set by the app; discovery routes such as /api/meta read it). */
  routes?: readonly RouteDef<any, any, any>[];
  /** RATE_LIMIT_PER_MINUTE of the free tier (0 = off), set by the app for /api/meta. */
  rateLimitPerMinute?: number;
  /** PAYMENT_RATE_LIMIT_PER_MINUTE of the payment surface (0 = off), set by the app for /api/meta. */
  paymentRateLimitPerMinute?: number;
  /** False when premium routes are served without billing (PREMIUM_BILLING=off); set by the app for the discovery routes. */
  premiumBilling?: boolean;
  /** Read-only SQL over the warehouse's day files (api/warehouse/reader.ts); history series and verdicts read through it. */
  warehouse?: WarehouseReader;
  /** Changes whenever the snapshots or the warehouse do (set by the app); answers memoized per data version key on it. */
  dataVersion?: string;
}

/** What a `handle` function sees: the render context plus the request itself. */
export interface HandleContext extends RenderContext {
  request: Request;
  /** Client address (socket peer, or X-Forwarded-For when TRUST_PROXY trusts the peer). */
  clientIp: string;
}

/** A non-JSON response (RSS, JSON Feed, text). */
export interface RawBody {
  contentType: string;
  body: string;
}

export interface RouteInput<Q, P> {
  query: Q;
  params: P;
}

/**
 * A route declaration. Free routes give `render`, a pure function over snapshots whose result the server
 * serializes once per snapshot generation and input (static-first). Routes that need the request
 * (payments, premium, activity counters) give `handle` instead.
 */
export interface RouteDef<Q = Record<string, never>, P = Record<string, never>, R = unknown> {
  method: "GET" | "POST" | "DELETE";
  /** rou3 syntax: /api/history/:date/:type */
  path: string;
  tier: Tier;
  /** One line, shown in /api/meta, OpenAPI and /llms.txt. */
  summary: string;
  /** Longer text: choices made where the spec is silent, sources, limits. */
  description?: string;
  tags: string[];
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /** Schema of a successful JSON body; for raw bodies, describes the document in OpenAPI only. */
  response: z.ZodType<R>;
  /** Content type of a successful response (default application/json). */
  contentType?: string;
  /** Snapshot types the route reads (freshness in /api/meta comes from their manifest entries). */
  snapshots?: string[];
  /**
   * Refresh cadence in words and freshness SLA in seconds, for /api/meta and the stale_data rule
   * (api/registry/freshness.ts). `appliesTo`: the snapshot types the SLA holds (default: every type the route
   * reads); the others are held to their own feed's SLA.
   */
  freshness?: { cadence: string; slaSeconds: number; appliesTo?: readonly string[] };
  /**
   * A premium route whose answer does not age with the snapshots it reads (a registration, a filing's delta that
   * stands until a newer filing): stale snapshots do not make it free, and the fair-trade manifest lists no
   * stale_data outcome for it. Say why beside it.
   */
  chargedWhenStale?: true;
  /**
   * A concrete request (path and query) that succeeds on the bundled snapshots, for routes that need
   * parameters; /api/meta shows it and the end-to-end tests call it.
   */
  example?: string;
  /**
   * The route answers with a file and honours HTTP range requests (206, 416, If-Range) and conditional GETs
   * (ETag, 304), as api/http/range.ts does; declared in OpenAPI.
   */
  byteRanges?: boolean;
  /** Cost in credits (premium routes). */
  cost?: number;
  /**
   * A premium `render` route whose answer depends only on its input, the data (snapshots and warehouse) and the
   * UTC day: the wrapper computes and schema-checks it once per input, day and data version (bounded, dropped
   * when the data changes) and reuses it; every call is still billed, hashed and signed on its own.
   */
  answerMemo?: boolean;
  /**
   * A premium route whose handler has a side effect (a watch registered) undoes it here when the call that was
   * to be charged ends uncharged after the handler ran (the balance was spent meanwhile by a concurrent call,
   * the token expired, the commit failed): nothing a caller did not pay for stays behind.
   */
  undoUncharged?: (result: R) => Promise<void>;
  /**
   * Which free preview a `tier: "preview"` route is (a key of PREVIEWS in api/previews/catalog.ts): the app
   * validates the input, counts the call against that preview's daily quota (429 over it), then wraps what
   * `render` returns with `ok`, `preview`, `rate_limit` and `upgrade` (api/previews/response.ts).
   */
  preview?: PreviewRoute;
  /**
   * Whether a non-premium route reads `Authorization: Bearer <token>` (premium routes always do): `required`
   * (401 without a valid token) or `optional` (a token changes what the call does). Declared in OpenAPI.
   */
  bearer?: "required" | "optional";
  /**
   * Error statuses the route's own logic answers beyond those its tier and inputs imply (status → when), for
   * the OpenAPI document; every error body has the shape `{ ok: false, error, message }`.
   */
  errors?: Record<number, string>;
  /**
   * Documented no-charge outcomes of a premium route (out of coverage, untracked subject, no data …): `outcomes`
   * maps each reason code to when it applies (published in /.well-known/agent-fair-trade.json); `check` looks at
   * a successful body and returns the reason code when the call must not be charged, else null.
   */
  noCharge?: { outcomes: Record<string, string>; check: (body: R) => string | null };
  render?: (ctx: RenderContext, input: RouteInput<Q, P>) => R | RawBody | Promise<R | RawBody>;
  /** Largest JSON body accepted in bytes (default 64 KB, api/http/body.ts); larger answers 413 before parsing. */
  maxBodyBytes?: number;
  /** Schema of a JSON request body (POST routes with `handle`); a ZodError answers 400 invalid_body. */
  body?: z.ZodType<unknown>;
  /**
   * The answer to a body that is not valid JSON, for a route whose protocol defines its own (POST /mcp: the
   * JSON-RPC parse error); without it such a body gets 400 invalid_body. Size, depth and type refusals are unchanged.
   */
  notJsonBody?: () => Response;
  /**
   * For routes that need the request (never cached). May return a JSON value, a RawBody, or a ready
   * Response (status and headers of its own); CORS and rate-limit headers are added by the app.
   */
  handle?: (
    ctx: HandleContext,
    input: RouteInput<Q, P> & { body: unknown },
  ) => R | RawBody | Response | Promise<R | RawBody | Response>;
}

/** A route of any input and output type, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any>;

/** Thrown by render/handle functions for a clean JSON 4xx. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers (Retry-After …). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
