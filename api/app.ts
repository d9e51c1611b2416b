/**
 * The h3 app, built from the route registry alone. Per route: CORS, the per-IP limit on the free surface,
 * input validation with the route's zod schemas, then either the static-first path (render once per input
 * and data generation of snapshots and warehouse, keep the bytes, gzip/brotli copies and a strong ETag,
 * answer 304s) or `handle` for routes that need the request. Every error leaves as
 * `{ ok: false, error, message }`.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import { H3, getQuery, getRouterParams, type H3Event } from "h3";
import { ZodError } from "zod";
import { ApiError, type AnyRoute, type RawBody, type RenderContext, type SnapshotReader } from "./registry/types.ts";
import { createClientIp, type ClientIpResolver } from "./http/client-ip.ts";
import { dataGeneration } from "./serve/data-generation.ts";
import { CORS_HEADERS, preflightResponse, setCorsHeaders } from "./http/cors.ts";
import { matchesIfNoneMatch, pickEncoding, variantEtag, type Encoding } from "./http/encoding.ts";
import { SECURITY_HEADERS } from "./http/node-guard.ts";
import { clip } from "./http/clip.ts";
import { respondJson } from "./http/json-response.ts";
import { JSON_TYPE, respond } from "./http/respond.ts";
import { DEFAULT_MAX_BODY_BYTES, NotJsonBody, readJsonBody } from "./http/body.ts";
import { errorBody, invalidInput, toErrorParts } from "./http/errors.ts";
import type { PaymentThrottle } from "./http/payment-throttle.ts";
import { combineRateHeaders, createRateLimiter, type RateLimiter } from "./http/rate-limit.ts";
import { CachedBody, ResponseCache, type ResponseCacheOptions } from "./serve/response-cache.ts";
import { SingleFlight } from "./serve/single-flight.ts";
import { CachedRejection, MAX_CACHED_REJECTIONS } from "./serve/cached-rejection.ts";
import type { PremiumGateway } from "./billing/premium.ts";
import type { WarehouseReader } from "./warehouse/reader-contract.ts";
import { answerPreview, PreviewFieldsCache, previewSpecOf, type PreviewCounter } from "./previews/answer.ts";
import { startWarmer } from "./serve/warm.ts";
import { declaredQueryNames } from "./registry/query-names.ts";
import { repeatedParams } from "./http/repeated-params.ts";
import { looseNumbers } from "./http/strict-numbers.ts";

export type { AnyRoute } from "./registry/types.ts";

/** Snapshots as the app needs them: the reader plus a generation that grows on every reload. */
export interface ServedSnapshots extends SnapshotReader {
  readonly generation: number;
  onReload?(listener: (generation: number) => void): () => void;
}

/** Options for {@link createApp}. */
export interface AppOptions {
  routes: readonly AnyRoute[];
  snapshots: ServedSnapshots;
  /** PUBLIC_BASE_URL, no trailing slash. */
  baseUrl: string;
  /** 0 turns the limiter off. */
  rateLimitPerMinute: number;
  /** TRUST_PROXY (proxy-addr syntax) or null. */
  trustProxy: string | null;
  cache?: ResponseCacheOptions;
  /** Cache-Control max-age of free responses in seconds (default 60). */
  maxAgeSeconds?: number;
  /** Receives every 5xx cause (never sent to the client). */
  onServerError?: (error: unknown, where: string) => void;
  now?: () => Date;
  /** The billing wrapper every `tier: "premium"` route goes through (api/billing/premium.ts); without it they answer 503. */
  premium?: PremiumGateway;
  /** The payment-route throttle (api/http/payment-throttle.ts); none when absent. */
  paymentThrottle?: PaymentThrottle | null;
  /** Told of every answered request (status below 400) with the route template that answered it (agent activity). */
  onAnswered?: (answered: AnsweredRequest) => void;
  /** The warehouse reader handed to every render and handle function (api/warehouse/reader.ts). */
  warehouse?: WarehouseReader;
  /** Counts free preview calls per client and UTC day (api/previews/quota.ts); without it preview routes answer 503. */
  previews?: PreviewCounter;
  /** Render each premium and preview example once after every data change, in the background (api/serve/warm.ts). */
  warm?: boolean;
}

