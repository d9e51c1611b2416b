/**
 * Watches (the contract's Watch and events): POST /api/premium/watches registers one (1 credit,
 * through the premium wrapper); listing, reading, deleting and a test delivery are free for the owning token
 * (bearer-only routes of the payment tier: the per-IP free limit does not apply, the payment throttle does to
 * unknown tokens and to POSTs). Evaluation and the outbox: api/watches/README.md; delivery: api/webhooks/.
 */
import { z } from "zod";
import { bearerOf } from "../payments/balance.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type HandleContext } from "../registry/types.ts";
import { whsecSecretProblem } from "../webhooks/sign.ts";
import { CALLBACK_URL_MAX, checkCallbackForRegistration } from "../watches/callback.ts";
import { lastClosedPeriod } from "../watches/evaluate-digest.ts";
import { newWatchSecret, WATCH_ID } from "../watches/ids.ts";
import { uptimeLeaderboard } from "../watches/leaderboard.ts";
import { watchServices } from "../watches/services.ts";
import { checkSpecSubject, WatchSpec } from "../watches/spec.ts";
import {
  ACTIVE_WATCHES_PER_TOKEN,
  deleteWatch,
  FIRE_CAP_DEFAULT,
  FIRE_CAP_MAX,
  getWatch,
  listWatches,
  queueTestDelivery,
  recentDeliveries,
  registerWatch,
  RECENT_DELIVERIES,
  WATCH_LIFETIME_DAYS,
} from "../watches/store.ts";
import { priceValues, statusValues } from "../watches/values.ts";

const tags = ["premium", "watches"];

