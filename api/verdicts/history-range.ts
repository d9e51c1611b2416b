/**
 * The date range of every history series: `to` defaults to today (UTC), `from` to 29 days before `to` (30 days
 * inclusive), and a range longer than 90 days, ending before it starts or ending after today is refused with a 400.
 */
import { ApiError } from "../registry/types.ts";

/** Longest range a history series answers, in days (inclusive). */
export const MAX_RANGE_DAYS = 90;
/** Days covered when neither end is given. */
export const DEFAULT_RANGE_DAYS = 30;

/** The range rule as every history series route states it. */
export const RANGE_RULE = `to defaults to today (UTC), from to ${DEFAULT_RANGE_DAYS - 1} days before to (${DEFAULT_RANGE_DAYS} days inclusive); at most ${MAX_RANGE_DAYS} days, else 400 range_too_long; from after to, or to after today (UTC), is 400 invalid_range.`;

/** The 400 answers of a history series route. */
export const RANGE_ERRORS = `invalid_range: from is after to, or to is after today (UTC); range_too_long: the range covers more than ${MAX_RANGE_DAYS} days.`;

const MS_PER_DAY = 86_400_000;

/** An inclusive range of UTC days. */
export interface DayRange {
  from: string;
  to: string;
  days: number;
}

/** `YYYY-MM-DD` of a UTC day `offset` days after `date`. */
export function addDays(date: string, offset: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + offset * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (both YYYY-MM-DD, UTC): 1 from a day to the next, 0 for the same day, negative backwards. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY);
}

/** The range asked for, with the defaults applied; throws ApiError 400 when it is reversed, too long or ends after today. */
export function resolveRange(query: { from?: string | undefined; to?: string | undefined }, now: Date): DayRange {
  const today = now.toISOString().slice(0, 10);
  const to = query.to ?? today;
  // Days that have not happened have no data: a window reaching them would be billed for points that cannot exist.
  if (to > today) throw new ApiError(400, "invalid_range", `to (${to}) is after today (${today}, UTC); a history series covers days that have begun`);
  const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  const days = daysBetween(from, to) + 1;
  if (days < 1) throw new ApiError(400, "invalid_range", `from (${from}) is after to (${to})`);
  if (days > MAX_RANGE_DAYS) {
    throw new ApiError(400, "range_too_long", `the range ${from}..${to} covers ${days} days; a history series covers at most ${MAX_RANGE_DAYS} days (inclusive)`, {
      max_days: MAX_RANGE_DAYS,
    });
  }
  return { from, to, days };
}

/** Every day of the range, ascending. */
export function daysOf(range: DayRange): string[] {
  return Array.from({ length: range.days }, (_, i) => addDays(range.from, i));
}