/** A request a route answered: what agent activity may record (never the raw path). */
export interface AnsweredRequest {
  userAgent: string | null;
  /** Route template as registered, e.g. /api/history/:date/:type. */
  template: string;
  /**
   * Client address (TRUST_PROXY rules applied), resolved only when called: agent activity asks for it only when the
   * User-Agent names a known bot, so the other answered requests never resolve it.
   */
  address: () => string;
}

/** Tiers the per-IP limit applies to. Premium and payment calls are metered by credits instead. */
const LIMITED_TIERS = new Set(["discovery", "free", "preview"]);

/** What createApp returns: the h3 app and its cache (exposed for tests and the reload hook). */
export interface BuiltApp {
  app: H3;
  cache: ResponseCache;
  /**
   * The static-first fast path for Node's http server: answers a GET/HEAD whose exact URL is already cached,
   * as an answer or as a kept 4xx (rate limit, CORS, ETag/304 and encoding included), without building a web
   * Request; resolves false when the request must go through the h3 app. Synchronous (a boolean) unless the
   * per-IP limiter is consulted.
   */
  serveCached(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  /** Stop listening to snapshot reloads and stop the warmer. */
  dispose(): void;
  /** Resolves when no background warming pass is running (await it before closing the warehouse). */
  idle(): Promise<void>;
}

/** Build the h3 app from the registry. Throws when two routes share a method and path. */
export function createApp(options: AppOptions): BuiltApp {
  const { routes, snapshots } = options;
  const now = options.now ?? (() => new Date());
  const cache = new ResponseCache(options.cache);
  const generation = dataGeneration(snapshots, options.warehouse);
  const limiter = createRateLimiter(options.rateLimitPerMinute);
  const clientIp = createClientIp(options.trustProxy);
  const maxAge = options.maxAgeSeconds ?? 60;
  const rejections = new ResponseCache<CachedRejection>({ ...options.cache, maxEntries: MAX_CACHED_REJECTIONS });
  const unsubscribe =
    snapshots.onReload?.(() => {
      cache.clear();
      rejections.clear();
    }) ?? (() => {});
  const app = new H3({
    onError: (error, event) => {
      // Only reached for failures outside route handlers (h3's own checks, e.g. malformed URLs).
      const status = error.status >= 400 && error.status < 500 ? error.status : 500;
      if (status >= 500) options.onServerError?.(error, event.url.pathname);
      return jsonResponse(
        status,
        errorBody(status === 400 ? "bad_request" : status >= 500 ? "internal_error" : "error", status >= 500 ? "the server failed to answer this request" : error.message),
      );
    },
  });

  const byPath = new Map<string, Map<string, AnyRoute>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Map<string, AnyRoute>();
    if (methods.has(route.method)) throw new Error(`route registry: ${route.method} ${route.path} is declared twice`);
    if (!route.render && !route.handle) throw new Error(`route registry: ${route.method} ${route.path} has neither render nor handle`);
    if (route.tier === "preview" && (!route.render || route.method !== "GET")) throw new Error(`route registry: preview route ${route.path} must be a GET with render`);
    if (route.tier === "preview") previewSpecOf(route);
    methods.set(route.method, route);
    byPath.set(route.path, methods);
  }

