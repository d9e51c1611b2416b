/**
 * Settles finished attempts in batches: every attempt's row in webhook_attempts and its delivery's new state
 * (delivered, pending again with its next time, or failed) go to Postgres in one statement per batch, so many
 * concurrent deliveries share one commit (a natural group commit: while one batch is being written, the next
 * accumulates). Only the current claim settles a row that is not delivered (attempts = the attempt's number):
 * a worker whose lease lapsed while it was sending does not undo the newer claim.
 */
import type { Sql } from "../state/types.ts";

/** One finished attempt and what it means for its row. */
export interface SettleRecord {
  id: string;
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** delivered; retry after `delayMs`; or failed for good. */
  outcome: "delivered" | "retry" | "failed";
  delayMs: number | null;
}

/** Write one batch of settled attempts. */
export async function writeSettled(db: Sql, records: readonly SettleRecord[]): Promise<void> {
  if (records.length === 0) return;
  await db.query(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::bigint[])
         AS t(id, attempt, started_at, status_code, latency_ms, error, outcome, delay_ms)),
     settled AS (
       UPDATE webhook_deliveries d
          SET state = CASE i.outcome WHEN 'delivered' THEN 'delivered' WHEN 'failed' THEN 'failed' ELSE 'pending' END,
              delivered_at = CASE WHEN i.outcome = 'delivered' THEN now() ELSE d.delivered_at END,
              next_attempt_at = CASE WHEN i.outcome = 'retry' THEN now() + make_interval(secs => i.delay_ms::double precision / 1000) ELSE d.next_attempt_at END,
              leased_until = NULL
         FROM input i
        WHERE d.id = i.id AND d.state = 'pending' AND (i.outcome = 'delivered' OR d.attempts = i.attempt))
     INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
     SELECT id, attempt, started_at, status_code, latency_ms, error FROM input
     ON CONFLICT DO NOTHING`,
    [
      records.map((r) => r.id),
      records.map((r) => r.attempt),
      records.map((r) => r.startedAt),
      records.map((r) => r.statusCode),
      records.map((r) => r.latencyMs),
      records.map((r) => r.error),
      records.map((r) => r.outcome),
      records.map((r) => r.delayMs),
    ],
  );
}

/** A batcher: `settle(record)` resolves once the record is written (rejects if its batch failed). */
export function createSettler(db: Sql, maxBatch = 500): { settle(record: SettleRecord): Promise<void> } {
  let queue: { record: SettleRecord; done: (error?: unknown) => void }[] = [];
  let writing = false;
  const flush = async () => {
    if (writing || queue.length === 0) return;
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        await writeSettled(db, batch.map((entry) => entry.record));
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.done(error);
      }
    }
    writing = false;
  };
  return {
    settle(record) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ record, done: (error) => (error === undefined ? resolve() : reject(error)) });
        void flush();
      });
    },
  };
}
