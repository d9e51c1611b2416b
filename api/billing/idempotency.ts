/**
 * Idempotency-Key for premium calls, stored in Postgres (`billing_idempotency`, migration 0100) so every API
 * instance sees the same keys. Keys are scoped to the token. Within 24 hours:
 * - same key, same request hash, first call finished → replay its stored status and body (charged once);
 * - same key, different request hash → 409 idempotency_key_reused;
 * - same key while the first call is still running in this process → 409 idempotency_in_progress (retry
 *   shortly). Across processes both may run, but the record is written in the same transaction as the charge
 *   (group-commit.ts) under the token's row lock: the first to commit is charged and stored, the other is not
 *   charged and answers with the stored answer.
 * Only definitive answers are stored (2xx, and 4xx from the handler); a call that ends in a no-charge failure
 * (5xx, schema failure) or a 402 writes nothing, so a retry runs again.
 */
import type { Sql } from "../state/types.ts";

/** An Idempotency-Key record as stored. */
export interface StoredIdempotency {
  requestHash: string;
  endpoint: string;
  state: "in_progress" | "done";
  status: number | null;
  body: string | null;
  createdAt: Date;
}

/** How long a stored answer is replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claim older than this with no answer (its process died) may be taken over. */
export const IDEMPOTENCY_STALE_CLAIM_SECONDS = 5 * 60;
/** Longest key accepted. */
export const IDEMPOTENCY_KEY_MAX = 200;

/** An idempotency record as stored (one per token and key). */
export interface IdempotencyRecordRow extends Record<string, unknown> {
  request_hash: string;
  endpoint: string;
  state: "in_progress" | "done";
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
}

/** True when an earlier record still binds its key: within the replay window, and not a claim its process abandoned. */
export function bindsKey(row: StoredIdempotency, now: Date): boolean {
  const age = (now.getTime() - row.createdAt.getTime()) / 1000;
  return age <= IDEMPOTENCY_TTL_SECONDS && !(row.state === "in_progress" && age > IDEMPOTENCY_STALE_CLAIM_SECONDS);
}

/** True when a header value is a usable key: 1–200 visible ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX && /^[\x21-\x7e]+$/.test(key);
}

/** The idempotency records of one database. */
export class IdempotencyStore {
  constructor(private readonly db: Sql) {}

  /** The record an earlier request left under `key`, if it still binds the key (within 24 h; an in-progress claim younger than 5 min). */
  async find(tokenId: string, key: string, now: Date): Promise<StoredIdempotency | undefined> {
    const { rows } = await this.db.query<IdempotencyRecordRow>(
      `SELECT request_hash, endpoint, state, response_status, response_body, created_at
         FROM billing_idempotency WHERE token_id = $1 AND idem_key = $2`,
      [tokenId, key],
    );
    const row = rows[0];
    if (!row) return undefined;
    const stored: StoredIdempotency = {
      requestHash: row.request_hash,
      endpoint: row.endpoint,
      state: row.state,
      status: row.response_status,
      body: row.response_body,
      createdAt: new Date(row.created_at),
    };
    return bindsKey(stored, now) ? stored : undefined;
  }

  /** Delete records older than the replay window; returns how many went. */
  async purgeExpired(now: Date): Promise<number> {
    const res = await this.db.query(`DELETE FROM billing_idempotency WHERE created_at < $1`, [
      new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000),
    ]);
    return res.rowCount;
  }
}