  const templates = new WeakMap<CachedBody, string>();
  const deps: ServeDeps = {
    options,
    cache,
    rejections,
    generation,
    limiter,
    clientIp,
    maxAge,
    now,
    templates,
    previewFields: new PreviewFieldsCache(),
    renders: new SingleFlight(),
  };
  const answered = (status: number, userAgent: string | null, template: string, address: () => string) => {
    if (status < 400 && options.onAnswered) options.onAnswered({ userAgent: userAgent?.slice(0, 500) ?? null, template, address });
  };
  for (const [path, methods] of byPath) {
    const allowed = [...methods.keys()];
    if (allowed.includes("GET")) allowed.push("HEAD");
    app.all(path, async (event) => {
      const method = event.req.method.toUpperCase();
      if (method === "OPTIONS") {
        return preflightResponse(allowed, event.req.headers.get("access-control-request-headers"));
      }
      const route = methods.get(method === "HEAD" ? "GET" : method);
      if (!route) {
        return jsonResponse(
          405,
          errorBody("method_not_allowed", `${clip(method)} is not allowed on ${path}; use ${allowed.join(", ")}`),
          { Allow: [...allowed, "OPTIONS"].join(", ") },
        );
      }
      const response = await serveRoute(route, event, method === "HEAD", deps);
      answered(response.status, event.req.headers.get("user-agent"), route.path, () => deps.clientIp(event.req.ip, event.req.headers.get("x-forwarded-for")));
      return response;
    });
  }
  app.all("/**", (event) => {
    const method = event.req.method;
    const text = JSON.stringify(errorBody("not_found", `no route for ${clip(method)} ${clip(event.url.pathname)}; see /api/meta`));
    // Kept for GET only: the message names the method, and a HEAD is answered with the GET's headers.
    if (method === "GET") keepRejection(deps, `GET ${event.url.pathname}${event.url.search}`, generation(), { status: 404, text, limited: false });
    return respondJson(text, 404);
  });

  const writeCached = (req: IncomingMessage, res: ServerResponse, hit: CachedBody, rateHeaders: Record<string, string>): true => {
    const head = req.method === "HEAD";
    const acceptEncoding = headerValue(req.headers["accept-encoding"]);
    const ifNoneMatch = headerValue(req.headers["if-none-match"]);
    if (rateHeaders === NO_HEADERS) {
      // The common case: no per-request header, so the whole header block is built once per body and variant.
      const encoding = pickEncoding(acceptEncoding);
      const encoded = encoding ? hit.encoded(encoding) : null;
      const notModified = matchesIfNoneMatch(ifNoneMatch, hit.etag);
      res.writeHead(notModified ? 304 : 200, nodeHeaderBlock(hit, encoded ? encoding : null, notModified, maxAge) as string[]);
      res.end(notModified || head ? undefined : (encoded ?? hit.bytes));
    } else {
      const reply = cachedReply(hit, { acceptEncoding, ifNoneMatch, head, rateHeaders, maxAge });
      res.writeHead(reply.status, { ...SECURITY_HEADERS, ...reply.headers });
      res.end(reply.body);
    }
    const template = options.onAnswered ? templates.get(hit) : undefined;
    const userAgent = template ? headerValue(req.headers["user-agent"]) : null;
    if (template && userAgent) answered(res.statusCode, userAgent, template, () => ipOf(req));
    return true;
  };

  const writeRejection = (req: IncomingMessage, res: ServerResponse, hit: CachedRejection, rateHeaders: Record<string, string>): true => {
    const block = rateHeaders === NO_HEADERS ? hit.headerBlock : [...hit.headerBlock, ...Object.entries(rateHeaders).flat()];
    res.writeHead(hit.status, block as string[]);
    res.end(req.method === "HEAD" ? undefined : hit.bytes);
    return true;
  };

  const serveCached = (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    const method = req.method;
    if ((method !== "GET" && method !== "HEAD") || !req.url) return false;
    const key = `GET ${req.url}`;
    const current = generation();
    const hit = cache.get(key, current);
    if (hit) {
      if (!limiter || !hit.limited) return writeCached(req, res, hit, NO_HEADERS);
      return serveLimited(req, res, limiter, (headers) => writeCached(req, res, hit, headers));
    }
    const rejected = rejections.get(key, current);
    if (!rejected) return false;
    if (!limiter || !rejected.limited) return writeRejection(req, res, rejected, NO_HEADERS);
    return serveLimited(req, res, limiter, (headers) => writeRejection(req, res, rejected, headers));
  };

