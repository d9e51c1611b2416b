/**
 * The one wrapper every premium route (`tier: "premium"`) goes through. It composes the steps of a paid call,
 * each a named function below, in this order:
 *
 *   credential → challenge (402 when there is none) → validate → run → decideCharge → commit → sign
 *
 * (`presign`, between decideCharge and commit, has the receipt signed on a worker thread while the commit runs;
 * `sign` then puts it in the answer.)
 *
 * Nothing is written before the handler ran: the charge, its ledger entry, the Idempotency-Key record and
 * the receipt id go in one transaction (commit, shared with the other paid calls of the same instant: see
 * group-commit.ts), and the answer leaves only once that transaction is durable. Every no-charge outcome has
 * a named reason (no-charge.ts). Handlers never touch credits.
 */
import { bearerToken } from "../http/bearer.ts";
import { errorBody, toErrorParts } from "../http/errors.ts";
import { ApiError, type AnyRoute, type RenderContext } from "../registry/types.ts";
import type { Credits, Database, TokenInfo } from "../state/types.ts";
import { Breakers } from "./breakers.ts";
import { canonicalResponse, queryObject, requestHash, withoutBilling, type CanonicalResponse } from "./canonical.ts";
import { GroupCommit, type Settled } from "./group-commit.ts";
import { IdempotencyStore, isValidIdempotencyKey, IDEMPOTENCY_KEY_MAX, type StoredIdempotency } from "./idempotency.ts";
import { NO_CHARGE_REASONS } from "./no-charge.ts";
import { staleSnapshots, type StaleSnapshot } from "../registry/freshness.ts";
import { reply, replyBytes, type Answer } from "./premium-reply.ts";
import { resourceUrl } from "./resource-url.ts";
import { declaredQueryNames } from "../registry/query-names.ts";
import { TokenCache } from "./token-cache.ts";
import { VersionedMemo } from "../serve/versioned-memo.ts";
import type { ReceiptKey } from "./receipt-key.ts";
import { newReceiptId, signReceipt, type Receipt } from "./receipts.ts";
import { receiptSigner } from "./receipt-signer.ts";
import type { ExactPayments } from "../payments/x402-exact.ts";
import { paymentChallenge, paymentRequirement, X402_HEADERS, type PaymentTerms } from "./x402.ts";

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
  /** The state database: billing_idempotency (migration 0100), and the group commit's transactions. */
  db: Pick<Database, "query" | "transaction">;
  /** The receipt signing key (loaded once; see receipt-key.ts). */
  receiptKey: ReceiptKey | (() => Promise<ReceiptKey>);
  /** Where payments go; null when payments are not configured (the 402 then says so). */
  payments: PaymentTerms | null;
  /** The x402 retry; without it (or without payments) X-Payment-Tx is answered with the 402 challenge. */
  confirmX402?: X402Confirm;
  /** Standard x402 `exact` payments (PAYMENT-SIGNATURE); without them such a header gets the 402 challenge. */
  exact?: ExactPayments;
  breakers?: Breakers;
  now?: () => Date;
  /** Receives every server-side failure (never sent to the client). */
  onServerError?: (error: unknown, where: string) => void;
}

/** The premium wrapper, plugged into the app as `AppOptions.premium`. */
export interface PremiumGateway {
  serve(call: PremiumCall): Promise<Response>;
  readonly breakers: Breakers;
  /** True when premium calls are billed (false under PREMIUM_BILLING=off). */
  readonly billing: boolean;
  /** The group committer of a billed gateway (its counters show how many calls shared each commit). */
  readonly groupCommit?: GroupCommit;
}

/** What the steps share: the dependencies with their defaults filled in. */
interface Gateway {
  deps: PremiumDeps;
  now: () => Date;
  breakers: Breakers;
  committer: GroupCommit;
  idempotency: IdempotencyStore;
  receiptKey: () => Promise<ReceiptKey>;
  /** `token \n Idempotency-Key` of the keyed calls running in this process. */
  running: Set<string>;
  tokens: TokenCache;
  /** Answers of `answerMemo` routes, per input and UTC day, for the current data version. */
  answers: AnswerMemo;
  report(error: unknown, where: string): void;
}

/** Answers of routes that declare `answerMemo`, kept for one data version (api/serve/versioned-memo.ts). */
export class AnswerMemo extends VersionedMemo<Record<string, unknown>> {}

