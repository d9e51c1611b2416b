/**
 * The delivery worker: takes due rows of the webhook outbox (webhook_deliveries), sends them, records every
 * attempt (webhook_attempts) and settles the row. Crash safety comes from the lease: a claim bumps `attempts`
 * and moves `next_attempt_at` (and `leased_until`) one lease ahead in the same statement, so a worker killed at
 * any moment leaves the row pending and due again when the lease lapses; the row's id is the webhook-id, so a
 * re-send after a crash carries the same id and the receiver dedupes it. Several workers (processes) may run on
 * one database: claims use FOR UPDATE SKIP LOCKED.
 */
import type { Sql } from "../state/types.ts";
import type { LookupAll } from "./callback-check.ts";
import { nextRetryDelayMs } from "./retry-schedule.ts";
import { sendWebhook, SEND_TIMEOUT_MS, type SendOutcome } from "./send.ts";
import { createSettler } from "./settle.ts";
import { signatureHeaders } from "./sign.ts";

/** Options of a worker. */
export interface DeliveryWorkerOptions {
  /** WATCHES_ALLOW_PRIVATE_CALLBACKS. */
  allowPrivate: boolean;
  /** Deliveries in flight at most (default 64). */
  concurrency?: number;
  /** How long a claim holds a row (default 60 s; must exceed the send time-out). */
  leaseMs?: number;
  /** How often to look for due rows when idle (default 1 s). */
  pollMs?: number;
  timeoutMs?: number;
  lookup?: LookupAll;
  random?: () => number;
  onError?: (error: unknown) => void;
  /** Called after each settled attempt (tests, benchmarks). */
  onAttempt?: (attempt: { id: string; attempt: number; outcome: SendOutcome }) => void;
}

/** A running worker. */
export interface DeliveryWorker {
  /** Look for due rows now instead of at the next poll. */
  wake(): void;
  /** Stop claiming, wait for the attempts in flight, resolve. */
  stop(): Promise<void>;
}

type ClaimedRow = {
  id: string;
  body: string;
  attempts: number;
  age_ms: number;
  callback_url: string;
  secret: string;
  watch_status: string;
};

type Settler = ReturnType<typeof createSettler>;

/** Longest error text stored per attempt. */
export const MAX_ERROR_CHARS = 300;

/** The attempt-log error of a delivery dropped because its watch was deleted. */
export const DROPPED_DELETED = "watch deleted: dropped unsent";

/** Claim up to `limit` due rows for `leaseMs`. */
export async function claimDue(db: Sql, limit: number, leaseMs: number): Promise<ClaimedRow[]> {
  const { rows } = await db.query<ClaimedRow & { age_ms: string | number }>(
    `UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1,
            leased_until = now() + make_interval(secs => $2::double precision / 1000),
            next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
       FROM (SELECT id FROM webhook_deliveries
              WHERE state = 'pending' AND next_attempt_at <= now()
              ORDER BY next_attempt_at
              LIMIT $1
              FOR UPDATE SKIP LOCKED) due,
            watches w
      WHERE d.id = due.id AND w.id = d.watch_id
  RETURNING d.id, d.body, d.attempts, (extract(epoch FROM now() - d.created_at) * 1000)::bigint AS age_ms,
            w.callback_url, w.secret, w.status AS watch_status`,
    [limit, leaseMs],
  );
  return rows.map((row) => ({ ...row, age_ms: Number(row.age_ms) }));
}

/** Make an error text safe to store and show: printable ASCII, one line, at most 300 characters. */
export function sanitizeError(text: string): string {
  const clean = text
    .replace(/[^\x20-\x7e]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return clean.length > MAX_ERROR_CHARS ? `${clean.slice(0, MAX_ERROR_CHARS - 1)}…`.slice(0, MAX_ERROR_CHARS) : clean;
}

/** Send one claimed row and settle it. */
async function deliver(db: Sql, settler: Settler, row: ClaimedRow, options: DeliveryWorkerOptions): Promise<void> {
  if (row.watch_status === "deleted") {
    // A deleted watch never fires: what it still had queued is dropped unsent, and the attempt log says why.
    await db.query(
      `WITH dropped AS (
         UPDATE webhook_deliveries SET state = 'failed', leased_until = NULL
          WHERE id = $1 AND state = 'pending' AND attempts = $2
          RETURNING id, attempts)
       INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
       SELECT id, attempts, now(), NULL, NULL, $3 FROM dropped
       ON CONFLICT DO NOTHING`,
      [row.id, row.attempts, DROPPED_DELETED],
    );
    return;
  }
  const startedAt = new Date();
  const headers = signatureHeaders({ secret: row.secret, id: row.id, timestampSeconds: startedAt.getTime() / 1000, body: row.body });
  const outcome = await sendWebhook({
    url: row.callback_url,
    body: row.body,
    headers,
    allowPrivate: options.allowPrivate,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    timeoutMs: options.timeoutMs ?? SEND_TIMEOUT_MS,
  });
  const delay = outcome.delivered || outcome.permanent ? null : nextRetryDelayMs(row.attempts, row.age_ms, options.random);
  await settler.settle({
    id: row.id,
    attempt: row.attempts,
    startedAt,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    error: outcome.error === null ? null : sanitizeError(outcome.error),
    outcome: outcome.delivered ? "delivered" : delay === null ? "failed" : "retry",
    delayMs: delay,
  });
  options.onAttempt?.({ id: row.id, attempt: row.attempts, outcome });
}

/** Start a worker on `db`; returns its handle. */
export function startDeliveryWorker(db: Sql, options: DeliveryWorkerOptions): DeliveryWorker {
  const concurrency = Math.max(1, options.concurrency ?? 64);
  const leaseMs = Math.max(options.leaseMs ?? 60_000, (options.timeoutMs ?? SEND_TIMEOUT_MS) + 1000);
  const pollMs = options.pollMs ?? 1000;
  const inFlight = new Set<Promise<void>>();
  const settler = createSettler(db);
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const loop = async () => {
    while (!stopping) {
      const free = concurrency - inFlight.size;
      let rows: ClaimedRow[] = [];
      try {
        rows = await claimDue(db, free, leaseMs);
      } catch (error) {
        options.onError?.(error);
        await nap(pollMs);
        continue;
      }
      for (const row of rows) {
        const task: Promise<void> = deliver(db, settler, row, options)
          .catch((error: unknown) => options.onError?.(error))
          .finally(() => {
            inFlight.delete(task);
            wakeUp?.();
          });
        inFlight.add(task);
      }
      // A full batch means more may be due: claim again once half the slots are free (one claim, one commit, for
      // many rows); otherwise wait for the poll.
      if (rows.length === free) {
        while (!stopping && inFlight.size > concurrency / 2) await Promise.race(inFlight);
      }
      else if (!stopping) await nap(rows.length > 0 ? Math.min(pollMs, 50) : pollMs);
    }
  };
  const running = loop();
  return {
    wake() {
      wakeUp?.();
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await running;
      await Promise.all(inFlight);
    },
  };
}