  const ipOf = (req: IncomingMessage): string => {
    const forwarded = req.headers["x-forwarded-for"];
    return clientIp(req.socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? null));
  };

  /** The per-IP limit's decision first, as on the app's path; `write` answers with its headers when allowed. */
  const serveLimited = async (req: IncomingMessage, res: ServerResponse, limiter: RateLimiter, write: (rateHeaders: Record<string, string>) => true): Promise<boolean> => {
    const ip = ipOf(req);
    const decision = await limiter.check(ip);
    if (!decision.allowed) {
      const body = JSON.stringify(rateLimitedBody(limiter, ip, decision.retryAfterSeconds));
      res.writeHead(429, { ...SECURITY_HEADERS, ...CORS_HEADERS, ...decision.headers, "Content-Type": JSON_TYPE, "Cache-Control": "no-store" });
      res.end(body);
      return true;
    }
    return write(decision.headers);
  };

  const warmer = options.warm ? startWarmer({ routes, context: () => renderContext(deps) }) : undefined;
  return {
    app,
    cache,
    serveCached,
    dispose: () => {
      unsubscribe();
      warmer?.stop();
    },
    idle: async () => warmer?.idle(),
  };
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

function rateLimitedBody(limiter: RateLimiter, ip: string, retryAfterSeconds: number) {
  return errorBody("rate_limited", `more than ${limiter.perMinute} requests per minute from ${ip}; retry in ${retryAfterSeconds} s`);
}

interface ServeDeps {
  options: AppOptions;
  cache: ResponseCache;
  /** 4xx answers of cacheable routes, by the URL as sent (serve/cached-rejection.ts). */
  rejections: ResponseCache<CachedRejection>;
  /** The data generation cached bodies are valid for (api/serve/data-generation.ts). */
  generation: () => number;
  limiter: RateLimiter | null;
  clientIp: ClientIpResolver;
  maxAge: number;
  now: () => Date;
  /** Route template of each cached body, for agent activity on the fast path. */
  templates: WeakMap<CachedBody, string>;
  /** Rendered fields of preview routes, per input, for the current snapshots and warehouse. */
  previewFields: PreviewFieldsCache;
  /** Renders of cacheable answers in progress, by generation and normalized input (serve/single-flight.ts). */
  renders: SingleFlight<CachedBody>;
}

