/**
 * The watches table as the routes use it: registration (25 active per token, under a per-token lock), the
 * owner's list and one watch with its recent deliveries and attempts, deletion, and the test delivery.
 */
import { ApiError } from "../registry/types.ts";
import type { Database, Sql } from "../state/types.ts";
import { newMessageId, newWatchId } from "./ids.ts";
import type { WatchSpec } from "./spec.ts";

/** Active watches a token may hold. */
export const ACTIVE_WATCHES_PER_TOKEN = 25;
/** Lifetime of a watch. */
export const WATCH_LIFETIME_DAYS = 90;
/** fire_cap when none is given, and its largest value. */
export const FIRE_CAP_DEFAULT = 100;
export const FIRE_CAP_MAX = 1000;
/** Deliveries shown when reading one watch (newest first). */
export const RECENT_DELIVERIES = 20;

/** A watch as the API shows it (the secret never). */
export interface WatchView {
  id: string;
  spec: WatchSpec;
  callback_url: string;
  created: string;
  expires_at: string;
  fire_count: number;
  fire_cap: number;
  status: "active" | "capped" | "expired" | "deleted";
  evaluated_at: string | null;
  last_seen: Record<string, unknown> | null;
}

/** One attempt of a delivery. */
export interface AttemptView {
  attempt: number;
  started_at: string;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
}

/** One delivery of a watch, with its attempts. */
export interface DeliveryView {
  id: string;
  kind: "fire" | "test";
  state: "pending" | "delivered" | "failed";
  created_at: string;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  attempt_log: AttemptView[];
}

const iso = (v: unknown): string => (v instanceof Date ? v : new Date(String(v))).toISOString();
const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));

// An active watch past its expiry reads as expired (the runner also marks it so).
const COLUMNS = `id, spec, callback_url, created_at, expires_at, fire_count, fire_cap, evaluated_at, last_seen,
  CASE WHEN status = 'active' AND expires_at <= $NOW THEN 'expired' ELSE status END AS status`;

type Row = Record<string, unknown>;

function view(r: Row): WatchView {
  return {
    id: String(r.id),
    spec: r.spec as WatchSpec,
    callback_url: String(r.callback_url),
    created: iso(r.created_at),
    expires_at: iso(r.expires_at),
    fire_count: Number(r.fire_count),
    fire_cap: Number(r.fire_cap),
    status: r.status as WatchView["status"],
    evaluated_at: isoOrNull(r.evaluated_at),
    last_seen: (r.last_seen as Record<string, unknown> | null) ?? null,
  };
}

/** What a registration stores. */
export interface NewWatch {
  tokenId: string;
  spec: WatchSpec;
  callbackUrl: string;
  secret: string;
  fireCap: number;
  /** The edge-trigger memory to start from: what the data shows at registration. */
  lastSeen: Record<string, unknown>;
}

/** Register a watch; 409 watch_limit_reached when the token already holds 25 active ones. */
export async function registerWatch(db: Database, w: NewWatch, now: Date): Promise<WatchView> {
  return db.transaction(async (tx) => {
    // One registration per token at a time, so two concurrent ones cannot both take the 25th place.
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('watches:' || $1, 0))", [w.tokenId]);
    const { rows } = await tx.query<{ n: string }>("SELECT count(*) AS n FROM watches WHERE token_id = $1 AND status = 'active' AND expires_at > $2", [w.tokenId, now]);
    const active = Number(rows[0]!.n);
    if (active >= ACTIVE_WATCHES_PER_TOKEN) {
      throw new ApiError(409, "watch_limit_reached", `this token already holds ${active} active watches (the limit is ${ACTIVE_WATCHES_PER_TOKEN}); delete one first; nothing was charged`);
    }
    const expires = new Date(now.getTime() + WATCH_LIFETIME_DAYS * 86_400_000);
    const inserted = await tx.query(
      `INSERT INTO watches (id, token_id, spec, callback_url, secret, fire_cap, created_at, expires_at, last_seen, evaluated_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9::jsonb, $7)
       RETURNING ${COLUMNS.replace("$NOW", "$7")}`,
      [newWatchId(), w.tokenId, JSON.stringify(w.spec), w.callbackUrl, w.secret, w.fireCap, now, expires, JSON.stringify(w.lastSeen)],
    );
    return view(inserted.rows[0]!);
  });
}

