/**
 * When a failed delivery is tried again: exponential back-off with full jitter. After failed attempt n the
 * next one waits a uniformly random time in [1 s, min(4 h, 30 s × 2^(n−1))]; retries go on until the message is
 * 24 hours old (then the row is `failed`), with 60 attempts as an outer bound. The ceiling grows 30 s, 1 min,
 * 2 min, … 4 h (reached at attempt 10), so a receiver down for a day still gets the message once it is back.
 */

/** First ceiling of the back-off. */
export const RETRY_BASE_MS = 30_000;
/** Largest ceiling of the back-off. */
export const RETRY_CAP_MS = 4 * 60 * 60_000;
/** Smallest wait between two attempts. */
export const RETRY_FLOOR_MS = 1000;
/** Retries stop once a message is this old. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** Outer bound on attempts. */
export const MAX_ATTEMPTS = 60;

/** The ceiling of the wait after failed attempt `attempt` (1-based). */
export function backoffCeilingMs(attempt: number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** exponent);
}

/** The wait after failed attempt `attempt`, or null when the message should be given up (`failed`). */
export function nextRetryDelayMs(attempt: number, ageMs: number, random: () => number = Math.random): number | null {
  if (attempt >= MAX_ATTEMPTS || ageMs >= RETRY_WINDOW_MS) return null;
  const ceiling = backoffCeilingMs(attempt);
  return Math.max(RETRY_FLOOR_MS, Math.floor(random() * ceiling));
}