/** Build the premium wrapper: the composition of the steps. */
export function createPremiumGateway(deps: PremiumDeps): PremiumGateway {
  const now = deps.now ?? (() => new Date());
  const g: Gateway = {
    deps,
    now,
    breakers: deps.breakers ?? new Breakers(),
    committer: new GroupCommit(deps.db, { now }),
    idempotency: new IdempotencyStore(deps.db),
    receiptKey: typeof deps.receiptKey === "function" ? deps.receiptKey : () => Promise.resolve(deps.receiptKey as ReceiptKey),
    running: new Set(),
    tokens: new TokenCache(),
    answers: new AnswerMemo(),
    report: (error, where) => deps.onServerError?.(error, where),
  };

  async function serve(call: PremiumCall): Promise<Response> {
    const extra: Record<string, string> = {};
    try {
      const cost = costOf(call.route);
      const signature = call.request.headers.get(X402_HEADERS.signature);
      if (signature !== null && !call.request.headers.has("authorization") && g.deps.exact && g.deps.payments && call.request.method.toUpperCase() !== "HEAD") {
        return await serveExact(g, call, cost, signature, g.deps.exact, g.deps.payments, extra);
      }
      const head = call.request.method.toUpperCase() === "HEAD";
      const found = await credential(g, call, extra, head);
      if (!found.token) return reply(challenge(g, call, cost, found.why), extra);
      const token = found.token;
      if (head) return await headAnswer(call, token, cost, extra);
      const checked = await validate(g, call, token, cost);
      if ("early" in checked) return reply(checked.early, extra);
      if ("stored" in checked) return storedAnswer(checked.stored, checked.key, checked.reqHash, extra);
      const claim = checked.key === null ? null : `${token.id}\n${checked.key}`;
      if (claim !== null) {
        if (g.running.has(claim)) return reply(inProgress(checked.key!), extra);
        g.running.add(claim);
      }
      try {
        const key = await g.receiptKey();
        const ran = await run(g, call, checked.input);
        const decision = decideCharge(g, call, ran, cost);
        const presigned = presign(g, checked, decision, key);
        let committed: Awaited<ReturnType<typeof commit>>;
        try {
          committed = await commit(g, token, checked, decision, presigned, (s, receipt) => sign(g, call, checked, decision, s, key, receipt));
        } catch (err) {
          if (ran.ok && decision.charge > 0) await undoUncharged(g, call, ran.result);
          throw err;
        }
        const { settled, answer } = committed;
        if (ran.ok && decision.charge > 0 && settled.kind !== "charged") await undoUncharged(g, call, ran.result);
        if (settled.kind === "key_taken") return storedAnswer(settled.stored, checked.key, checked.reqHash, extra);
        if (settled.kind === "charged") g.breakers.recordCharge(token.id);
        if (found.bearer !== undefined && "balance" in settled) g.tokens.updateBalance(found.bearer, settled.balance);
        return reply(answer!, extra);
      } finally {
        if (claim !== null) g.running.delete(claim);
      }
    } catch (err) {
      const parts = toErrorParts(err);
      if (parts.status >= 500 && !(err instanceof ApiError)) g.report(err, `${call.route.method} ${call.route.path}`);
      return reply({ status: parts.status, body: parts.body, ...(parts.headers ? { headers: parts.headers } : {}), definitive: false }, extra);
    }
  }

  return { serve, breakers: g.breakers, billing: true, groupCommit: g.committer };
}

/**
 * A call paid with a standard x402 `exact` payment: verified and claimed first (one signed payment, one call),
 * then the input checked and the handler run as for any call; only a call that is charged is settled on chain,
 * and its credits go to a token minted for the payer (returned in X-Payment-Token) before the usual commit takes
 * them. An uncharged call releases the claim: nothing moves. The settlement answer is the PAYMENT-RESPONSE header.
 */
