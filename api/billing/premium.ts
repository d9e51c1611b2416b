/**
 * The one wrapper every premium route (`tier: "premium"`) goes through, in order:
 * credential (bearer token, or an x402 retry confirmed like a payment) → 402 challenge when there is none →
 * input validation → snapshot presence → per-token breakers → Idempotency-Key → hold the cost → run the
 * handler → charge or no-charge (each no-charge with a named reason, see no-charge.ts) → commit or release →
 * billing block and signed receipt. Handlers never touch credits.
 */
import type { AnyRoute } from "../app.ts";
import { CORS_HEADERS } from "../http/cors.ts";
import { errorBody, toErrorParts } from "../http/errors.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import type { Credits, Sql, TokenInfo } from "../state/types.ts";
import { Breakers } from "./breakers.ts";
import { queryObject, requestHash, responseHash, withoutBilling } from "./canonical.ts";
import { IdempotencyStore, isValidIdempotencyKey, IDEMPOTENCY_KEY_MAX } from "./idempotency.ts";
import { NO_CHARGE_REASONS, staleSnapshots, type StaleSnapshot } from "./no-charge.ts";
import type { ReceiptKey } from "./receipt-key.ts";
import { newReceiptId, signReceipt } from "./receipts.ts";
import { paymentChallenge, X402_HEADERS, type PaymentTerms } from "./x402.ts";

/** Input of a premium call, validated by the app with the route's schemas. */
export interface ParsedInput {
  query: unknown;
  params: unknown;
  /** The body after the route's schema (undefined without one). */
  body: unknown;
  /** The JSON body as sent (null when none): what the request hash covers. */
  rawBody: unknown;
}

/** One premium request as the app hands it over. */
export interface PremiumCall {
  route: AnyRoute;
  request: Request;
  url: URL;
  clientIp: string;
  context: RenderContext;
  /** Validate query, params and body with the route's schemas; throws ApiError 400. Called after the credential check. */
  parse(): Promise<ParsedInput>;
}

/** Confirm an x402 retry's payment (same checks as POST /api/payment/confirm); resolves to the bearer token its credits are on. */
export type X402Confirm = (input: { txHash: string; nonce: string; bearer?: string }) => Promise<{ token: string }>;

/** What the wrapper needs. */
export interface PremiumDeps {
  credits: Credits;
  /** The database holding billing_idempotency (migration 0100). */
  db: Sql;
  /** The receipt signing key (loaded once; see receipt-key.ts). */
  receiptKey: ReceiptKey | (() => Promise<ReceiptKey>);
  /** Where payments go; null when payments are not configured (the 402 then says so). */
  payments: PaymentTerms | null;
  /** The x402 retry; without it (or without payments) X-Payment-Tx is answered with the 402 challenge. */
  confirmX402?: X402Confirm;
  breakers?: Breakers;
  now?: () => Date;
  /** Receives every server-side failure (never sent to the client). */
  onServerError?: (error: unknown, where: string) => void;
}

/** The premium wrapper, plugged into the app as `AppOptions.premium`. */
export interface PremiumGateway {
  serve(call: PremiumCall): Promise<Response>;
  readonly breakers: Breakers;
}

/** A finished answer before it becomes a Response. */
interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Stored for Idempotency-Key replays (2xx, and 4xx from the handler); other answers free the key. */
  definitive: boolean;
}

/** Headers browsers may read on premium answers, beyond the common ones. */
const PREMIUM_EXPOSED = [X402_HEADERS.required, X402_HEADERS.token, "Idempotent-Replayed"];
const JSON_TYPE = "application/json; charset=utf-8";