/** Body of POST /api/premium/watches. */
export const RegisterWatchBody = z.strictObject({
  spec: WatchSpec,
  // Bounded at twice the limit here; the registration check refuses past CALLBACK_URL_MAX with invalid_callback_url,
  // and the schema clients see states that limit.
  callback_url: z
    .string()
    .min(1)
    .max(2 * CALLBACK_URL_MAX)
    .meta({ maxLength: CALLBACK_URL_MAX, description: `http(s) URL, at most ${CALLBACK_URL_MAX} characters, a port from 1 to 65535 if any, no user name or password.` }),
  secret: z
    .string()
    .min(16)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, "visible ASCII characters only")
    // A whsec_ secret is decoded to its key; only the canonical form signs what receivers can verify.
    .superRefine((secret, ctx) => {
      const problem = whsecSecretProblem(secret);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional()
    .meta({
      description:
        "Signing secret, 16 to 200 visible ASCII characters; one starting with whsec_ must continue with canonical padded standard base64 of at least 16 bytes (its decoded bytes are the key), any other is used as its text. Omitted → whsec_ + base64 of 32 random bytes, returned once.",
    }),
  fire_cap: z.number().int().min(1).max(FIRE_CAP_MAX).optional().meta({ description: `Most fires, 1 to ${FIRE_CAP_MAX} (default ${FIRE_CAP_DEFAULT}).` }),
});

const timestamp = z.iso.datetime();

/** A watch as every watch route shows it (never its secret). */
export const WatchSchema = z.strictObject({
  id: z.string().regex(WATCH_ID),
  spec: z.record(z.string(), z.unknown()),
  callback_url: z.string(),
  created: timestamp,
  expires_at: timestamp,
  fire_count: z.number().int().nonnegative(),
  fire_cap: z.number().int().positive(),
  status: z.enum(["active", "capped", "expired", "deleted"]),
  evaluated_at: timestamp.nullable(),
  last_seen: z.record(z.string(), z.unknown()).nullable().meta({ description: "What the last evaluation saw (the edge-trigger memory)." }),
});

const DeliverySchema = z.strictObject({
  id: z.string(),
  kind: z.enum(["fire", "test"]),
  state: z.enum(["pending", "delivered", "failed"]),
  created_at: timestamp,
  attempts: z.number().int().nonnegative(),
  next_attempt_at: timestamp.nullable(),
  delivered_at: timestamp.nullable(),
  attempt_log: z.array(
    z.strictObject({
      attempt: z.number().int().positive(),
      started_at: timestamp,
      status_code: z.number().int().nullable(),
      latency_ms: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

const RegisterResponse = z.strictObject({
  ok: z.literal(true),
  watch: WatchSchema,
  secret: z.string().nullable().meta({ description: "The generated signing secret, shown in this answer only; null when the body gave one." }),
});
const ListResponse = z.strictObject({ ok: z.literal(true), count: z.number().int(), active: z.number().int(), limit_active: z.number().int(), watches: z.array(WatchSchema) });
const OneResponse = z.strictObject({ ok: z.literal(true), watch: WatchSchema, deliveries: z.array(DeliverySchema) });
const DeleteResponse = z.strictObject({ ok: z.literal(true), watch: WatchSchema, refunded_credits: z.literal(0) });
const TestResponse = z.strictObject({ ok: z.literal(true), delivery_id: z.string(), event: z.literal("watch.test"), state: z.literal("pending") });
const IdParams = z.strictObject({ id: z.string().regex(WATCH_ID, "a watch id is wat_ followed by 24 hex characters") });

/** The id of the bearer's token: 401 invalid_token when missing or unknown, 401 token_expired for an expired trial. */
async function ownerOf(ctx: HandleContext): Promise<string> {
  const { credits } = watchServices();
  const bearer = bearerOf(ctx.request);
  if (!bearer) throw new ApiError(401, "invalid_token", "watches belong to a token: send Authorization: Bearer <token>");
  const token = await credits.tokenByBearer(bearer);
  if (!token) throw new ApiError(401, "invalid_token", "the bearer token is unknown");
  if (token.expiresAt && Date.parse(token.expiresAt) <= ctx.now.getTime()) throw new ApiError(401, "token_expired", `the bearer token expired at ${token.expiresAt}`);
  return token.id;
}

/** What the data shows now for a spec: the memory a new watch starts from (so only later changes fire). */
async function initialSeen(ctx: HandleContext, spec: WatchSpec): Promise<Record<string, unknown>> {
  switch (spec.type) {
    case "price":
      return { value: priceValues(ctx.snapshots).get(spec.model)![spec.field] };
    case "status":
      return { value: statusValues(ctx.snapshots).get(spec.provider) ?? null };
    case "leaderboard_rank": {
      const board = ctx.warehouse ? await uptimeLeaderboard(ctx.warehouse) : { entries: [] };
      return { rank: board.entries.find((e) => e.provider === spec.provider)?.rank ?? null };
    }
    case "digest":
      return { period_to: lastClosedPeriod(spec.cadence, ctx.now).to };
  }
}

/** Register a watch (the premium wrapper charges 1 credit when this returns). */
async function register(ctx: HandleContext, body: z.infer<typeof RegisterWatchBody>) {
  const { db, allowPrivateCallbacks } = watchServices();
  const tokenId = await ownerOf(ctx).catch((err: unknown) => {
    // An x402 one-off payment without a bearer token has no token to own the watch.
    if (err instanceof ApiError && err.status === 401) {
      throw new ApiError(400, "bearer_required", "a watch belongs to a token: register with Authorization: Bearer <token> (an x402 one-off retry returns its token in X-Payment-Token); nothing was charged");
    }
    throw err;
  });
  checkSpecSubject(body.spec, ctx.snapshots);
  const callbackUrl = await checkCallbackForRegistration(body.callback_url, { allowPrivate: allowPrivateCallbacks === true });
  const secret = body.secret ?? newWatchSecret();
  const watch = await registerWatch(
    db,
    { tokenId, spec: body.spec, callbackUrl, secret, fireCap: body.fire_cap ?? FIRE_CAP_DEFAULT, lastSeen: await initialSeen(ctx, body.spec) },
    ctx.now,
  );
  return { ok: true as const, watch, secret: body.secret === undefined ? secret : null };
}

const SPEC_DOC = [
  "Spec types: price {model, field inputPrice|outputPrice|blended, op lt|gt|changes, threshold (USD per 1M tokens, required for lt and gt)}; status {provider, op becomes|changes, value operational|degraded|down (for becomes)};",
  "digest {cadence daily|weekly}; leaderboard_rank {provider, op drops_below|rises_above|changes, threshold (integer rank, 1 = best, required unless changes)} on GET /api/providers/uptime-leaderboard.",
  "Unknown model (400 unknown_model), untracked provider (400 unknown_provider), a bad op or a missing threshold (400 invalid_body), a bad callback_url (400 invalid_callback_url): no charge.",
].join(" ");

/** The watch routes. */
export const premiumWatchesRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/premium/watches",
    tier: "premium",
    cost: 1,
    tags,
    summary: "Register a watch: a webhook POSTed to callback_url when a price, a provider status or an uptime rank moves, or a pricing digest each day or week.",
    description: [
      SPEC_DOC,
      `Limits: ${ACTIVE_WATCHES_PER_TOKEN} active watches per token (the next is 409 watch_limit_reached, no charge); lifetime ${WATCH_LIFETIME_DAYS} days (expires_at); fire_cap 1 to ${FIRE_CAP_MAX}, default ${FIRE_CAP_DEFAULT} (the watch is capped after that many fires).`,
      "callback_url: http or https, at most 2048 characters, a port from 1 to 65535 if any, no user name or password; delivery refuses private and internal addresses.",
      "secret: omitted → a generated whsec_ + base64(32 random bytes), returned once in this answer's secret and never shown again; given → 16 to 200 visible ASCII characters, and secret is null in the answer. A given secret starting with whsec_ must continue with canonical padded standard base64 (A-Z a-z 0-9 + /, = padding, no base64url) of at least 16 bytes, whose decoded bytes are the key (400 invalid_body otherwise, no charge); any other secret's UTF-8 bytes are the key. It signs every delivery (X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>, and the Standard Webhooks headers).",
      "Edge-triggered: the watch starts from what the data shows at registration (watch.last_seen) and fires once per crossing or change after it. Needs Authorization: Bearer (an x402 retry without a bearer is 400 bearer_required, no charge). Deleting a watch refunds nothing. A registration that ends uncharged after the watch was written (a concurrent call spent the last credit) leaves the watch deleted.",
    ].join(" "),
    body: RegisterWatchBody,
    response: RegisterResponse,
    snapshots: ["pricing", "status"],
    // A registration: its credit buys the deliveries to come, which are judged on the data of their own time.
    chargedWhenStale: true,
    errors: {
      400: "invalid_body, unknown_model, unknown_provider, invalid_callback_url or bearer_required; nothing is charged.",
      409: "watch_limit_reached: the token already holds 25 active watches; nothing is charged.",
    },
    handle: (ctx, input) => register(ctx, input.body as z.infer<typeof RegisterWatchBody>),
    // A registration whose charge did not happen (the balance was spent meanwhile by a concurrent call) leaves no watch.
    undoUncharged: async (result) => {
      await watchServices().db.query("UPDATE watches SET status = 'deleted', deleted_at = now() WHERE id = $1 AND status = 'active'", [result.watch.id]);
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/watches",
    tier: "payment",
    bearer: "required",
    tags,
    summary: "The bearer token's watches (deleted ones left out), newest first; free.",
    description: "Free for the owning token. Each watch as registered with its fire_count, status (active, capped, expired) and last_seen; never the secret. A watch past expires_at reads as expired.",
    response: ListResponse,
    handle: async (ctx) => {
      const { db } = watchServices();
      const watches = await listWatches(db, await ownerOf(ctx), ctx.now);
      return { ok: true as const, count: watches.length, active: watches.filter((w) => w.status === "active").length, limit_active: ACTIVE_WATCHES_PER_TOKEN, watches };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/watches/:id",
    tier: "payment",
    bearer: "required",
    tags,
    summary: "One of the bearer token's watches with its recent deliveries and every attempt (status code, latency, error); free.",
    description: `Free for the owning token; another token's watch is 404 watch_not_found. deliveries: the newest ${RECENT_DELIVERIES} (fire and test), each with state pending|delivered|failed and its attempt_log. A deleted watch still reads (status deleted).`,
    params: IdParams,
    response: OneResponse,
    example: "/api/premium/watches/wat_000000000000000000000000",
    errors: { 404: "watch_not_found: no watch of this id belongs to the token." },
    handle: async (ctx, input) => {
      const { db } = watchServices();
      const watch = await getWatch(db, await ownerOf(ctx), input.params.id, ctx.now);
      return { ok: true as const, watch, deliveries: await recentDeliveries(db, watch.id) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/premium/watches/:id",
    tier: "payment",
    bearer: "required",
    tags,
    summary: "Delete one of the bearer token's watches: it never fires again; the registration credit is not refunded; free.",
    description:
      "Free for the owning token; another token's watch is 404 watch_not_found. Deleting twice answers the deleted watch again. Deliveries still queued (pending, retries included) are dropped unsent when next due: each turns failed with a last attempt_log entry whose error is 'watch deleted: dropped unsent' (one already being sent may still arrive). Nothing is refunded (refunded_credits 0).",
    params: IdParams,
    response: DeleteResponse,
    errors: { 404: "watch_not_found: no watch of this id belongs to the token." },
    handle: async (ctx, input) => {
      const { db } = watchServices();
      return { ok: true as const, watch: await deleteWatch(db, await ownerOf(ctx), input.params.id, ctx.now), refunded_credits: 0 as const };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/premium/watches/:id/test",
    tier: "payment",
    bearer: "required",
    tags,
    summary: "Queue a test delivery (event watch.test, match {type: test}) to one of the bearer token's watches, signed like a fire; free.",
    description:
      "Free for the owning token; another token's watch is 404. The payload is { event: 'watch.test', watch_id, fired_at, spec, match: { type: 'test' } }, queued in the outbox like a fire and signed with the watch's secret; it does not count toward fire_cap. Works on capped and expired watches, not on deleted ones (409 watch_deleted). Its progress shows in GET /api/premium/watches/{id}.",
    params: IdParams,
    response: TestResponse,
    errors: { 404: "watch_not_found: no watch of this id belongs to the token.", 409: "watch_deleted: the watch was deleted." },
    handle: async (ctx, input) => {
      const { db } = watchServices();
      const queued = await queueTestDelivery(db, await ownerOf(ctx), input.params.id, ctx.now);
      return { ok: true as const, delivery_id: queued.id, event: "watch.test" as const, state: "pending" as const };
    },
  }),
];