async function serveExact(g: Gateway, call: PremiumCall, cost: number, header: string, exact: ExactPayments, terms: PaymentTerms, extra: Record<string, string>): Promise<Response> {
  const where = `${call.route.method} ${call.route.path}`;
  const claim = await exact.claim(header, paymentRequirement(terms, cost), where, resourceUrl(call.context.baseUrl, call.route, call.url));
  let settled = false;
  try {
    const input = await call.parse();
    const missing = (call.route.snapshots ?? []).filter((t) => !call.context.snapshots.get(t));
    if (missing.length > 0) {
      throw new ApiError(503, NO_CHARGE_REASONS.snapshot_unavailable, `snapshot ${missing.join(", ")} is not available yet; nothing was charged`);
    }
    const checked: Validated = { where, input, key: null, reqHash: callHash(call, input) };
    const key = await g.receiptKey();
    const ran = await run(g, call, input);
    const decision = decideCharge(g, call, ran, cost);
    const presigned = presign(g, checked, decision, key);
    if (decision.charge === 0) return reply(sign(g, call, checked, decision, { kind: "free", balance: 0 }, key, presigned && (await presigned)), extra);
    const paid = await claim.settle(cost);
    extra[X402_HEADERS.response] = paid.header;
    if (!paid.ok) {
      if (ran.ok) await undoUncharged(g, call, ran.result);
      return reply({ status: 402, body: errorBody("payment_settlement_failed", `the payment could not be settled (${paid.reason}); nothing was charged and no data is sent`), definitive: false }, extra);
    }
    settled = true;
    extra[X402_HEADERS.token] = paid.bearer;
    const committed = await commit(g, paid.token, checked, decision, presigned, (s, receipt) => sign(g, call, checked, decision, s, key, receipt));
    if (committed.settled.kind === "charged") g.breakers.recordCharge(paid.token.id);
    return reply(committed.answer!, extra);
  } finally {
    if (!settled) await claim.release().catch((err: unknown) => g.report(err, `${where} x402 exact release`));
  }
}

/** The route's cost in credits (a positive integer; 1 when the route names none). */
export function costOf(route: AnyRoute): number {
  const cost = route.cost ?? 1;
  if (!Number.isSafeInteger(cost) || cost < 1) throw new Error(`${route.method} ${route.path}: cost must be a positive integer, got ${cost}`);
  return cost;
}

/**
 * HEAD on a paid endpoint: the status and headers the GET would get up to input validation (400 bad input,
 * 503 missing snapshot, 402 short balance, else 200) and no body; the handler never runs, nothing is held,
 * counted by the breakers or charged.
 */
async function headAnswer(call: PremiumCall, token: TokenInfo, cost: number, extra: Record<string, string>): Promise<Response> {
  await call.parse();
  const missing = (call.route.snapshots ?? []).filter((t) => !call.context.snapshots.get(t));
  if (missing.length > 0) {
    throw new ApiError(503, NO_CHARGE_REASONS.snapshot_unavailable, `snapshot ${missing.join(", ")} is not available yet; nothing was charged`);
  }
  if (token.balance < cost) return reply(insufficientCredits(call, cost, token.balance), extra);
  return replyBytes(200, "", extra);
}

// ── 1. credential ───────────────────────────────────────────────────────────────────────────────────────

/** The token a call pays with, or why there is none. */
type Credential = { token: TokenInfo; bearer?: string } | { token?: undefined; why: string };

/**
 * Step 1: an x402 retry (its payment confirmed now, the new token returned in X-Payment-Token), else a bearer
 * token. A HEAD never confirms a payment (it would spend it on an answer without a body): its retry headers are
 * ignored, and it is answered for its bearer token or with the challenge.
 */
async function credential(g: Gateway, call: PremiumCall, extra: Record<string, string>, head: boolean): Promise<Credential> {
  const headers = call.request.headers;
  const bearer = bearerToken(headers.get("authorization"));
  const txHash = head ? undefined : headers.get(X402_HEADERS.tx)?.trim();
  const nonce = head ? undefined : headers.get(X402_HEADERS.quote)?.trim();
  if (txHash || nonce) {
    if (!txHash || !nonce) {
      throw new ApiError(400, "invalid_payment_headers", `an x402 retry needs both ${X402_HEADERS.tx} and ${X402_HEADERS.quote}; got only ${txHash ? X402_HEADERS.tx : X402_HEADERS.quote}`);
    }
    if (!g.deps.payments || !g.deps.confirmX402) return { why: "the x402 retry cannot be honoured: payments are not configured on this instance" };
    const confirmed = await g.deps.confirmX402({ txHash, nonce, ...(bearer ? { bearer } : {}) });
    extra[X402_HEADERS.token] = confirmed.token;
    const token = await g.deps.credits.tokenByBearer(confirmed.token);
    if (!token) throw new Error(`x402 retry: the confirmed token is unknown to the ledger (tx ${txHash})`);
    return { token };
  }
  if (!bearer) {
    return {
      why: headers.has("authorization")
        ? "the Authorization header is not of the form \"Bearer <token>\" (one token, nothing after it)"
        : "no credential was sent (Authorization: Bearer <token>)",
    };
  }
  let info = g.tokens.get(bearer);
  if (!info || info.balance < costOf(call.route)) {
    info = await g.deps.credits.tokenByBearer(bearer);
    if (info) g.tokens.set(bearer, info);
  }
  if (!info) return { why: "the bearer token is unknown" };
  if (info.expiresAt && Date.parse(info.expiresAt) <= g.now().getTime()) return { why: `the bearer token expired at ${info.expiresAt}` };
  return { token: info, bearer };
}


