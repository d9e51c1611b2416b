/**
 * The timestamp line of a signed message (trial, wallet proof): ISO 8601 with its zone, `Z` or `±hh:mm`
 * (`2026-11-23T12:00:00Z`). A time without a zone names no instant (JavaScript would read it in the host's time
 * zone, so one signed message would be fresh on one server and expired on another), so it is refused.
 */
const ZONED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** The instant of `text`, or null when it is not ISO 8601 with a zone or names no real time. */
export function zonedInstant(text: string): Date | null {
  if (!ZONED_ISO.test(text)) return null;
  // The calendar date must exist: JavaScript reads 2026-02-30 as 2 March.
  const [y, m, d] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  if (new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}
