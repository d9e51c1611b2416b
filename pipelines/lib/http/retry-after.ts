/**
 * Parse a `Retry-After` header (delay in seconds or an HTTP date) into milliseconds.
 */

/** Milliseconds to wait per `Retry-After` (never negative), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names a month; without this, Date.parse reads "-5" as a year.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