// ── 2. challenge ────────────────────────────────────────────────────────────────────────────────────────

/** Step 2: the x402 402 challenge with payment instructions, before any parameter check. */
function challenge(g: Gateway, call: PremiumCall, cost: number, why: string): Answer {
  const { route, url, context } = call;
  const c = paymentChallenge({
    resourceUrl: resourceUrl(context.baseUrl, route, url),
    baseUrl: context.baseUrl,
    summary: route.summary,
    cost,
    terms: g.deps.payments,
    why,
  });
  return { status: 402, body: c.body, headers: { [X402_HEADERS.required]: c.header }, definitive: false };
}

// ── 3. validate ─────────────────────────────────────────────────────────────────────────────────────────

/** The request hash of a call: method, path as sent, the declared query parameters as sent, the JSON body as sent. */
function callHash(call: PremiumCall, input: ParsedInput): string {
  return requestHash({ method: call.route.method, path: call.url.pathname, query: queryObject(call.url.searchParams, declaredQueryNames(call.route)), body: input.rawBody ?? null });
}

/** A call ready to run. */
interface Validated {
  /** `METHOD /path` of the route, as receipts and charge rows name it. */
  where: string;
  input: ParsedInput;
  reqHash: string;
  /** The Idempotency-Key, or null without one. */
  key: string | null;
}

/**
 * Step 3: input (400), the snapshots the route reads (503), the Idempotency-Key's form (400) and its earlier
 * answer (replay or 409, before any breaker counts it), the breakers (429), and the balance (402): all before
 * the handler runs, nothing written.
 */
async function validate(
  g: Gateway,
  call: PremiumCall,
  token: TokenInfo,
  cost: number,
): Promise<Validated | { early: Answer } | { stored: StoredIdempotency; key: string; reqHash: string }> {
  const { route } = call;
  const input = await call.parse();
  const missing = (route.snapshots ?? []).filter((t) => !call.context.snapshots.get(t));
  if (missing.length > 0) {
    throw new ApiError(503, NO_CHARGE_REASONS.snapshot_unavailable, `snapshot ${missing.join(", ")} is not available yet; nothing was charged`);
  }
  const reqHash = callHash(call, input);

  const key = call.request.headers.get("idempotency-key");
  if (key !== null) {
    if (!isValidIdempotencyKey(key)) {
      throw new ApiError(400, "invalid_idempotency_key", `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters; got ${key.length} characters`);
    }
    const stored = await g.idempotency.find(token.id, key, g.now());
    if (stored) return { stored, key, reqHash };
  }

  // After the Idempotency-Key lookup: a retry whose answer is stored gets it however often it comes.
  const breaker = g.breakers.admit(token.id, reqHash);
  if (breaker.open) {
    return {
      early: {
        status: 429,
        body: errorBody(NO_CHARGE_REASONS.breaker_open, breaker.message, { breaker: breaker.breaker, retry_after_seconds: breaker.retryAfterSeconds }),
        headers: { "Retry-After": String(breaker.retryAfterSeconds) },
        definitive: false,
      },
    };
  }
  if (token.balance < cost) return { early: insufficientCredits(call, cost, token.balance) };
  return { where: `${route.method} ${route.path}`, input, reqHash, key };
}

/** 402 insufficient_credits: what the call costs, what the token holds, where to buy more. */
function insufficientCredits(call: PremiumCall, cost: number, balance: number): Answer {
  const base = call.context.baseUrl;
  return {
    status: 402,
    body: errorBody("insufficient_credits", `this call costs ${cost} credit${cost === 1 ? "" : "s"} and the token holds ${balance}; buy more with POST ${base}/api/payment/buy-credits and confirm to the same token`, {
      balance,
      cost_credits: cost,
      buy_credits: `${base}/api/payment/buy-credits`,
      payment_info: `${base}/api/payment/info`,
    }),
    definitive: false,
  };
}

