import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp, type AnyRoute, type ServedSnapshots } from "../app.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type LoadedSnapshot, type SnapshotMeta } from "../registry/types.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { createCredits } from "./credits.ts";
import { Breakers } from "./breakers.ts";
import { canonicalJson, requestHash, responseHash } from "./canonical.ts";
import { createPremiumGateway, type X402Confirm } from "./premium.ts";
import { createPaymentThrottle } from "../http/payment-throttle.ts";
import { receiptKeyFromSeed } from "./receipt-key.ts";
import { verifyReceipt, type Receipt } from "./receipts.ts";
import type { PaymentTerms } from "./x402.ts";
import type { CreditLedger } from "../state/types.ts";

const NOW = new Date("2025-06-01T12:00:00.000Z");
const BASE = "https://feed.example";
const key = receiptKeyFromSeed(Uint8Array.from({ length: 32 }, (_, i) => 3 * i + 1));
const keys = new Map([[key.kid, key.publicKey]]);
const terms: PaymentTerms = { chainId: 8453, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo: "0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db" };

function meta(type: string, lastSuccess: string | null): SnapshotMeta {
  return {
    type,
    date: "2025-06-01",
    lastSuccess,
    lastAttempt: lastSuccess,
    lastChanged: lastSuccess,
    lastError: null,
    rows: 3,
    provenance: "replay",
    slaSeconds: 600,
    cadence: "every 10 minutes",
    sources: [],
  };
}

/** news refreshed 5 minutes ago, pricing 2 days ago. */
const snapshots: ServedSnapshots = {
  generation: 1,
  get: <T,>(type: string) => {
    const at: Record<string, string> = { news: "2025-06-01T11:55:00.000Z", pricing: "2025-05-30T12:00:00.000Z" };
    const last = at[type];
    return last ? ({ type, data: { items: [1, 2, 3] }, meta: meta(type, last) } as LoadedSnapshot<T>) : undefined;
  },
  types: () => ["news", "pricing"],
  dates: () => [],
  dated: async () => undefined,
};

const Echo = z.strictObject({ ok: z.literal(true), n: z.number().int(), items: z.array(z.number()) });
let gate: Promise<void> = Promise.resolve();
/** How many calls of /api/premium/test/slow have reached its gate. */
let slowWaiting = 0;
let handlerCalls = 0;
let memoCalls = 0;
const sideEffects = new Set<number>();

