/**
 * Idempotency-Key for premium calls, stored in Postgres (`billing_idempotency`, migration 0100) so every API
 * instance sees the same keys. Keys are scoped to the token. Within 24 hours:
 * - same key, same request hash, first call finished → replay its stored status and body (charged once);
 * - same key, different request hash → 409 idempotency_key_reused;
 * - same key while the first call is still running → 409 idempotency_in_progress (retry shortly): the
 *   primary key decides which of two concurrent requests wins, the loser never waits on a lock.
 * Only definitive answers are stored (2xx, and 4xx from the handler); a call that ends in a no-charge failure
 * (5xx, schema failure) or a 402 frees the key so a retry runs again.
 */
import type { Sql } from "../state/types.ts";

/** How long a stored answer is replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claim older than this with no answer (its process died) may be taken over. */
export const IDEMPOTENCY_STALE_CLAIM_SECONDS = 5 * 60;
/** Longest key accepted. */
export const IDEMPOTENCY_KEY_MAX = 200;

/** Outcome of claiming a key. */
export type Claim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "reused"; endpoint: string }
  | { kind: "in_progress" };

interface Row extends Record<string, unknown> {
  request_hash: string;
  endpoint: string;
  state: "in_progress" | "done";
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
}

/** True when a header value is a usable key: 1–200 visible ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX && /^[\x21-\x7e]+$/.test(key);
}

/** The idempotency records of one database. */
export class IdempotencyStore {
  constructor(private readonly db: Sql) {}

  /** Claim `key` for this request, or report what an earlier request with the same key left. */
  async claim(tokenId: string, key: string, request: { requestHash: string; endpoint: string }, now: Date): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.db.query(
        `INSERT INTO billing_idempotency (token_id, idem_key, request_hash, endpoint, state, created_at)
         VALUES ($1, $2, $3, $4, 'in_progress', $5)
         ON CONFLICT (token_id, idem_key) DO NOTHING`,
        [tokenId, key, request.requestHash, request.endpoint, now],
      );
      if (inserted.rowCount === 1) return { kind: "claimed" };
      const found = await this.db.query<Row>(
        `SELECT request_hash, endpoint, state, response_status, response_body, created_at
           FROM billing_idempotency WHERE token_id = $1 AND idem_key = $2`,
        [tokenId, key],
      );
      const row = found.rows[0];
      if (!row) continue; // freed between the two statements: claim again
      const ageSeconds = (now.getTime() - new Date(row.created_at).getTime()) / 1000;
      const expired = ageSeconds > IDEMPOTENCY_TTL_SECONDS;
      const abandoned = row.state === "in_progress" && ageSeconds > IDEMPOTENCY_STALE_CLAIM_SECONDS;
      if (expired || abandoned) {
        // Take the old row over only if nobody else did in the meantime (same created_at).
        await this.db.query(`DELETE FROM billing_idempotency WHERE token_id = $1 AND idem_key = $2 AND created_at = $3`, [
          tokenId,
          key,
          row.created_at,
        ]);
        continue;
      }
      if (row.request_hash !== request.requestHash) return { kind: "reused", endpoint: row.endpoint };
      if (row.state === "in_progress") return { kind: "in_progress" };
      return { kind: "replay", status: row.response_status ?? 200, body: row.response_body ?? "" };
    }
    return { kind: "in_progress" };
  }

  /** Store the definitive answer of a claimed key. */
  async complete(tokenId: string, key: string, answer: { status: number; body: string }, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE billing_idempotency SET state = 'done', response_status = $3, response_body = $4, completed_at = $5
        WHERE token_id = $1 AND idem_key = $2 AND state = 'in_progress'`,
      [tokenId, key, answer.status, answer.body, now],
    );
  }

  /** Free a claimed key (the call ended without a definitive answer). */
  async abandon(tokenId: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM billing_idempotency WHERE token_id = $1 AND idem_key = $2 AND state = 'in_progress'`, [
      tokenId,
      key,
    ]);
  }

  /** Delete records older than the replay window; returns how many went. */
  async purgeExpired(now: Date): Promise<number> {
    const res = await this.db.query(`DELETE FROM billing_idempotency WHERE created_at < $1`, [
      new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000),
    ]);
    return res.rowCount;
  }
}
