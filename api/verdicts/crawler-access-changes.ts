/**
 * Changes of AI-crawler access between successive weekly crawls (pure): for each domain and field (a bot's
 * access, llms.txt, ai.txt), every capture whose value differs from the domain's previous capture in the range.
 * The first capture of the range is the baseline (no change is reported for it); `at` is the day the new value
 * was first seen. Sorted by day, domain, field.
 */

/** One captured value of one field of one domain on one day. */
export interface FieldCapture {
  date: string;
  domain: string;
  field: string;
  value: string;
}

/** One change. */
export interface FieldChange {
  domain: string;
  field: string;
  from: string;
  to: string;
  at: string;
}

/** Changes between consecutive captures of each (domain, field). */
export function fieldChanges(captures: readonly FieldCapture[]): FieldChange[] {
  const sorted = [...captures].sort((a, b) => a.domain.localeCompare(b.domain) || a.field.localeCompare(b.field) || a.date.localeCompare(b.date));
  const out: FieldChange[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (prev.domain !== cur.domain || prev.field !== cur.field) continue;
    if (prev.value !== cur.value) out.push({ domain: cur.domain, field: cur.field, from: prev.value, to: cur.value, at: cur.date });
  }
  return out.sort((a, b) => a.at.localeCompare(b.at) || a.domain.localeCompare(b.domain) || a.field.localeCompare(b.field));
}