const routes: AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/api/premium/test/echo",
    tier: "premium",
    summary: "Echo n with the news items.",
    tags: ["test"],
    cost: 1,
    snapshots: ["news"],
    freshness: { cadence: "every 10 minutes", slaSeconds: 1800 },
    query: z.object({ n: z.coerce.number().int().min(1).max(10) }),
    response: Echo,
    render: (ctx, { query }) => {
      handlerCalls++;
      return { ok: true as const, n: query.n, items: ctx.snapshots.get<{ items: number[] }>("news")!.data.items };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/throws",
    tier: "premium",
    summary: "Always fails.",
    tags: ["test"],
    response: Echo,
    handle: () => {
      throw new Error("database exploded");
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/unknown/:name",
    tier: "premium",
    summary: "404 for every name.",
    tags: ["test"],
    params: z.object({ name: z.string() }),
    response: Echo,
    handle: (_ctx, { params }) => {
      throw new ApiError(404, "unknown_subject", `no subject ${params.name}`);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/bad-schema",
    tier: "premium",
    summary: "Answers off its schema.",
    tags: ["test"],
    response: Echo,
    handle: () => ({ ok: true, n: "three", items: [] }) as unknown as z.infer<typeof Echo>,
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/stale",
    tier: "premium",
    summary: "Reads the 2-day-old pricing snapshot with a 30-minute SLA.",
    tags: ["test"],
    snapshots: ["pricing"],
    freshness: { cadence: "hourly", slaSeconds: 1800 },
    response: Echo,
    render: () => ({ ok: true as const, n: 1, items: [] }),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/coverage",
    tier: "premium",
    summary: "Free when the package is not covered.",
    tags: ["test"],
    query: z.object({ package: z.string().min(1) }),
    response: z.strictObject({ ok: z.literal(true), package: z.string(), covered: z.boolean() }),
    noCharge: {
      outcomes: { out_of_coverage: "the package is in no covered advisory feed" },
      check: (body) => (body.covered ? null : "out_of_coverage"),
    },
    handle: (_ctx, { query }) => ({ ok: true as const, package: query.package, covered: query.package !== "left-pad-9" }),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/slow",
    tier: "premium",
    summary: "Waits for the test's gate.",
    tags: ["test"],
    query: z.object({ n: z.coerce.number().int() }),
    response: Echo,
    handle: async (_ctx, { query }) => {
      slowWaiting++;
      await gate;
      return { ok: true as const, n: query.n, items: [] };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/pricey",
    tier: "premium",
    summary: "Costs 5.",
    tags: ["test"],
    cost: 5,
    response: Echo,
    render: () => ({ ok: true as const, n: 5, items: [] }),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/side-effect",
    tier: "premium",
    summary: "Writes something, waits for the test's gate, and undoes the write when uncharged.",
    tags: ["test"],
    cost: 1,
    query: z.object({ n: z.coerce.number().int() }),
    response: Echo,
    handle: async (_ctx, { query }) => {
      sideEffects.add(query.n);
      await gate;
      return { ok: true as const, n: query.n, items: [] };
    },
    undoUncharged: async (result) => {
      sideEffects.delete(result.n);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/test/memo",
    tier: "premium",
    summary: "An answer memoized per input, day and data version.",
    tags: ["test"],
    cost: 1,
    answerMemo: true,
    query: z.object({ n: z.coerce.number().int().min(1).max(10) }),
    response: Echo,
    render: (_ctx, { query }) => {
      memoCalls++;
      if (query.n === 9) return { ok: true, n: "nine", items: [] } as unknown as z.infer<typeof Echo>;
      return { ok: true as const, n: query.n, items: [memoCalls] };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/premium/test/body",
    tier: "premium",
    summary: "POST with a body.",
    tags: ["test"],
    body: z.strictObject({ n: z.number().int().min(1) }),
    response: Echo,
    handle: (_ctx, { body }) => ({ ok: true as const, n: (body as { n: number }).n, items: [] }),
  }),
];

let tdb: TempDatabase;
let credits: CreditLedger;
let serverErrors: string[] = [];
const confirmCalls: { txHash: string; nonce: string; bearer?: string }[] = [];

/** A stand-in for confirmPayment over the real ledger: tx "0xgood…" mints a 25-credit token, anything else is refused. */
const confirmX402: X402Confirm = async (input) => {
  confirmCalls.push(input);
  if (!input.txHash.startsWith("0xgood")) throw new ApiError(409, "tx_already_used", `transaction ${input.txHash} was already used to buy credits`);
  return tdb.db.transaction(async (tx) => {
    const { token, id } = await credits.mintToken(tx, { kind: "paid" });
    await credits.grant(tx, id, 25, { reason: "purchase", ref: input.txHash });
    return { token };
  });
};

function build(options: { payments?: PaymentTerms | null; breakers?: Breakers } = {}) {
  const premium = createPremiumGateway({
    db: tdb.db,
    credits,
    receiptKey: key,
    payments: options.payments === undefined ? terms : options.payments,
    confirmX402,
    breakers: options.breakers,
    now: () => NOW,
    onServerError: (e) => serverErrors.push(String(e)),
  });
  return createApp({ routes, snapshots, baseUrl: BASE, rateLimitPerMinute: 0, trustProxy: null, premium, now: () => NOW }).app;
}

async function newToken(balance: number): Promise<{ token: string; id: string }> {
  return tdb.db.transaction(async (tx) => {
    const minted = await credits.mintToken(tx, { kind: "paid" });
    await credits.grant(tx, minted.id, balance, { reason: "purchase", ref: `test-${minted.id}` });
    return minted;
  });
}

async function balanceOf(token: string): Promise<number> {
  return (await credits.tokenByBearer(token))!.balance;
}

const auth = (token: string, extra: Record<string, string> = {}) => ({ headers: { Authorization: `Bearer ${token}`, ...extra } });

type Json = Record<string, any>;

beforeAll(async () => {
  tdb = await openTempDatabase();
  credits = createCredits(tdb.db);
});
afterAll(async () => {
  await tdb?.close();
});

describe("premium wrapper", () => {
  it("serve() answers 402 with the x402 v2 body and PAYMENT-REQUIRED header before validating the query", async () => {
    const app = build();
    for (const path of ["/api/premium/test/echo?n=999", "/api/premium/test/echo"]) {
      const res = await app.request(path);
      expect(res.status).toBe(402);
      const body = (await res.json()) as Json;
      expect(body).toMatchObject({ ok: false, error: "payment_required", x402Version: 2 });
      const header = res.headers.get("PAYMENT-REQUIRED");
      expect(header).toBeTruthy();
      const decoded = JSON.parse(Buffer.from(header!, "base64").toString("utf8")) as Json;
      expect(decoded.x402Version).toBe(2);
      expect(decoded.resource).toEqual({ url: `${BASE}${path}`, description: "Echo n with the news items.", mimeType: "application/json" });
      expect(decoded.accepts).toEqual([
        { scheme: "exact", network: "eip155:8453", amount: "20000", asset: terms.asset, payTo: terms.payTo, maxTimeoutSeconds: 1800, extra: { name: "USD Coin", version: "2" } },
      ]);
      expect(body.accepts).toEqual(decoded.accepts);
      expect(body.quote_flow.steps.map((s: Json) => s.action)).toEqual(["quote", "transfer", "retry"]);
      expect(res.headers.get("Access-Control-Expose-Headers")).toContain("PAYMENT-REQUIRED");
    }
    const unknown = await app.request("/api/premium/test/echo?n=1", auth(`afk_${"0".repeat(64)}`));
    expect(unknown.status).toBe(402);
    expect(((await unknown.json()) as Json).message).toMatch(/unknown/);
    const malformed = await app.request("/api/premium/test/echo?n=1", { headers: { authorization: `Bearer afk_${"0".repeat(64)} extra` } });
    expect(malformed.status).toBe(402);
    expect(((await malformed.json()) as Json).message).toMatch(/^the Authorization header is not of the form "Bearer <token>"/);
    expect(((await (await app.request("/api/premium/test/echo?n=1")).json()) as Json).message).toMatch(/^no credential was sent/);
  });

  it("serve() answers 402 saying payments are unavailable when they are not configured", async () => {
    const res = await build({ payments: null }).request("/api/premium/test/echo?n=1");
    expect(res.status).toBe(402);
    const body = (await res.json()) as Json;
    expect(body.accepts).toEqual([]);
    expect(body.quote_flow).toMatchObject({ available: false });
    expect(JSON.parse(Buffer.from(res.headers.get("PAYMENT-REQUIRED")!, "base64").toString()).accepts).toEqual([]);
  });

  it("serve() treats an expired trial token as no credential", async () => {
    const { token } = await tdb.db.transaction(async (tx) => {
      const m = await credits.mintToken(tx, { kind: "trial", expiresAt: new Date("2025-05-01T00:00:00Z") });
      await credits.grant(tx, m.id, 25, { reason: "trial", ref: `trial-${m.id}` });
      return m;
    });
    const res = await build().request("/api/premium/test/echo?n=1", auth(token));
    expect(res.status).toBe(402);
    expect(((await res.json()) as Json).message).toMatch(/expired/);
  });

  it("serve() answers 400 to a bad query with a token and charges nothing", async () => {
    const { token } = await newToken(10);
    const res = await build().request("/api/premium/test/echo?n=999", auth(token));
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error).toBe("invalid_query");
    expect(await balanceOf(token)).toBe(10);
  });

  it("serve() charges 1 on success and returns billing and a receipt that verifies against the request and body", async () => {
    const { token } = await newToken(10);
    const res = await build().request("/api/premium/test/echo?n=3", auth(token));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ ok: true, n: 3, items: [1, 2, 3], billing: { credits_charged: 1, credits_remaining: 9 } });
    expect(body.billing.no_charge_reason).toBeUndefined();
    expect(await balanceOf(token)).toBe(9);
    const receipt = body.receipt as Receipt;
    expect(verifyReceipt(receipt, keys, body)).toEqual({ valid: true, key_id: key.kid, response_matches: true });
    expect(receipt.signed).toMatchObject({
      endpoint: "GET /api/premium/test/echo",
      credits_charged: 1,
      no_charge_reason: null,
      time: NOW.toISOString(),
      request_hash: requestHash({ method: "GET", path: "/api/premium/test/echo", query: { n: "3" }, body: null }),
      response_hash: responseHash({ ok: true, n: 3, items: [1, 2, 3] }),
    });
    const hold = await tdb.db.query("SELECT status, receipt_id, response_hash FROM holds WHERE receipt_id = $1", [receipt.id]);
    expect(hold.rows[0]).toMatchObject({ status: "committed", response_hash: receipt.signed.response_hash });
  });

  it("serve() sends a paid body as its canonical JSON with billing and receipt appended last", async () => {
    const { token } = await newToken(10);
    const res = await build().request("/api/premium/test/echo?n=2", auth(token));
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text) as Json;
    const { billing, receipt, ...rest } = body;
    expect(text).toBe(`${canonicalJson(rest).slice(0, -1)},"billing":${JSON.stringify(billing)},"receipt":${JSON.stringify(receipt)}}`);
    expect(Object.keys(body)).toEqual(["items", "n", "ok", "billing", "receipt"]);
    expect(verifyReceipt(receipt as Receipt, keys, body).response_matches).toBe(true);
  });

  it("serve() answers 500 and charges nothing when the handler throws", async () => {
    const { token } = await newToken(10);
    serverErrors = [];
    const res = await build().request("/api/premium/test/throws", auth(token));
    expect(res.status).toBe(500);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ ok: false, error: "internal_error", billing: { credits_charged: 0, credits_remaining: 10, no_charge_reason: "server_error" } });
    expect(JSON.stringify(body)).not.toContain("exploded");
    expect(serverErrors.join()).toContain("database exploded");
    expect(await balanceOf(token)).toBe(10);
  });

  it("serve() releases the hold when the handler rejects the input with a 4xx", async () => {
    const { token } = await newToken(10);
    const res = await build().request("/api/premium/test/unknown/zzz", auth(token));
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).billing).toEqual({ credits_charged: 0, credits_remaining: 10, no_charge_reason: "client_error" });
    expect(await balanceOf(token)).toBe(10);
  });

  it("serve() answers 500 schema_failure, never sends the bad body and charges nothing", async () => {
    const { token } = await newToken(10);
    const res = await build().request("/api/premium/test/bad-schema", auth(token));
    expect(res.status).toBe(500);
    const body = (await res.json()) as Json;
    expect(body.error).toBe("schema_failure");
    expect(body.n).toBeUndefined();
    expect(await balanceOf(token)).toBe(10);
  });

  it("serve() answers stale data with credits_charged 0, stale_data and a receipt", async () => {
    const { token } = await newToken(10);
    const res = await build().request("/api/premium/test/stale", auth(token));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.billing).toMatchObject({ credits_charged: 0, credits_remaining: 10, no_charge_reason: "stale_data" });
    expect(body.billing.no_charge_detail).toContain("pricing last refreshed 2025-05-30T12:00:00.000Z");
    expect(body.receipt.signed).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
    expect(verifyReceipt(body.receipt, keys, body).valid).toBe(true);
    expect(await balanceOf(token)).toBe(10);
  });

  it("serve() does not charge a documented no-charge outcome of the route, and charges the covered case", async () => {
    const { token } = await newToken(10);
    const app = build();
    const free = (await (await app.request("/api/premium/test/coverage?package=left-pad-9", auth(token))).json()) as Json;
    expect(free).toMatchObject({ covered: false, billing: { credits_charged: 0, no_charge_reason: "out_of_coverage", no_charge_detail: "the package is in no covered advisory feed" } });
    expect(await balanceOf(token)).toBe(10);
    const paid = (await (await app.request("/api/premium/test/coverage?package=react", auth(token))).json()) as Json;
    expect(paid.billing).toEqual({ credits_charged: 1, credits_remaining: 9 });
    expect(await balanceOf(token)).toBe(9);
  });

  it("serve() opens the identical-request breaker on the 6th same request within 10 s without charging it", async () => {
    const { token } = await newToken(20);
    const app = build();
    handlerCalls = 0;
    for (let i = 0; i < 5; i++) expect((await app.request("/api/premium/test/echo?n=4", auth(token))).status).toBe(200);
    const tripped = await app.request("/api/premium/test/echo?n=4", auth(token));
    expect(tripped.status).toBe(429);
    expect(tripped.headers.get("Retry-After")).toBe("10");
    expect(((await tripped.json()) as Json)).toMatchObject({ error: "breaker_open", breaker: "identical_request" });
    expect(handlerCalls).toBe(5);
    expect(await balanceOf(token)).toBe(15);
    expect((await app.request("/api/premium/test/echo?n=5", auth(token))).status).toBe(200);
  });

  it("serve() refuses a parameter the route does not declare with a 400 naming it: no handler run, nothing charged", async () => {
    const { token } = await newToken(5);
    const app = build();
    handlerCalls = 0;
    const typo = await app.request("/api/premium/test/echo?nn=4&_=1", auth(token));
    expect(typo.status).toBe(400);
    const body = (await typo.json()) as Json;
    expect(body).toMatchObject({ ok: false, error: "invalid_query", accepted: ["n"], issues: [{ path: "nn" }, { path: "_" }] });
    expect(body.message).toBe("/api/premium/test/echo takes no parameters nn, _; it takes n. Nothing was charged.");
    expect(handlerCalls).toBe(0);
    expect(await balanceOf(token)).toBe(5);
    // Without a credential too: a 402 would name the resource without the typo, and a paid retry there would be charged.
    const unpaid = await app.request("/api/premium/test/echo?nn=4");
    expect(unpaid.status).toBe(400);
    expect(((await unpaid.json()) as Json).error).toBe("invalid_query");
  });

  it("serve() opens the burn-rate breaker after the charged-call limit without charging", async () => {
    const { token } = await newToken(20);
    const app = build({ breakers: new Breakers({ thresholds: { identical_request: { max: 5, windowSeconds: 10 }, burn_rate: { max: 3, windowSeconds: 60 } } }) });
    for (let n = 1; n <= 3; n++) expect((await app.request(`/api/premium/test/echo?n=${n}`, auth(token))).status).toBe(200);
    const tripped = await app.request("/api/premium/test/echo?n=9", auth(token));
    expect(tripped.status).toBe(429);
    expect(Number(tripped.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await tripped.json()) as Json).breaker).toBe("burn_rate");
    expect(await balanceOf(token)).toBe(17);
  });

  it("serve() replays an Idempotency-Key answer and charges once; a different request with the key gets 409", async () => {
    const { token } = await newToken(10);
    const app = build();
    handlerCalls = 0;
    const first = await app.request("/api/premium/test/echo?n=2", auth(token, { "Idempotency-Key": "order-42" }));
    const firstBody = await first.text();
    expect(first.status).toBe(200);
    // A browser may read the same headers on the first answer as on its replay.
    expect(first.headers.get("access-control-expose-headers")).toContain("Idempotent-Replayed");
    const again = await app.request("/api/premium/test/echo?n=2", auth(token, { "Idempotency-Key": "order-42" }));
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    // A parameter the route does not declare (a cache buster, a typo) is refused before the key is looked at.
    const busted = await app.request("/api/premium/test/echo?n=2&_=1732770000", auth(token, { "Idempotency-Key": "order-42" }));
    expect(busted.status).toBe(400);
    expect(handlerCalls).toBe(1);
    expect(await balanceOf(token)).toBe(9);
    const reused = await app.request("/api/premium/test/echo?n=3", auth(token, { "Idempotency-Key": "order-42" }));
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as Json).error).toBe("idempotency_key_reused");
    expect(await balanceOf(token)).toBe(9);
    // keys are per token: another token may use the same key
    const other = await newToken(5);
    expect((await app.request("/api/premium/test/echo?n=3", auth(other.token, { "Idempotency-Key": "order-42" }))).status).toBe(200);
    const tooLong = await app.request("/api/premium/test/echo?n=2", auth(token, { "Idempotency-Key": "k".repeat(201) }));
    expect(tooLong.status).toBe(400);
  });

  it("serve() replays a stored Idempotency-Key answer on every retry, the 6th and later included, before the breakers", async () => {
    const { token } = await newToken(10);
    const app = build();
    handlerCalls = 0;
    const first = await app.request("/api/premium/test/echo?n=7", auth(token, { "Idempotency-Key": "retry-loop" }));
    const firstBody = await first.text();
    for (let i = 0; i < 8; i++) {
      const again = await app.request("/api/premium/test/echo?n=7", auth(token, { "Idempotency-Key": "retry-loop" }));
      expect(again.status, `retry ${i + 1}`).toBe(200);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await again.text()).toBe(firstBody);
    }
    expect(handlerCalls).toBe(1);
    expect(await balanceOf(token)).toBe(9);
  });

  it("serve() answers HEAD with the status and headers of GET and never runs, holds or charges", async () => {
    const { token } = await newToken(3);
    const app = build();
    handlerCalls = 0;
    const noCredential = await app.request("/api/premium/test/echo?n=1", { method: "HEAD" });
    expect(noCredential.status).toBe(402);
    expect(noCredential.headers.get("payment-required")).not.toBeNull();
    const bad = await app.request("/api/premium/test/echo?n=99", { method: "HEAD", ...auth(token) });
    expect(bad.status).toBe(400);
    const head = await app.request("/api/premium/test/echo?n=1", { method: "HEAD", ...auth(token) });
    const get = await app.request("/api/premium/test/echo?n=1", auth(token));
    expect(head.status).toBe(get.status);
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect(handlerCalls).toBe(1);
    expect(await balanceOf(token)).toBe(2);
  });

  it("createApp() throttles requests with unknown bearer tokens per client, never known ones", async () => {
    const premium = createPremiumGateway({ db: tdb.db, credits, receiptKey: key, payments: terms, now: () => NOW });
    const paymentThrottle = createPaymentThrottle({ perMinute: 3, isKnownBearer: async (t) => (await credits.tokenByBearer(t)) !== undefined });
    const app = createApp({ routes, snapshots, baseUrl: BASE, rateLimitPerMinute: 0, trustProxy: null, premium, paymentThrottle, now: () => NOW }).app;
    const { token } = await newToken(20);
    for (let n = 1; n <= 6; n++) expect((await app.request(`/api/premium/test/echo?n=${n}`, auth(token))).status).toBe(200);
    const guesses: number[] = [];
    for (let i = 0; i < 6; i++) guesses.push((await app.request("/api/premium/test/echo?n=1", auth(`afk_${String(i).padStart(64, "0")}`))).status);
    expect(guesses).toEqual([402, 402, 402, 429, 429, 429]);
    const refused = await app.request("/api/premium/test/echo?n=1", auth("afk_guess"));
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ ok: false, error: "rate_limited" });
    expect((await app.request("/api/premium/test/echo?n=9", auth(token))).status).toBe(200);
  });

  it("serve() lets one of two concurrent requests with one Idempotency-Key run; the other gets 409 idempotency_in_progress", async () => {
    const { token } = await newToken(10);
    const app = build();
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const before = slowWaiting;
    const a = app.request("/api/premium/test/slow?n=1", auth(token, { "Idempotency-Key": "same" }));
    // The first request holds the key once its handler runs.
    await expect.poll(() => slowWaiting, { timeout: 10_000 }).toBe(before + 1);
    const b = await app.request("/api/premium/test/slow?n=1", auth(token, { "Idempotency-Key": "same" }));
    expect(b.status).toBe(409);
    expect(b.headers.get("Retry-After")).toBe("1");
    expect(((await b.json()) as Json).error).toBe("idempotency_in_progress");
    open();
    expect((await a).status).toBe(200);
    expect(await balanceOf(token)).toBe(9);
    const replay = await app.request("/api/premium/test/slow?n=1", auth(token, { "Idempotency-Key": "same" }));
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(token)).toBe(9);
  });

  it("serve() frees the Idempotency-Key after a failure so a retry runs again", async () => {
    const { token } = await newToken(10);
    const app = build();
    expect((await app.request("/api/premium/test/throws", auth(token, { "Idempotency-Key": "retry-me" }))).status).toBe(500);
    const rows = await tdb.db.query("SELECT 1 FROM billing_idempotency WHERE idem_key = 'retry-me'");
    expect(rows.rowCount).toBe(0);
  });

  it("serve() answers 402 insufficient_credits with the balance and the buy-credits hint, holding nothing", async () => {
    const { token } = await newToken(3);
    const res = await build().request("/api/premium/test/pricey", auth(token));
    expect(res.status).toBe(402);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ error: "insufficient_credits", balance: 3, cost_credits: 5, buy_credits: `${BASE}/api/payment/buy-credits` });
    expect(await balanceOf(token)).toBe(3);
  });

  it("serve() pays an x402 retry: confirms the payment, charges the new token and returns it in X-Payment-Token", async () => {
    const app = build();
    const res = await app.request("/api/premium/test/echo?n=7", { headers: { "X-Payment-Tx": "0xgood01", "X-Payment-Quote": "memo-1" } });
    expect(res.status).toBe(200);
    const token = res.headers.get("X-Payment-Token")!;
    expect(token).toMatch(/^afk_[0-9a-f]{64}$/);
    expect(((await res.json()) as Json).billing).toEqual({ credits_charged: 1, credits_remaining: 24 });
    expect(await balanceOf(token)).toBe(24);
    expect(confirmCalls.at(-1)).toEqual({ txHash: "0xgood01", nonce: "memo-1" });
    const refused = await app.request("/api/premium/test/echo?n=7", { headers: { "X-Payment-Tx": "0xused", "X-Payment-Quote": "memo-1" } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Json).error).toBe("tx_already_used");
    const half = await app.request("/api/premium/test/echo?n=7", { headers: { "X-Payment-Tx": "0xgood02" } });
    expect(half.status).toBe(400);
  });

  it("serve() never confirms an x402 retry on HEAD: the payment stays unspent for the GET", async () => {
    const app = build();
    const calls = confirmCalls.length;
    const head = await app.request("/api/premium/test/echo?n=7", { method: "HEAD", headers: { "X-Payment-Tx": "0xgood03", "X-Payment-Quote": "memo-3" } });
    expect(head.status).toBe(402);
    expect(head.headers.get("X-Payment-Token")).toBeNull();
    expect(confirmCalls.length).toBe(calls);
    const get = await app.request("/api/premium/test/echo?n=7", { headers: { "X-Payment-Tx": "0xgood03", "X-Payment-Quote": "memo-3" } });
    expect(get.status).toBe(200);
    expect(confirmCalls.at(-1)).toEqual({ txHash: "0xgood03", nonce: "memo-3" });
  });

  it("serve() hashes a POST body into the request hash and validates it after the credential", async () => {
    const { token } = await newToken(10);
    const app = build();
    const noCred = await app.request("/api/premium/test/body", { method: "POST", body: "not json" });
    expect(noCred.status).toBe(402);
    const bad = await app.request("/api/premium/test/body", { method: "POST", body: JSON.stringify({ n: 0 }), headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } });
    expect(bad.status).toBe(400);
    const ok = await app.request("/api/premium/test/body", { method: "POST", body: JSON.stringify({ n: 2 }), headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } });
    const body = (await ok.json()) as Json;
    expect(body.receipt.signed.request_hash).toBe(requestHash({ method: "POST", path: "/api/premium/test/body", query: {}, body: { n: 2 } }));
    expect(await balanceOf(token)).toBe(9);
  });

  it("createApp() answers premium routes 503 premium_unavailable when no billing wrapper is configured", async () => {
    const app = createApp({ routes, snapshots, baseUrl: BASE, rateLimitPerMinute: 0, trustProxy: null }).app;
    const res = await app.request("/api/premium/test/echo?n=1");
    expect(res.status).toBe(503);
    expect(((await res.json()) as Json).error).toBe("premium_unavailable");
  });
});

