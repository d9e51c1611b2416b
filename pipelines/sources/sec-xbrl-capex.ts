/**
 * SEC EDGAR's XBRL company facts (https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json, documented at
 * https://www.sec.gov/search-filings/edgar-application-programming-interfaces): every fact a company has filed in
 * XBRL, by taxonomy and concept, each with its period (start, end), value, form, accession number and filing day.
 * This reads the annual capital expenditure: us-gaap PaymentsToAcquirePropertyPlantAndEquipment or
 * PaymentsToAcquireProductiveAssets (companies move between them: NVIDIA filed the first until fiscal 2021 and the
 * second since), in USD, from annual reports (10-K, 20-F and their amendments), over periods of 350 to 380 days
 * (52- and 53-week years). A period stated by several filings keeps the latest filing's value (a restatement wins);
 * a period stated under both concepts keeps the concept of the latest filing. Only the newest six fiscal years are
 * kept (a year without a figure leaves a gap). Tolerant: malformed facts are skipped. A fact's `start`, `end` and
 * `filed` must be real days between 1990 and a day after the fetch time (pipelines/lib/time.ts): an annual report
 * states a period already over, and one fact dated 9999 would otherwise make every real year look too old to keep.
 * Same rules as the rest of EDGAR: a User-Agent naming a contact, at most 10 requests per second.
 */
import { z } from "zod";
import { pastDay } from "../lib/time.ts";
import { CAPEX_CONCEPTS, CAPEX_YEARS_KEPT, type CapexYear } from "../contract/snapshots/ai-capex.ts";

/** The companyfacts document of a company. */
export function companyFactsUrl(cik: string): string {
  return `https://data.sec.gov/api/xbrl/companyfacts/CIK${cik}.json`;
}

/** Annual-report forms whose full-year facts are read. */
export const ANNUAL_FORMS: ReadonlySet<string> = new Set(["10-K", "10-K/A", "20-F", "20-F/A"]);

/** Shortest and longest duration, in days, read as one fiscal year. */
export const FISCAL_YEAR_DAYS = { min: 350, max: 380 } as const;

/** Largest value accepted as one company's annual capex (USD 10 trillion): anything above is a filing error. */
const MAX_CAPEX_USD = 1e13;

const factSchema = z.looseObject({
  start: z.unknown(),
  end: z.unknown(),
  val: z.unknown(),
  accn: z.unknown(),
  form: z.unknown(),
  filed: z.unknown(),
});
const conceptSchema = z.looseObject({ units: z.looseObject({ USD: z.array(z.unknown()).catch([]) }).catch({ USD: [] }) });
const companyFactsSchema = z.looseObject({
  cik: z.unknown(),
  entityName: z.unknown(),
  facts: z.looseObject({ "us-gaap": z.record(z.string(), z.unknown()).catch({}) }),
});

/** A real calendar day between 1990 and a day after `now`. */
const isDay = (v: unknown, now: Date): v is string => typeof v === "string" && pastDay(v, now) === v;
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** The calendar year holding the middle of a period (a fiscal year ending in late January counts for the year before). */
export function fiscalYearOf(start: string, end: string): number {
  return new Date((ms(start) + ms(end)) / 2).getUTCFullYear();
}

/** The annual capex facts of a companyfacts body fetched at `now`, newest fiscal year first; throws on a body that is not one. */
export function parseAnnualCapex(body: unknown, now: Date): CapexYear[] {
  const doc = companyFactsSchema.parse(body);
  const candidates: CapexYear[] = [];
  for (const concept of CAPEX_CONCEPTS) {
    const raw = doc.facts["us-gaap"][concept];
    if (raw === undefined) continue;
    const parsed = conceptSchema.safeParse(raw);
    if (!parsed.success) continue;
    for (const item of parsed.data.units.USD) {
      const f = factSchema.safeParse(item);
      if (!f.success) continue;
      const { start, end, val, accn, form, filed } = f.data;
      if (!isDay(start, now) || !isDay(end, now) || !isDay(filed, now)) continue;
      if (typeof form !== "string" || !ANNUAL_FORMS.has(form)) continue;
      if (typeof accn !== "string" || !/^\d{10}-\d{2}-\d{6}$/.test(accn)) continue;
      if (typeof val !== "number" || !Number.isSafeInteger(val) || val < 0 || val > MAX_CAPEX_USD) continue;
      const days = (ms(end) - ms(start)) / 86_400_000;
      if (days < FISCAL_YEAR_DAYS.min || days > FISCAL_YEAR_DAYS.max) continue;
      candidates.push({ fiscal_year: fiscalYearOf(start, end), period_start: start, period_end: end, capex_usd: val, concept, form, accession_number: accn, filed });
    }
  }
  // One figure per fiscal year: the latest period end, then the latest filing, then the preferred concept.
  const rank = (c: CapexYear) => CAPEX_CONCEPTS.indexOf(c.concept);
  const better = (a: CapexYear, b: CapexYear) =>
    a.period_end !== b.period_end ? a.period_end > b.period_end : a.filed !== b.filed ? a.filed > b.filed : a.accession_number !== b.accession_number ? a.accession_number > b.accession_number : rank(a) < rank(b);
  const byYear = new Map<number, CapexYear>();
  for (const c of candidates) {
    const held = byYear.get(c.fiscal_year);
    if (held === undefined || better(c, held)) byYear.set(c.fiscal_year, c);
  }
  const years = [...byYear.values()].sort((a, b) => b.fiscal_year - a.fiscal_year);
  const newest = years[0]?.fiscal_year ?? 0;
  return years.filter((y) => y.fiscal_year > newest - CAPEX_YEARS_KEPT);
}
