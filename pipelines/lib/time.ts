/**
 * Upstream times → ISO 8601 UTC, or null when the value cannot be trusted. One rule for every source, so one
 * bad timestamp costs one entry's date, never a whole feed:
 * - unreadable (not a time; a day that is not a real calendar day, such as 2026-02-30) → null;
 * - absurd: before 1990-01-01 (older than every upstream these feeds read) or after 9999-12-31T23:59:59.999Z
 *   (beyond four-digit years ISO 8601 needs an expanded `+010000-…` form the snapshot schemas reject) → null;
 * - a time something has happened (published, created, updated, sent, filed: `pastTime`, `pastDay`) later than
 *   the fetch time plus FUTURE_ALLOWANCE_MS → null. Expiry-type times (`expiryTime`, `expiryDay`: an alert's
 *   expires or ends, a due date) may lie far ahead and are only checked for the two rules above.
 * Numbers are Unix seconds, the unit the numeric upstreams (aggregator `created`, forum `created_utc`) document.
 * Units are never guessed: a value in milliseconds or microseconds lands far past year 9999 (or far past the
 * fetch time) and becomes null like any other out-of-range value.
 */

/** The earliest time accepted from an upstream (ms since the epoch): 1990-01-01T00:00:00Z. */
export const EARLIEST_UPSTREAM_MS = Date.UTC(1990, 0, 1);

/** The latest time accepted at all (ms since the epoch): 9999-12-31T23:59:59.999Z, the last four-digit-year instant. */
export const LATEST_UPSTREAM_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** How far past the fetch time a publication or creation time may lie (clock skew, time-zone slips): 1 day. */
export const FUTURE_ALLOWANCE_MS = 86_400_000;

/** A time as upstreams send it: a date string (ISO 8601, RFC 822 …) or a number of Unix seconds. */
export type UpstreamTimeValue = string | number | null | undefined;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds since the epoch of an upstream value, range unchecked; null when it does not read as a time. */
export function upstreamMs(value: UpstreamTimeValue): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    const ms = value * 1000;
    return Number.isFinite(ms) ? ms : null;
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "") return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** The latest time a past event fetched at `now` may carry. */
function latestFor(now: Date): number {
  return Math.min(LATEST_UPSTREAM_MS, now.getTime() + FUTURE_ALLOWANCE_MS);
}

function isoWithin(ms: number | null, latest: number): string | null {
  if (ms === null || ms < EARLIEST_UPSTREAM_MS || ms > latest) return null;
  return new Date(ms).toISOString();
}

/**
 * The time something happened (published, created, updated, sent), as ISO 8601 UTC; null when unreadable,
 * before 1990 or later than `now` (the fetch time) plus one day.
 */
export function pastTime(value: UpstreamTimeValue, now: Date): string | null {
  return isoWithin(upstreamMs(value), latestFor(now));
}

/** An expiry-type time (expires, ends, effective), as ISO 8601 UTC; null only when unreadable, before 1990 or after year 9999. */
export function expiryTime(value: UpstreamTimeValue): string | null {
  return isoWithin(upstreamMs(value), LATEST_UPSTREAM_MS);
}

/** A strict YYYY-MM-DD that is a real calendar day → its UTC midnight in ms; null otherwise. */
function dayMs(value: string | null | undefined): number | null {
  const m = typeof value === "string" ? DAY.exec(value.trim()) : null;
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Date.UTC rolls 2026-02-30 over into March; a real day round-trips.
  return new Date(ms).toISOString().slice(0, 10) === m[0] ? ms : null;
}

function dayWithin(value: string | null | undefined, latest: number): string | null {
  const ms = dayMs(value);
  return ms === null || ms < EARLIEST_UPSTREAM_MS || ms > latest ? null : new Date(ms).toISOString().slice(0, 10);
}

/** A calendar day (YYYY-MM-DD) something happened on; null when not a real day, before 1990 or after `now` plus one day. */
export function pastDay(value: string | null | undefined, now: Date): string | null {
  return dayWithin(value, latestFor(now));
}

/** An expiry-type calendar day (a due date); null only when not a real day, before 1990 or after year 9999. */
export function expiryDay(value: string | null | undefined): string | null {
  return dayWithin(value, LATEST_UPSTREAM_MS);
}