/** The token's watches that are not deleted, newest first. */
export async function listWatches(db: Sql, tokenId: string, now: Date): Promise<WatchView[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS.replace("$NOW", "$2")} FROM watches WHERE token_id = $1 AND status <> 'deleted' ORDER BY created_at DESC, id`, [tokenId, now]);
  return rows.map(view);
}

/** One of the token's watches (deleted ones included), or 404 watch_not_found (also for another token's watch). */
export async function getWatch(db: Sql, tokenId: string, id: string, now: Date): Promise<WatchView> {
  const { rows } = await db.query(`SELECT ${COLUMNS.replace("$NOW", "$3")} FROM watches WHERE id = $1 AND token_id = $2`, [id, tokenId, now]);
  if (!rows[0]) throw notFound(id);
  return view(rows[0]);
}

/** The newest deliveries of a watch with their attempts. */
export async function recentDeliveries(db: Sql, watchId: string): Promise<DeliveryView[]> {
  const { rows } = await db.query(
    `SELECT d.id, d.kind, d.state, d.created_at, d.attempts, d.next_attempt_at, d.delivered_at,
       coalesce((SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at, 'status_code', a.status_code,
         'latency_ms', a.latency_ms, 'error', a.error) ORDER BY a.attempt) FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempt_log
     FROM webhook_deliveries d WHERE d.watch_id = $1 ORDER BY d.created_at DESC, d.id LIMIT ${RECENT_DELIVERIES}`,
    [watchId],
  );
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind as DeliveryView["kind"],
    state: r.state as DeliveryView["state"],
    created_at: iso(r.created_at),
    attempts: Number(r.attempts),
    next_attempt_at: r.state === "pending" ? isoOrNull(r.next_attempt_at) : null,
    delivered_at: isoOrNull(r.delivered_at),
    attempt_log: (r.attempt_log as Row[]).map((a) => ({
      attempt: Number(a.attempt),
      started_at: iso(a.started_at),
      status_code: a.status_code === null ? null : Number(a.status_code),
      latency_ms: a.latency_ms === null ? null : Number(a.latency_ms),
      error: (a.error as string | null) ?? null,
    })),
  }));
}

/** Delete one of the token's watches (it never fires again; nothing is refunded); 404 when it is not the token's. */
export async function deleteWatch(db: Sql, tokenId: string, id: string, now: Date): Promise<WatchView> {
  await db.query("UPDATE watches SET status = 'deleted', deleted_at = $3 WHERE id = $1 AND token_id = $2 AND status <> 'deleted'", [id, tokenId, now]);
  return getWatch(db, tokenId, id, now);
}

/** Queue a test delivery (event watch.test) for one of the token's watches that is not deleted; returns the message id and body. */
export async function queueTestDelivery(db: Database, tokenId: string, id: string, now: Date): Promise<{ id: string; body: string }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ spec: unknown; status: string }>("SELECT spec, status FROM watches WHERE id = $1 AND token_id = $2 FOR UPDATE", [id, tokenId]);
    const w = rows[0];
    if (!w) throw notFound(id);
    if (w.status === "deleted") throw new ApiError(409, "watch_deleted", `watch ${id} was deleted; a deleted watch gets no deliveries`);
    const messageId = newMessageId();
    const body = JSON.stringify({ event: "watch.test", watch_id: id, fired_at: now.toISOString(), spec: w.spec, match: { type: "test" } });
    await tx.query("INSERT INTO webhook_deliveries (id, watch_id, kind, body, state, created_at, next_attempt_at) VALUES ($1, $2, 'test', $3, 'pending', $4, $4)", [messageId, id, body, now]);
    return { id: messageId, body };
  });
}

function notFound(id: string): ApiError {
  return new ApiError(404, "watch_not_found", `no watch ${id} belongs to this token`);
}