describe("premium wrapper with answerMemo", () => {
  it("computes an answer once per input and data version, and still bills and signs every call", async () => {
    const served: ServedSnapshots & { generation: number } = { ...snapshots, generation: 1 };
    const premium = createPremiumGateway({ db: tdb.db, credits, receiptKey: key, payments: terms, now: () => NOW });
    const app = createApp({ routes, snapshots: served, baseUrl: BASE, rateLimitPerMinute: 0, trustProxy: null, premium, now: () => NOW }).app;
    const { token } = await newToken(10);
    memoCalls = 0;
    const call = async (n: number) => (await (await app.request(`/api/premium/test/memo?n=${n}`, auth(token))).json()) as Json;
    const first = await call(2);
    const second = await call(2);
    expect(memoCalls).toBe(1);
    expect(second.items).toEqual(first.items);
    expect([first.billing.credits_charged, second.billing.credits_charged]).toEqual([1, 1]);
    expect(second.billing.credits_remaining).toBe(first.billing.credits_remaining - 1);
    expect(second.receipt.id).not.toBe(first.receipt.id);
    expect(verifyReceipt(second.receipt as Receipt, keys, second).valid).toBe(true);
    await call(3);
    expect(memoCalls).toBe(2);
    served.generation = 2;
    expect((await call(2)).items).toEqual([3]);
    // An answer off its schema is never kept: each call computes it again, and none is charged.
    const bad = await app.request("/api/premium/test/memo?n=9", auth(token));
    expect(bad.status).toBe(500);
    await app.request("/api/premium/test/memo?n=9", auth(token));
    expect(memoCalls).toBe(5);
    expect(await balanceOf(token)).toBe(10 - 4);
  });
});

describe("premium wrapper with undoUncharged", () => {
  it("undoes the side effect of a call that ends uncharged because a concurrent call spent the last credit", async () => {
    const app = build();
    const { token } = await newToken(1);
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    // Both calls pass the balance check and run; only one can be charged.
    const calls = [1, 2].map((n) => app.request(`/api/premium/test/side-effect?n=${n}`, auth(token)));
    await expect.poll(() => sideEffects.size, { timeout: 10_000 }).toBe(2);
    open();
    const statuses = (await Promise.all(calls)).map((r) => r.status).sort();
    gate = Promise.resolve();
    expect(statuses).toEqual([200, 402]);
    expect(sideEffects.size).toBe(1);
    expect(await balanceOf(token)).toBe(0);
  });
});

