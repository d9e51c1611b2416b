/**
 * Pruning of past preview counters: a day's rows matter only until its UTC midnight. Yesterday is kept too, so
 * a process whose clock lags a little still finds its rows. Idempotent, so several instances may run it.
 */
import type { Sql } from "../state/types.ts";
import { utcDay } from "./quota.ts";

/** Days kept before today. */
export const PREVIEW_KEEP_DAYS = 1;

/** Delete the counters of days before yesterday (UTC); resolves to how many rows went. */
export async function prunePreviewUsage(db: Sql, now = new Date()): Promise<number> {
  const oldestKept = utcDay(new Date(now.getTime() - PREVIEW_KEEP_DAYS * 86_400_000));
  const res = await db.query(`DELETE FROM preview_usage WHERE day < $1::date`, [oldestKept]);
  return res.rowCount;
}

/** Prune every `intervalMs` (default 1 hour); returns a stop function. */
export function startPreviewHousekeeping(
  db: Sql,
  options: { intervalMs?: number; onError?: (error: unknown) => void; onPruned?: (rows: number) => void } = {},
): () => void {
  const run = () =>
    prunePreviewUsage(db).then(
      (rows) => options.onPruned?.(rows),
      (error: unknown) => options.onError?.(error),
    );
  const timer = setInterval(run, options.intervalMs ?? 60 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