/** What an earlier request with the same Idempotency-Key left: its answer replayed, or a 409. */
function storedAnswer(stored: StoredIdempotency, key: string | null, reqHash: string, extra: Record<string, string>): Response {
  if (stored.requestHash !== reqHash) {
    return reply(
      {
        status: 409,
        body: errorBody("idempotency_key_reused", `Idempotency-Key ${JSON.stringify(key)} was used in the last 24 h for a different request (${stored.endpoint}); use a new key for a new request`),
        definitive: false,
      },
      extra,
    );
  }
  if (stored.state !== "done" || stored.body === null) return reply(inProgress(key ?? ""), extra);
  return replyBytes(stored.status ?? 200, stored.body, { ...extra, "Idempotent-Replayed": "true" });
}

/** 409 idempotency_in_progress: the first request with this key has not answered yet. */
function inProgress(key: string): Answer {
  return {
    status: 409,
    body: errorBody("idempotency_in_progress", `a request with Idempotency-Key ${JSON.stringify(key)} is still running; retry in a moment to get its answer`),
    headers: { "Retry-After": "1" },
    definitive: false,
  };
}

// ── 4. run ──────────────────────────────────────────────────────────────────────────────────────────────

/** What the handler produced: a body matching the route's schema, or a failure with its no-charge reason. */
export type Ran =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; status: number; body: Record<string, unknown>; reason: string; definitive: boolean };

/** Step 4: run the handler, then hold its result to the route's published schema. */
export async function run(g: Pick<Gateway, "report"> & { answers?: AnswerMemo }, call: PremiumCall, input: ParsedInput): Promise<Ran> {
  const { route } = call;
  const where = `${route.method} ${route.path}`;
  const { query, params, body } = input;
  const compute = async (): Promise<Record<string, unknown>> => {
    const result = route.handle
      ? await route.handle({ ...call.context, request: call.request, clientIp: call.clientIp }, { query, params, body })
      : await route.render!(call.context, { query, params });
    const problem = checkSchema(route, result);
    if (problem) throw new SchemaFailure(problem);
    return result as Record<string, unknown>;
  };
  try {
    // A route whose answer depends only on its input, the data and the UTC day is computed (and checked against
    // its schema) once per input, day and data version; each call is still billed, hashed and signed.
    const memo = route.answerMemo && route.render && g.answers && call.context.dataVersion !== undefined ? g.answers : null;
    const result = memo
      ? await memo.get(call.context.dataVersion!, `${where} ${call.context.now.toISOString().slice(0, 10)} ${stableKey({ query, params })}`, compute)
      : await compute();
    return { ok: true, result };
  } catch (err) {
    if (err instanceof SchemaFailure) {
      g.report(new Error(`${where}: response schema failure: ${err.message}`), where);
      return {
        ok: false,
        status: 500,
        body: errorBody(NO_CHARGE_REASONS.schema_failure, "the endpoint produced an answer that does not match its published schema; it was not sent and nothing was charged"),
        reason: NO_CHARGE_REASONS.schema_failure,
        definitive: false,
      };
    }
    const parts = toErrorParts(err);
    if (parts.status >= 500 && !(err instanceof ApiError)) g.report(err, where);
    const reason = parts.status < 500 ? NO_CHARGE_REASONS.client_error : NO_CHARGE_REASONS.server_error;
    return { ok: false, status: parts.status, body: parts.body, reason, definitive: parts.status < 500 };
  }
}

/** The route's undo of a side effect nobody paid for (see `undoUncharged` in api/registry/types.ts); a failure is reported, never thrown. */
async function undoUncharged(g: Gateway, call: PremiumCall, result: Record<string, unknown>): Promise<void> {
  if (!call.route.undoUncharged) return;
  try {
    await call.route.undoUncharged(result);
  } catch (err) {
    g.report(err, `${call.route.method} ${call.route.path} undoUncharged`);
  }
}

/** A handler's answer that does not match its route's published schema. */
class SchemaFailure extends Error {
  override name = "SchemaFailure";
}