async function serveRoute(route: AnyRoute, event: H3Event, head: boolean, deps: ServeDeps): Promise<Response> {
  const { options, cache, limiter } = deps;
  const snapshots = options.snapshots;
  const ip = deps.clientIp(event.req.ip, event.req.headers.get("x-forwarded-for"));
  let rateHeaders: Record<string, string> = {};
  /** Set once the request is a cacheable GET: a 4xx from here on follows from its URL and data generation. */
  let rejectionKey: { key: string; generation: number } | undefined;
  if (limiter && LIMITED_TIERS.has(route.tier)) {
    const decision = await limiter.check(ip);
    rateHeaders = decision.headers;
    if (!decision.allowed) {
      return jsonResponse(429, rateLimitedBody(limiter, ip, decision.retryAfterSeconds), rateHeaders);
    }
  }

  try {
    const throttle = options.paymentThrottle;
    if (throttle) {
      const decision = await throttle.check(
        { method: route.method, tier: route.tier, authorization: event.req.headers.get("authorization"), paymentRetry: event.req.headers.has("x-payment-tx") },
        ip,
      );
      if (decision && !decision.allowed) {
        return jsonResponse(
          429,
          errorBody("rate_limited", `more than ${throttle.limiter.perMinute} payment requests (or requests with an unknown token) per minute from ${ip}; retry in ${decision.retryAfterSeconds} s`),
          decision.headers,
        );
      }
      if (decision) rateHeaders = decision.headers;
    }
    if (route.tier === "premium") {
      if (!options.premium) throw new ApiError(503, "premium_unavailable", "paid endpoints are not enabled on this instance (no billing database)");
      // Before the 402: a challenge names its resource with the declared parameters only, so a client that paid
      // and retried at that URL would be answered without its misspelled one, and charged.
      const rawQuery = getQuery(event);
      refuseUndeclaredParams(route, rawQuery);
      return await options.premium.serve({
        route,
        request: event.req,
        url: event.url,
        clientIp: ip,
        context: renderContext(deps),
        parse: async () => ({ ...parseInput(route, event, rawQuery), ...(await parseBody(route, event)) }),
      });
    }
    if (route.tier === "preview") return await servePreview(route, event, head, ip, rateHeaders, deps);
    const cacheable = Boolean(route.render) && route.method === "GET";
    const generation = deps.generation();
    const rawKey = `${route.method} ${event.url.pathname}${event.url.search}`;
    if (cacheable) {
      const hit = cache.get(rawKey, generation);
      if (hit) return sendCached(hit, event, head, rateHeaders, deps.maxAge);
      rejectionKey = { key: rawKey, generation };
    }

    const input = parseInput(route, event);
    const normKey = `${route.method} ${route.path} ${canonical(input)}`;
    if (cacheable) {
      const hit = cache.get(normKey, generation);
      if (hit) {
        if (onlyRecognizedParams(route, event.url.searchParams)) cache.set(rawKey, hit);
        return sendCached(hit, event, head, rateHeaders, deps.maxAge);
      }
    }

    requireSnapshots(route, snapshots);
    const ctx = renderContext(deps);

    if (route.render) {
      const render = async (): Promise<CachedBody> => {
        const result = await route.render!(ctx, input);
        const [bytes, contentType] = serialize(result, route);
        const rendered = new CachedBody(bytes, contentType, generation, { limited: LIMITED_TIERS.has(route.tier) });
        const earlier = cacheable ? cache.peek(normKey) : undefined;
        if (earlier) rendered.adoptEncodings(earlier);
        deps.templates.set(rendered, route.path);
        if (cacheable && generation === deps.generation()) cache.set(normKey, rendered);
        return rendered;
      };
      // Requests that miss together (an entry just expired, the data just moved) share one render.
      const body = cacheable ? await deps.renders.run(`${generation} ${normKey}`, render) : await render();
      // The URL as sent is an alias only when it names recognized parameters: junk parameters never fill the cache.
      if (cacheable && generation === deps.generation() && onlyRecognizedParams(route, event.url.searchParams)) cache.set(rawKey, body);
      return sendCached(body, event, head, rateHeaders, deps.maxAge);
    }

    let body: unknown;
    try {
      ({ body } = await parseBody(route, event));
    } catch (err) {
      if (!(err instanceof NotJsonBody && route.notJsonBody)) throw err;
      return withCorsAndLimits(route.notJsonBody(), rateHeaders);
    }
    const result = await route.handle!({ ...ctx, request: event.req, clientIp: ip }, { ...input, body });
    // A handler may spend more of the client's budget (/mcp dispatches each tool call as a request of the same
    // client): the headers say what is left after it, not before.
    if (limiter && LIMITED_TIERS.has(route.tier) && "RateLimit-Remaining" in rateHeaders) rateHeaders = (await limiter.peek(ip)) ?? rateHeaders;
    if (result instanceof Response) return withCorsAndLimits(result, rateHeaders);
    const [bytes, contentType] = serialize(result, route);
    const headers = new Headers({ "Content-Type": contentType, "Cache-Control": "no-store", ...rateHeaders });
    setCorsHeaders(headers);
    return respond(head ? null : bytes, 200, headers);
  } catch (err) {
    const parts = toErrorParts(err);
    if (parts.status >= 500 && !(err instanceof ApiError)) options.onServerError?.(err, `${route.method} ${route.path}`);
    const text = JSON.stringify(parts.body);
    if (rejectionKey) {
      keepRejection(deps, rejectionKey.key, rejectionKey.generation, { status: parts.status, text, headers: parts.headers, limited: LIMITED_TIERS.has(route.tier) });
    }
    // A preview's quota refusal carries the quota's RateLimit headers: combined with the minute's, as on its 200.
    const limits = route.tier === "preview" && parts.headers?.["RateLimit-Remaining"] !== undefined ? combineRateHeaders(parts.headers, rateHeaders) : { ...rateHeaders, ...parts.headers };
    return respondJson(text, parts.status, limits);
  }
}

/**
 * Keep an error answer for the fast path under `key` (the URL as sent) when it is a client error its URL and data
 * decide and the data has not moved since it was rendered.
 */
