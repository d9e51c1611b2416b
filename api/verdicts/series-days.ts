/**
 * Calendar helpers shared by the daily series verdicts: every UTC day of an inclusive range, and day arithmetic
 * on `YYYY-MM-DD` strings.
 */

const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of a `YYYY-MM-DD` day at 00:00 UTC. */
function dayMs(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

/** `date` moved by `days` (negative goes back). */
export function addDays(date: string, days: number): string {
  return new Date(dayMs(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted (0 when `to` is before `from`). */
export function dayCount(from: string, to: string): number {
  return Math.max(0, Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1);
}

/** Every day from `from` to `to`, inclusive, ascending. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let i = 0, n = dayCount(from, to); i < n; i++) out.push(addDays(from, i));
  return out;
}
