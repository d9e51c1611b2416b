/**
 * Payment housekeeping: unpaid quotes are kept QUOTE_RETENTION_DAYS after they expire (so support can answer
 * "what happened to my quote"), then deleted. Consumed quotes stay for good: payments reference them.
 * Idempotent, so several instances may run it on one database.
 */
import type { Sql } from "../state/types.ts";

/** Days an expired, unpaid quote is kept before it is deleted. */
export const QUOTE_RETENTION_DAYS = 7;

/** Delete unpaid quotes that expired more than QUOTE_RETENTION_DAYS before `now`; returns how many went. */
export async function purgeExpiredQuotes(db: Sql, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - QUOTE_RETENTION_DAYS * 86_400_000);
  const res = await db.query("DELETE FROM payment_quotes WHERE consumed_at IS NULL AND expires_at < $1", [cutoff.toISOString()]);
  return res.rowCount;
}

/** Purge now and every `intervalMs` (default 1 hour); returns a stop function. */
export function startPaymentHousekeeping(db: Sql, options: { intervalMs?: number; onError?: (error: unknown) => void } = {}): () => void {
  const run = () => purgeExpiredQuotes(db).catch((error: unknown) => options.onError?.(error));
  void run();
  const timer = setInterval(run, options.intervalMs ?? 60 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