function keepRejection(
  deps: ServeDeps,
  key: string,
  generation: number,
  answer: { status: number; text: string; headers?: Record<string, string>; limited: boolean },
): void {
  if (!isKeptRejection(answer.status) || generation !== deps.generation()) return;
  const bytes = Buffer.from(answer.text);
  const block = rejectionHeaderBlock(respondJson(answer.text, answer.status, answer.headers), bytes);
  deps.rejections.set(key, new CachedRejection(answer.status, bytes, block, generation, { limited: answer.limited }));
}

/**
 * A client error its URL and data decide, kept for the fast path: not a 413 (about an upload), not a 429 (about
 * the client's rate) and not a 5xx (the server's state, which may mend without a new data generation).
 */
function isKeptRejection(status: number): boolean {
  return status >= 400 && status < 500 && status !== 413 && status !== 429;
}

/** The context every render and handle function sees. */
function renderContext(deps: ServeDeps): RenderContext {
  const { options } = deps;
  return {
    snapshots: options.snapshots,
    baseUrl: options.baseUrl,
    now: deps.now(),
    routes: options.routes,
    rateLimitPerMinute: options.rateLimitPerMinute,
    paymentRateLimitPerMinute: options.paymentThrottle?.limiter.perMinute ?? 0,
    premiumBilling: options.premium?.billing !== false,
    ...(options.warehouse ? { warehouse: options.warehouse } : {}),
    dataVersion: `${options.snapshots.generation}:${options.warehouse?.version ?? 0}`,
  };
}

/** 503 when a snapshot the route reads has not been produced (or cannot be read). */
function requireSnapshots(route: AnyRoute, snapshots: SnapshotReader): void {
  const missing = (route.snapshots ?? []).filter((t) => !snapshots.get(t));
  if (missing.length > 0) {
    throw new ApiError(503, "snapshot_unavailable", `snapshot ${missing.join(", ")} is not available yet; the pipelines have not produced it or its file is unreadable`);
  }
}

/**
 * A free preview (api/previews/answer.ts): input checked, fields rendered or reused, then the call counted
 * against the client's daily quota; a failed call or a HEAD counts nothing. The RateLimit-* headers describe
 * whichever of the daily quota and the per-minute limit has fewer calls left, and name both policies.
 */
async function servePreview(route: AnyRoute, event: H3Event, head: boolean, ip: string, rateHeaders: Record<string, string>, deps: ServeDeps): Promise<Response> {
  const { options } = deps;
  if (!options.previews) {
    throw new ApiError(503, "previews_unavailable", "free previews are not enabled on this instance: their daily quotas are counted in the state database, which is off");
  }
  const rawQuery = getQuery(event);
  refuseUndeclaredParams(route, rawQuery);
  const input = parseInput(route, event, rawQuery);
  requireSnapshots(route, options.snapshots);
  const ctx = renderContext(deps);
  const answer = await answerPreview({
    spec: previewSpecOf(route),
    counter: options.previews,
    address: ip,
    head,
    fields: () => deps.previewFields.get(ctx.dataVersion!, `${route.path} ${ctx.now.toISOString().slice(0, 16)} ${canonical(input)}`, async () => (await route.render!(ctx, input)) as Record<string, unknown>),
  });
  return jsonResponse(200, answer.body, combineRateHeaders(answer.headers, rateHeaders));
}

/**
 * A route's own Response with the CORS and rate-limit headers every answer carries, and the standard reason
 * phrase when it has none (a Response built without a statusText would go out as "HTTP/1.1 400 ").
 */
function withCorsAndLimits(response: Response, rateHeaders: Record<string, string>): Response {
  const named = response.statusText
    ? response
    : new Response(response.body, { status: response.status, statusText: STATUS_CODES[response.status] ?? "", headers: response.headers });
  setCorsHeaders(named.headers);
  for (const [k, v] of Object.entries(rateHeaders)) named.headers.set(k, v);
  return named;
}