/** Build the premium wrapper. */
export function createPremiumGateway(deps: PremiumDeps): PremiumGateway {
  const now = deps.now ?? (() => new Date());
  const breakers = deps.breakers ?? new Breakers();
  const idempotency = new IdempotencyStore(deps.db);
  const receiptKey = typeof deps.receiptKey === "function" ? deps.receiptKey : () => Promise.resolve(deps.receiptKey as ReceiptKey);
  const report = (error: unknown, where: string) => deps.onServerError?.(error, where);

  async function serve(call: PremiumCall): Promise<Response> {
    const { route, request, url } = call;
    const where = `${route.method} ${route.path}`;
    const extra: Record<string, string> = {};
    try {
      const cost = route.cost ?? 1;
      if (!Number.isSafeInteger(cost) || cost < 1) throw new Error(`${where}: cost must be a positive integer, got ${cost}`);
      if (request.method.toUpperCase() === "HEAD") {
        return reply({ status: 405, body: errorBody("method_not_allowed", `HEAD is not served on the paid endpoint ${route.path}; use ${route.method}`), headers: { Allow: `${route.method}, OPTIONS` }, definitive: false }, extra);
      }

      // 1. Credential: an x402 retry (payment confirmed now), else a bearer token.
      const at = now();
      const bearer = bearerOf(request.headers.get("authorization"));
      const txHash = request.headers.get(X402_HEADERS.tx)?.trim();
      const nonce = request.headers.get(X402_HEADERS.quote)?.trim();
      let token: TokenInfo | undefined;
      let why = "no credential was sent (Authorization: Bearer <token>)";
      if (txHash || nonce) {
        if (!txHash || !nonce) {
          throw new ApiError(400, "invalid_payment_headers", `an x402 retry needs both ${X402_HEADERS.tx} and ${X402_HEADERS.quote}; got only ${txHash ? X402_HEADERS.tx : X402_HEADERS.quote}`);
        }
        if (!deps.payments || !deps.confirmX402) {
          why = "the x402 retry cannot be honoured: payments are not configured on this instance";
        } else {
          const confirmed = await deps.confirmX402({ txHash, nonce, ...(bearer ? { bearer } : {}) });
          extra[X402_HEADERS.token] = confirmed.token;
          token = await deps.credits.tokenByBearer(confirmed.token);
          if (!token) throw new Error(`x402 retry: the confirmed token is unknown to the ledger (tx ${txHash})`);
        }
      } else if (bearer) {
        const info = await deps.credits.tokenByBearer(bearer);
        if (!info) why = "the bearer token is unknown";
        else if (info.expiresAt && Date.parse(info.expiresAt) <= at.getTime()) why = `the bearer token expired at ${info.expiresAt}`;
        else token = info;
      }

      // 2. No credential: the 402 challenge, before any parameter check.
      if (!token) {
        const challenge = paymentChallenge({
          resourceUrl: `${call.context.baseUrl}${url.pathname}${url.search}`,
          baseUrl: call.context.baseUrl,
          summary: route.summary,
          cost,
          terms: deps.payments,
          why,
        });
        return reply({ status: 402, body: challenge.body, headers: { [X402_HEADERS.required]: challenge.header }, definitive: false }, extra);
      }

      // 3. Input validation (400, nothing held), then the snapshots the route reads.
      const input = await call.parse();
      const missing = (route.snapshots ?? []).filter((t) => !call.context.snapshots.get(t));
      if (missing.length > 0) {
        throw new ApiError(503, NO_CHARGE_REASONS.snapshot_unavailable, `snapshot ${missing.join(", ")} is not available yet; nothing was charged`);
      }
      const reqHash = requestHash({ method: route.method, path: url.pathname, query: queryObject(url.searchParams), body: input.rawBody ?? null });

      // 4. Breakers (429, nothing held).
      const decision = breakers.admit(token.id, reqHash);
      if (decision.open) {
        return reply(
          {
            status: 429,
            body: errorBody(NO_CHARGE_REASONS.breaker_open, decision.message, { breaker: decision.breaker, retry_after_seconds: decision.retryAfterSeconds }),
            headers: { "Retry-After": String(decision.retryAfterSeconds) },
            definitive: false,
          },
          extra,
        );
      }

      // 5. Idempotency-Key.
      const key = request.headers.get("idempotency-key");
      if (key !== null) {
        if (!isValidIdempotencyKey(key)) {
          throw new ApiError(400, "invalid_idempotency_key", `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters; got ${key.length} characters`);
        }
        const claim = await idempotency.claim(token.id, key, { requestHash: reqHash, endpoint: where }, at);
        if (claim.kind === "replay") {
          return replyBytes(claim.status, claim.body, { ...extra, "Idempotent-Replayed": "true" });
        }
        if (claim.kind === "reused") {
          throw new ApiError(409, "idempotency_key_reused", `Idempotency-Key ${JSON.stringify(key)} was used in the last 24 h for a different request (${claim.endpoint}); use a new key for a new request`);
        }
        if (claim.kind === "in_progress") {
          return reply(
            { status: 409, body: errorBody("idempotency_in_progress", `a request with Idempotency-Key ${JSON.stringify(key)} is still running; retry in a moment to get its answer`), headers: { "Retry-After": "1" }, definitive: false },
            extra,
          );
        }
      }

      // 6–7. Hold, run, decide, receipt.
      let answer: Answer;
      try {
        answer = await charge(call, token, { cost, reqHash, input, where });
      } catch (err) {
        if (key !== null) await idempotency.abandon(token.id, key).catch((e: unknown) => report(e, `${where} idempotency`));
        throw err;
      }
      if (key !== null) {
        const bytes = JSON.stringify(answer.body);
        if (answer.definitive) await idempotency.complete(token.id, key, { status: answer.status, body: bytes }, now());
        else await idempotency.abandon(token.id, key);
        return replyBytes(answer.status, bytes, { ...extra, ...answer.headers });
      }
      return reply(answer, extra);
    } catch (err) {
      const parts = toErrorParts(err);
      if (parts.status >= 500 && !(err instanceof ApiError)) report(err, where);
      return reply({ status: parts.status, body: parts.body, definitive: false }, extra);
    }
  }

  /** Hold the cost, run the handler, decide, settle, sign. */
  async function charge(
    call: PremiumCall,
    token: TokenInfo,
    c: { cost: number; reqHash: string; input: ParsedInput; where: string },
  ): Promise<Answer> {
    const { route } = call;
    const key = await receiptKey();
    const held = await deps.credits.hold(token.id, c.cost, { endpoint: c.where, requestHash: c.reqHash });
    if (!held) {
      return {
        status: 402,
        body: errorBody("insufficient_credits", `this call costs ${c.cost} credit${c.cost === 1 ? "" : "s"} and the token holds ${token.balance}; buy more with POST ${call.context.baseUrl}/api/payment/buy-credits and confirm to the same token`, {
          balance: token.balance,
          cost_credits: c.cost,
          buy_credits: `${call.context.baseUrl}/api/payment/buy-credits`,
          payment_info: `${call.context.baseUrl}/api/payment/info`,
        }),
        definitive: false,
      };
    }
    const stale = staleSnapshots(route, call.context.snapshots, now());
    const release = async (reason: string) => (await deps.credits.release(held.holdId, reason)).balance;

    let result: unknown;
    try {
      const { query, params, body } = c.input;
      result = route.handle
        ? await route.handle({ ...call.context, request: call.request, clientIp: call.clientIp }, { query, params, body })
        : await route.render!(call.context, { query, params });
    } catch (err) {
      const parts = toErrorParts(err);
      const reason = parts.status < 500 ? NO_CHARGE_REASONS.client_error : NO_CHARGE_REASONS.server_error;
      if (parts.status >= 500 && !(err instanceof ApiError)) report(err, c.where);
      const balance = await release(reason);
      return {
        status: parts.status,
        body: { ...parts.body, billing: { credits_charged: 0, credits_remaining: balance, no_charge_reason: reason } },
        definitive: parts.status < 500,
      };
    }

    const schemaProblem = checkSchema(route, result);
    if (schemaProblem) {
      report(new Error(`${c.where}: response schema failure: ${schemaProblem}`), c.where);
      const balance = await release(NO_CHARGE_REASONS.schema_failure);
      return {
        status: 500,
        body: errorBody(NO_CHARGE_REASONS.schema_failure, "the endpoint produced an answer that does not match its published schema; it was not sent and nothing was charged", {
          billing: { credits_charged: 0, credits_remaining: balance, no_charge_reason: NO_CHARGE_REASONS.schema_failure },
        }),
        definitive: false,
      };
    }
    const body = withoutBilling(result as Record<string, unknown>);

    let reason: string | null = null;
    let detail: string | undefined;
    try {
      if (stale.length > 0) {
        reason = NO_CHARGE_REASONS.stale_data;
        detail = describeStale(stale);
      } else if (route.noCharge) {
        const outcome = route.noCharge.check(result);
        if (outcome !== null) {
          reason = outcome;
          detail = route.noCharge.outcomes[outcome];
        }
      }
    } catch (err) {
      report(err, `${c.where} noCharge`);
      const balance = await release(NO_CHARGE_REASONS.server_error);
      return {
        status: 500,
        body: errorBody("internal_error", "the server failed to answer this request; nothing was charged", {
          billing: { credits_charged: 0, credits_remaining: balance, no_charge_reason: NO_CHARGE_REASONS.server_error },
        }),
        definitive: false,
      };
    }

    const receiptId = newReceiptId();
    const respHash = responseHash(body);
    let charged: number;
    let remaining: number;
    if (reason !== null) {
      charged = 0;
      remaining = await release(reason);
    } else {
      try {
        await deps.credits.commit(held.holdId, { responseHash: respHash, receiptId });
      } catch (err) {
        await release(NO_CHARGE_REASONS.server_error).catch(() => undefined);
        throw err;
      }
      charged = c.cost;
      remaining = held.balance;
      breakers.recordCharge(token.id);
    }
    const receipt = signReceipt(key, {
      id: receiptId,
      endpoint: c.where,
      request_hash: c.reqHash,
      response_hash: respHash,
      credits_charged: charged,
      no_charge_reason: reason,
      time: now().toISOString(),
    });
    const billing: Record<string, unknown> = { credits_charged: charged, credits_remaining: remaining };
    if (reason !== null) billing.no_charge_reason = reason;
    if (detail !== undefined) billing.no_charge_detail = detail;
    return { status: 200, body: { ...body, billing, receipt }, definitive: true };
  }

  return { serve, breakers };
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
function bearerOf(header: string | null): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value) || value instanceof Response) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Why a handler's result fails its route's contract, or null when it is a JSON object matching `route.response`. */
function checkSchema(route: AnyRoute, result: unknown): string | null {
  if (!isPlainObject(result)) return `expected a JSON object, got ${result instanceof Response ? "a Response" : Array.isArray(result) ? "an array" : typeof result}`;
  const parsed = route.response.safeParse(result);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return `${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"}`;
}

function describeStale(stale: StaleSnapshot[]): string {
  return stale
    .map((s) =>
      s.last_success
        ? `${s.type} last refreshed ${s.last_success} (${s.age_seconds} s ago), beyond this endpoint's ${s.sla_seconds} s freshness SLA`
        : `${s.type} has never been refreshed successfully (SLA ${s.sla_seconds} s)`,
    )
    .join("; ");
}

function headersFor(extra: Record<string, string>): Headers {
  const headers = new Headers(extra);
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
  headers.set("Access-Control-Expose-Headers", `${CORS_HEADERS["Access-Control-Expose-Headers"]}, ${PREMIUM_EXPOSED.join(", ")}`);
  headers.set("Content-Type", JSON_TYPE);
  headers.set("Cache-Control", "no-store");
  return headers;
}

function reply(answer: Answer, extra: Record<string, string>): Response {
  return replyBytes(answer.status, JSON.stringify(answer.body), { ...extra, ...answer.headers });
}

function replyBytes(status: number, body: string, extra: Record<string, string>): Response {
  return new Response(body, { status, headers: headersFor(extra) });
}

