/**
 * Periodic billing housekeeping for a running server: release holds left unanswered by a process that died
 * (older than the longest a request may take, so no live call loses its hold), and drop expired
 * Idempotency-Key records. Both are idempotent, so several instances may run it on one database.
 */
import type { CreditLedger, Sql } from "../state/types.ts";
import { IdempotencyStore } from "./idempotency.ts";

/** Holds older than this were never answered: released as `stale`. */
export const STALE_HOLD_SECONDS = 300;

/** One sweep; resolves to what it released and purged. */
export async function sweepBilling(db: Sql, credits: CreditLedger, now = new Date()): Promise<{ releasedHolds: number; purgedKeys: number }> {
  const releasedHolds = await credits.releaseStaleHolds(STALE_HOLD_SECONDS);
  const purgedKeys = await new IdempotencyStore(db).purgeExpired(now);
  return { releasedHolds, purgedKeys };
}

/** Sweep every `intervalMs` (default 5 minutes; the server sweeps once itself at start); returns a stop function. */
export function startBillingHousekeeping(
  db: Sql,
  credits: CreditLedger,
  options: { intervalMs?: number; onError?: (error: unknown) => void; onSwept?: (result: { releasedHolds: number; purgedKeys: number }) => void } = {},
): () => void {
  const run = () =>
    sweepBilling(db, credits).then(
      (result) => options.onSwept?.(result),
      (error: unknown) => options.onError?.(error),
    );
  const timer = setInterval(run, options.intervalMs ?? 5 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
