/**
 * Upstream times → ISO 8601 UTC, or null when the value cannot be trusted. One rule for every source, so one
 * bad timestamp costs one entry's date, never a whole feed:
 * - unreadable (not a time; a day that is not a real calendar day, such as 2026-02-30) → null;
 * - absurd: before 1990-01-01 (older than every upstream these feeds read) or after 9999-12-31T23:59:59.999Z
 *   (beyond four-digit years ISO 8601 needs an expanded `+010000-…` form the snapshot schemas reject) → null;
 * - a time something has happened (published, created, updated, sent, filed: `pastTime`, `pastDay`) later than
 *   the fetch time plus FUTURE_ALLOWANCE_MS → null. Expiry-type times (`expiryTime`, `expiryDay`: an alert's
 *   expires or ends, a due date) may lie far ahead and are only checked for the two rules above.
 * Strings never depend on the host's time zone: a date or date-time without a zone is UTC ("2026-08-14T10:00:00" →
 * 10:00Z, "14 Aug 2026" → 00:00Z). RFC 822 / RSS dates are read by hand with numeric offsets and the zone
 * abbreviations in ZONE_OFFSETS_MINUTES; any other abbreviation is unreadable (null), never guessed. AM and PM
 * are a clock's, not zones. A text longer than MAX_DATE_TEXT is not a date and is refused before any pattern runs.
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

/**
 * Zone abbreviations read in dates, as offsets from UTC in minutes. RFC 822's own (UT, GMT, Z and the four US
 * zones with their daylight forms, CST being US Central as RFC 822 defines it), plus abbreviations that mean one
 * zone wherever feeds use them: European (WET/WEST, CET/CEST, EET/EEST, BST as British Summer Time), Japan,
 * eastern Australia, Alaska and Hawaii. Left out because they name several zones: IST (India, Ireland, Israel),
 * AST (Atlantic, Arabia), and RFC 822's one-letter military zones other than Z (their signs are wrong in RFC 822
 * and disagree between writers).
 */
export const ZONE_OFFSETS_MINUTES: Readonly<Record<string, number>> = {
  UT: 0, UTC: 0, GMT: 0, Z: 0,
  EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420,
  AKST: -540, AKDT: -480, HST: -600,
  WET: 0, WEST: 60, BST: 60, CET: 60, CEST: 120, EET: 120, EEST: 180,
  JST: 540, AEST: 600, AEDT: 660,
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
/** An ISO 8601 date-time without a zone (T or space between date and time). */
const ISO_LOCAL = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/;
/** RFC 822 / RFC 2822 as feeds write it: optional weekday, day, month name, 2- or 4-digit year, optional time and zone. */
const RFC822 = /^(?:[A-Za-z]{3,9},?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\.?,?\s+(\d{4}|\d{2})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?(?:\s*([+-]\d{4}|[A-Za-z]{1,5}))?$/;
/** A zone written in a date: a numeric offset, or UT/UTC/GMT/Z. */
const NUMERIC_ZONE = /(?:[+-]\d{2}:?\d{2}|\b(?:UTC?|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?|\dZ)(?:\s*\([^()]{0,60}\))?$/i;
/** A zone abbreviation of ZONE_OFFSETS_MINUTES at the end of a date (AM, PM or any other word is not one). */
const NAMED_ZONE = new RegExp(`\\s(${Object.keys(ZONE_OFFSETS_MINUTES).join("|")})$`, "i");
/** Longer than any date an upstream writes: refused before any pattern runs on it. */
const MAX_DATE_TEXT = 100;

/** Milliseconds of an RFC 822 date; undefined when the text is not one, null when it is one that cannot be read. */
function rfc822Ms(text: string): number | null | undefined {
  const m = RFC822.exec(text);
  if (!m) return undefined;
  const monthWord = m[2]!.toLowerCase();
  const month = MONTHS.indexOf(monthWord.slice(0, 3));
  if (month < 0) return undefined;
  let year = Number(m[3]);
  if (m[3]!.length === 2) year += year < 50 ? 2000 : 1900;
  const day = Number(m[1]);
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offset = 0;
  const zone = m[7];
  if (zone !== undefined) {
    if (/^[+-]\d{4}$/.test(zone)) {
      offset = (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)));
    } else {
      const known = ZONE_OFFSETS_MINUTES[zone.toUpperCase()];
      if (known === undefined) return null; // an abbreviation we cannot place: unreadable, not a guess
      offset = known;
    }
  }
  const ms = Date.UTC(year, month, day, hour, minute, second);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month || check.getUTCDate() !== day) return null;
  return ms - offset * 60_000;
}

/** Milliseconds since the epoch of an upstream value, range unchecked; null when it does not read as a time. */
export function upstreamMs(value: UpstreamTimeValue): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    const ms = value * 1000;
    return Number.isFinite(ms) ? ms : null;
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "" || text.length > MAX_DATE_TEXT) return null;
  const local = ISO_LOCAL.exec(text);
  if (local) return parsed(`${local[1]}T${local[2]}Z`);
  const rfc = rfc822Ms(text);
  if (rfc !== undefined) return rfc;
  // Other shapes go to Date.parse, which reads a zoneless non-ISO date in the host's zone: a numeric zone or
  // UTC/GMT is left as written, a known abbreviation becomes its offset, and anything else is pinned to UTC.
  if (NUMERIC_ZONE.test(text)) return parsed(text);
  const named = NAMED_ZONE.exec(text);
  if (named) return parsed(`${text.slice(0, named.index)} ${offsetText(ZONE_OFFSETS_MINUTES[named[1]!.toUpperCase()]!)}`);
  return parsed(`${text} UTC`);
}

/** An offset in minutes as Date.parse reads it: `+0200`, `-0430`. */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

function parsed(text: string): number | null {
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