/** JSON with keys sorted at every depth: equal inputs give equal memo keys. */
function stableKey(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
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

// ── 5. decide charge ────────────────────────────────────────────────────────────────────────────────────

/** What a call will charge and answer, decided before anything is written. */
interface Decision {
  /** Credits to take: the route's cost, or 0. */
  charge: number;
  status: number;
  /** The answer without billing and receipt. */
  body: Record<string, unknown>;
  /** The no-charge reason, or null when charged. */
  reason: string | null;
  detail?: string;
  /** A 200 answer carries a signed receipt; a failure does not. */
  receipt: boolean;
  definitive: boolean;
  receiptId: string;
  responseHash: string;
  /** The canonical JSON of `body` (what the response hash covers) for an answer with a receipt, else "". */
  bodyText: string;
}

/** Step 5: charge or no-charge (failure, stale data against the route's SLA, the route's documented no-charge outcomes). */
function decideCharge(g: Gateway, call: PremiumCall, ran: Ran, cost: number): Decision {
  const where = `${call.route.method} ${call.route.path}`;
  const receiptId = newReceiptId();
  if (!ran.ok) {
    return { charge: 0, status: ran.status, body: ran.body, reason: ran.reason, receipt: false, definitive: ran.definitive, receiptId, responseHash: "", bodyText: "" };
  }
  const body = withoutBilling(ran.result);
  let reason: string | null = null;
  let detail: string | undefined;
  try {
    const stale = staleSnapshots(call.route, call.context.snapshots, g.now());
    if (stale.length > 0) {
      reason = NO_CHARGE_REASONS.stale_data;
      detail = describeStale(stale);
    } else if (call.route.noCharge) {
      const outcome = call.route.noCharge.check(ran.result);
      if (outcome !== null) {
        reason = outcome;
        detail = call.route.noCharge.outcomes[outcome];
      }
    }
  } catch (err) {
    g.report(err, `${where} noCharge`);
    return {
      charge: 0,
      status: 500,
      body: errorBody("internal_error", "the server failed to answer this request; nothing was charged"),
      reason: NO_CHARGE_REASONS.server_error,
      receipt: false,
      definitive: false,
      receiptId,
      responseHash: "",
      bodyText: "",
    };
  }
  const hashed = call.route.answerMemo ? hashOf(ran.result, body) : canonicalResponse(body);
  return { charge: reason === null ? cost : 0, status: 200, body, reason, ...(detail !== undefined ? { detail } : {}), receipt: true, definitive: true, receiptId, responseHash: hashed.hash, bodyText: hashed.text };
}

/**
 * Canonical texts and response hashes of memoized answers still held (serialized and hashed once, not on every
 * call). The text is also the start of the answer's bytes (see `answerText`), so a body is serialized once.
 */
const hashes = new WeakMap<object, CanonicalResponse>();

/**
 * {@link canonicalResponse} of `body`, the billing-free copy of a memoized `result`, remembered per `result`
 * object (only memoized answers: an answer made for one call would only weigh on the collector in this map).
 */
function hashOf(result: Record<string, unknown>, body: Record<string, unknown>): CanonicalResponse {
  let hashed = hashes.get(result);
  if (hashed === undefined) {
    hashed = canonicalResponse(body);
    hashes.set(result, hashed);
  }
  return hashed;
}

function describeStale(stale: StaleSnapshot[]): string {
  return stale
    .map((s) =>
      !s.last_success
        ? `${s.type} has never been refreshed successfully (SLA ${s.sla_seconds} s)`
        : s.age_seconds === null
          ? `${s.type} last refreshed ${s.last_success} by its record, ahead of this server's clock, so its age is unknown (SLA ${s.sla_seconds} s)`
          : `${s.type} last refreshed ${s.last_success} (${s.age_seconds} s ago), beyond this endpoint's ${s.sla_seconds} s freshness SLA`,
    )
    .join("; ");
}

// ── 6. commit ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * Step 6: the one durable write. A charge, or an answer to keep under an Idempotency-Key, goes to the group
 * commit (conditional debit, charge row with its receipt id, ledger entry, Idempotency-Key record with the
 * final answer, in one transaction shared with the calls of the same instant); resolves once durable. A
 * no-charge answer without a key writes nothing. `answerFor` is the sign step, run inside the transaction
 * when the answer must be stored with the key.
 */
async function commit(
  g: Gateway,
  token: TokenInfo,
  checked: Validated,
  decision: Decision,
  presigned: Promise<Receipt> | null,
  answerFor: (settled: Settled, receipt: Receipt | null) => Answer,
): Promise<{ settled: Settled; answer: Answer | null }> {
  const keyed = checked.key !== null && decision.definitive;
  if (decision.charge === 0 && !keyed) {
    const settled: Settled = { kind: "free", balance: token.balance };
    return { settled, answer: answerFor(settled, presigned && (await presigned)) };
  }
  // The answer stored with an Idempotency-Key is built inside the transaction, so its receipt must be ready
  // before; a plain charge's receipt is signed while its commit runs.
  const receiptBeforeCommit = keyed && presigned ? await presigned : null;
  let answer: Answer | null = null;
  const settled = await g.committer.submit({
    tokenId: token.id,
    cost: decision.charge,
    endpoint: checked.where,
    requestHash: checked.reqHash,
    responseHash: decision.responseHash,
    receiptId: decision.receiptId,
    ...(keyed
      ? {
          idempotency: {
            key: checked.key!,
            createdAt: g.now(),
            answer: (s: Settled) => {
              answer = answerFor(s, receiptBeforeCommit);
              return answer.definitive ? { status: answer.status, body: answer.text ?? JSON.stringify(answer.body) } : null;
            },
          },
        }
      : {}),
  });
  if (settled.kind === "key_taken") return { settled, answer: null };
  return { settled, answer: answer ?? answerFor(settled, presigned && (await presigned)) };
}

// ── 7. sign ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The receipt of a call that will answer 200, requested from the signing thread (receipt-signer.ts) as soon as
 * the charge is decided, so it is signed while the commit runs. It states the decided charge; `sign` uses it
 * when the commit charged exactly that, and signs anew otherwise. Null when the answer carries no receipt.
 */
function presign(g: Gateway, checked: Validated, decision: Decision, key: ReceiptKey): Promise<Receipt> | null {
  if (!decision.receipt) return null;
  return receiptSigner.sign(key, receiptFields(checked, decision, decision.charge, g.now()), (error) => g.report(error, `${checked.where} receipt signing`));
}

/** The fields a call's receipt signs. */
function receiptFields(checked: Validated, decision: Decision, charged: number, at: Date) {
  return {
    id: decision.receiptId,
    endpoint: checked.where,
    request_hash: checked.reqHash,
    response_hash: decision.responseHash,
    credits_charged: charged,
    no_charge_reason: decision.reason,
    time: at.toISOString(),
  };
}

/**
 * Step 7: the answer for a settled call: the body with its billing block and signed receipt (the presigned one
 * when it states what was charged), or the 402 a short or expired token gets.
 */
function sign(g: Gateway, call: PremiumCall, checked: Validated, decision: Decision, settled: Settled, key: ReceiptKey, presigned: Receipt | null): Answer {
  if (settled.kind === "short") return insufficientCredits(call, decision.charge, settled.balance);
  if (settled.kind === "expired" || settled.kind === "key_taken") {
    return challenge(g, call, decision.charge || costOf(call.route), `the bearer token is no longer usable (expired or unknown to the ledger)`);
  }
  const charged = settled.kind === "charged" ? decision.charge : 0;
  const billing: Record<string, unknown> = { credits_charged: charged, credits_remaining: settled.balance };
  if (decision.reason !== null) billing.no_charge_reason = decision.reason;
  if (decision.detail !== undefined) billing.no_charge_detail = decision.detail;
  if (!decision.receipt) return { status: decision.status, body: { ...decision.body, billing }, definitive: decision.definitive };
  const receipt = presigned?.signed.credits_charged === charged ? presigned : signReceipt(key, receiptFields(checked, decision, charged, g.now()));
  return { status: 200, body: { ...decision.body, billing, receipt }, text: answerText(decision.bodyText, billing, receipt), definitive: true };
}

/**
 * The bytes of a 200 answer: the body's canonical JSON (already made for the response hash) with `billing` and
 * `receipt` appended as its last members, instead of serializing the whole body again. The body's members come
 * in canonical (sorted) order; any JSON parser reads the same value as from JSON.stringify of the body.
 */
function answerText(bodyText: string, billing: Record<string, unknown>, receipt: Receipt): string {
  const members = `"billing":${JSON.stringify(billing)},"receipt":${JSON.stringify(receipt)}}`;
  return bodyText === "{}" ? `{${members}` : `${bodyText.slice(0, -1)},${members}`;
}