/** The largest body any of `routes` accepts: the Node-level guard refuses a declared length above it. */
export function largestBodyLimit(routes: readonly AnyRoute[]): number {
  return Math.max(DEFAULT_MAX_BODY_BYTES, ...routes.map((r) => r.maxBodyBytes ?? 0));
}

/** The JSON body checked with the route's body schema, and the body as sent (undefined and null without a schema). */
async function parseBody(route: AnyRoute, event: H3Event): Promise<{ body: unknown; rawBody: unknown }> {
  if (!route.body) return { body: undefined, rawBody: null };
  const raw = await readJsonBody(event, route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  try {
    return { body: route.body.parse(raw), rawBody: raw };
  } catch (err) {
    if (err instanceof ZodError) throw invalidInput("body", err);
    throw err;
  }
}

/** How many undeclared parameter names a refusal lists. */
const MAX_LISTED_UNKNOWN = 10;

/**
 * 400 `invalid_query` for a paid or counted call (premium, preview) that names a parameter its route does not
 * declare: a misspelled `limt=1` would otherwise be answered (and charged) as if it were not there. Free routes
 * ignore such parameters (api/security.md).
 */
function refuseUndeclaredParams(route: AnyRoute, raw: Record<string, unknown>): void {
  const known = declaredQueryNames(route);
  let unknown: string[] | undefined;
  for (const name in raw) if (!known.has(name)) (unknown ??= []).push(name);
  if (!unknown) return;
  const listed = unknown.slice(0, MAX_LISTED_UNKNOWN).map((name) => clip(name, 60));
  const names = `${listed.join(", ")}${unknown.length > listed.length ? ` and ${unknown.length - listed.length} more` : ""}`;
  const accepted = [...known];
  throw new ApiError(
    400,
    "invalid_query",
    `${route.path} takes no parameter${unknown.length > 1 ? "s" : ""} ${names}; it takes ${accepted.length > 0 ? accepted.join(", ") : "none"}. Nothing was charged.`,
    { issues: listed.map((name) => ({ path: name, code: "unrecognized_keys", message: "not a parameter of this endpoint" })), accepted },
  );
}

/** The route's params and query, checked; `rawQuery` when the caller has read the query already. */
function parseInput(route: AnyRoute, event: H3Event, rawQuery?: Record<string, unknown>): { query: unknown; params: unknown } {
  let query: unknown = {};
  let params: unknown = {};
  if (route.params) {
    try {
      params = route.params.parse(getRouterParams(event, { decode: true }));
    } catch (err) {
      if (err instanceof ZodError) throw invalidInput("params", err);
      throw err;
    }
  }
  if (route.query) {
    try {
      const raw = recognizedQuery(route, rawQuery ?? getQuery(event));
      const repeated = repeatedParams(raw);
      if (repeated) throw repeated;
      const loose = looseNumbers(route.query, raw);
      if (loose) throw loose;
      query = route.query.parse(raw);
    } catch (err) {
      if (err instanceof ZodError) throw invalidInput("query", err);
      throw err;
    }
  }
  return { query, params };
}

/** True when every query parameter is one the route's query schema declares, each named once. */
function onlyRecognizedParams(route: AnyRoute, search: URLSearchParams): boolean {
  if (search.size === 0) return true;
  const known = declaredQueryNames(route);
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (!known.has(name) || seen.has(name)) return false;
    seen.add(name);
  }
  return true;
}

/**
 * The query parameters a route's schema declares; every other parameter is ignored (a charged call has refused
 * them already, refuseUndeclaredParams), so on free routes cache-busters neither fail a request nor change its answer.
 */
function recognizedQuery(route: AnyRoute, raw: Record<string, unknown>): Record<string, unknown> {
  const known = declaredQueryNames(route);
  return Object.fromEntries(Object.entries(raw).filter(([name]) => known.has(name)));
}

/** JSON with keys sorted at every depth: equal inputs give equal cache keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function isRawBody(value: unknown): value is RawBody {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return typeof v.contentType === "string" && typeof v.body === "string" && Object.keys(v).length === 2;
}

const encoder = new TextEncoder();

function serialize(result: unknown, route: AnyRoute): [Uint8Array, string] {
  if (isRawBody(result)) return [encoder.encode(result.body), result.contentType];
  const text = JSON.stringify(result);
  if (text === undefined) throw new Error(`${route.method} ${route.path} rendered a value with no JSON form`);
  return [encoder.encode(text), route.contentType && route.contentType !== "application/json" ? route.contentType : JSON_TYPE];
}

/** Status, headers and bytes of a cached body for one request's validators and encodings. */
interface CachedReply {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

function cachedReply(
  body: CachedBody,
  request: { acceptEncoding: string | null; ifNoneMatch: string | null; head: boolean; rateHeaders: Record<string, string>; maxAge: number },
): CachedReply {
  const encoding = pickEncoding(request.acceptEncoding);
  const encoded = encoding ? body.encoded(encoding) : null;
  const notModified = matchesIfNoneMatch(request.ifNoneMatch, body.etag);
  // Without per-request headers (rate limit) the headers of a body depend only on these; built once.
  const memoKey = Object.keys(request.rateHeaders).length === 0 ? `${encoded ? encoding : ""} ${request.maxAge} ${notModified ? 304 : 200}` : null;
  const memo = memoKey === null ? undefined : body.replyHeaders.get(memoKey);
  if (memo) return { status: notModified ? 304 : 200, headers: memo, body: notModified || request.head ? null : (encoded ?? body.bytes) };
  const headers: Record<string, string> = {
    ...request.rateHeaders,
    ...CORS_HEADERS,
    ETag: variantEtag(body.etag, encoded ? encoding : null),
    "Cache-Control": `public, max-age=${request.maxAge}`,
    Vary: "Accept-Encoding",
  };
  if (notModified) {
    if (memoKey !== null) body.replyHeaders.set(memoKey, headers);
    return { status: 304, headers, body: null };
  }
  const bytes = encoded ?? body.bytes;
  headers["Content-Type"] = body.contentType;
  if (encoded && encoding) headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = String(bytes.byteLength);
  if (memoKey !== null) body.replyHeaders.set(memoKey, headers);
  return { status: 200, headers, body: request.head ? null : bytes };
}

/**
 * The complete header block of a cached body's answer on the Node fast path (security headers included: the
 * fast path runs before the Node-level guard), as the flat `[name, value, …]` list `writeHead` takes, built
 * once per body, encoding and status: serving a cached body then costs no header building at all.
 */
function nodeHeaderBlock(body: CachedBody, encoding: Encoding | null, notModified: boolean, maxAge: number): readonly string[] {
  const slot = (encoding === "br" ? 2 : encoding === "gzip" ? 4 : 0) + (notModified ? 1 : 0);
  const built = body.nodeHeaders[slot];
  if (built && built.maxAge === maxAge) return built.block;
  const { headers } = cachedReply(body, {
    acceptEncoding: encoding,
    ifNoneMatch: notModified ? body.etag : null,
    head: true,
    rateHeaders: NO_HEADERS,
    maxAge,
  });
  const block = Object.entries({ ...SECURITY_HEADERS, ...headers }).flat();
  body.nodeHeaders[slot] = { maxAge, block };
  return block;
}

/**
 * The complete header block of a kept rejection on the Node fast path: the security headers, then the headers of
 * the JSON answer the app sends for it (CORS, type, `no-store`, the error's own), then its length.
 */
function rejectionHeaderBlock(answer: Response, bytes: Buffer): readonly string[] {
  return [...Object.entries(SECURITY_HEADERS).flat(), ...[...answer.headers].flat(), "Content-Length", String(bytes.byteLength)];
}

function sendCached(
  body: CachedBody,
  event: H3Event,
  head: boolean,
  rateHeaders: Record<string, string>,
  maxAge: number,
): Response {
  const reply = cachedReply(body, {
    acceptEncoding: event.req.headers.get("accept-encoding"),
    ifNoneMatch: event.req.headers.get("if-none-match"),
    head,
    rateHeaders,
    maxAge,
  });
  return respond(reply.body, reply.status, reply.headers);
}

function jsonResponse(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return respondJson(JSON.stringify(body), status, extra);
}
