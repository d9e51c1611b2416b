/**
 * SEC EDGAR's submissions document (https://data.sec.gov/submissions/CIK##########.json): a company's registered
 * name and its recent filings as parallel arrays under `filings.recent` (accessionNumber, filingDate, reportDate,
 * form, primaryDocument, primaryDocDescription …), newest first. Tolerant: entries with a malformed accession
 * number, date or document name are skipped and counted; text is sanitized. EDGAR asks every client for a
 * User-Agent that names a contact and for at most 10 requests per second (https://www.sec.gov/os/accessing-edgar-data).
 * Dates (pipelines/lib/time.ts): `filingDate` must be a real day between 1990 and a day after the fetch time, else
 * the filing is skipped (a `9999-12-31` filing would otherwise head the newest-first list forever); `reportDate`
 * (the period or event reported, also past) is null when it is not such a day.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastDay } from "../lib/time.ts";
import { FILINGS_KEPT, type SecFiling } from "../contract/snapshots/sec-filings.ts";

/** Smallest spacing between two EDGAR requests (10 per second at most, with a margin). */
export const EDGAR_MIN_INTERVAL_MS = 125;

const column = z.array(z.unknown()).catch([]);
const submissionsSchema = z.looseObject({
  name: z.string().catch(""),
  filings: z.looseObject({
    recent: z.looseObject({
      accessionNumber: column,
      filingDate: column,
      reportDate: column,
      form: column,
      primaryDocument: column,
      primaryDocDescription: column,
    }),
  }),
});

/** What a submissions document says of a company. */
export interface Submissions {
  name: string | null;
  filings: SecFiling[];
  /** Rows of `filings.recent` read before the list was full and skipped for a malformed accession number, filing day or document name. */
  skipped: number;
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const day = (v: unknown, now: Date) => pastDay(text(v), now);

/**
 * A primary document's name as EDGAR lists it: a file name, or one folder and a file name for the XSL-rendered view
 * of an ownership report (`xslF345X05/form4.xml`); never `..`.
 */
export function isDocumentName(document: string): boolean {
  return /^[\w.\-]{1,120}(\/[\w.\-]{1,120})?$/.test(document) && !document.split("/").some((part) => /^\.+$/.test(part));
}

/** The archive URL of a filing's primary document. */
export function primaryDocUrl(cik: string, accession: string, document: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, "")}/${document.split("/").map(encodeURIComponent).join("/")}`;
}

type RecentColumns = z.infer<typeof submissionsSchema>["filings"]["recent"];

/** A row of `filings.recent` whose accession number, filing day and document name are well formed. */
interface ListedRow {
  index: number;
  accession: string;
  filed: string;
  document: string;
}

/** The rows of `filings.recent` in the document's order, each well formed (a ListedRow) or null (malformed, skipped). */
function* listedRows(r: RecentColumns, now: Date): Generator<ListedRow | null> {
  for (let index = 0; index < r.accessionNumber.length; index++) {
    const accession = text(r.accessionNumber[index]);
    const filed = day(r.filingDate[index], now);
    const document = text(r.primaryDocument[index]);
    yield /^\d{10}-\d{2}-\d{6}$/.test(accession) && filed !== null && isDocumentName(document) ? { index, accession, filed, document } : null;
  }
}

/** Newest filing day first, then the higher accession number. */
const newestFirst = (a: { filing_date: string; accession_number: string }, b: { filing_date: string; accession_number: string }) =>
  b.filing_date.localeCompare(a.filing_date) || b.accession_number.localeCompare(a.accession_number);

/** The company's registered name, sanitized (null when empty). */
function registeredName(name: string): string | null {
  const clean = sanitize(name, { maxLength: 200 });
  return clean === "" ? null : clean;
}

/** Parse a submissions body fetched at `now`; throws on anything that is not one. */
export function parseSubmissions(cik: string, body: unknown, now: Date): Submissions {
  const doc = submissionsSchema.parse(body);
  const r = doc.filings.recent;
  const filings: SecFiling[] = [];
  let skipped = 0;
  for (const row of listedRows(r, now)) {
    if (filings.length >= FILINGS_KEPT) break;
    if (row === null) {
      skipped += 1;
      continue;
    }
    const { index, accession, filed, document } = row;
    const form = sanitize(text(r.form[index]), { maxLength: 40 });
    if (form === "") continue;
    const description = sanitize(text(r.primaryDocDescription[index]), { maxLength: 200 });
    filings.push({
      accession_number: accession,
      form,
      filing_date: filed,
      report_date: day(r.reportDate[index], now),
      primary_document: document,
      primary_doc_url: primaryDocUrl(cik, accession, document),
      description: description === "" ? null : description,
    });
  }
  filings.sort(newestFirst);
  return { name: registeredName(doc.name), filings, skipped };
}

/** A periodic report listed in a submissions document. */
export interface PeriodicFiling {
  accession_number: string;
  form: string;
  filing_date: string;
  report_date: string | null;
  primary_doc_url: string;
}

/**
 * The latest `perForm` filings of each of `forms` (exact form names: an amendment such as 10-K/A is another form)
 * from a submissions body fetched at `now`, newest first within a form, and the newest of each form. Throws on
 * anything that is not a submissions document.
 */
export function periodicFilings(cik: string, body: unknown, forms: readonly string[], perForm: number, now: Date): { name: string | null; byForm: Map<string, PeriodicFiling[]> } {
  const doc = submissionsSchema.parse(body);
  const r = doc.filings.recent;
  const byForm = new Map<string, PeriodicFiling[]>(forms.map((f) => [f, []]));
  for (const row of listedRows(r, now)) {
    if (row === null) continue;
    const { index, accession, filed, document } = row;
    const form = text(r.form[index]);
    byForm.get(form)?.push({ accession_number: accession, form, filing_date: filed, report_date: day(r.reportDate[index], now), primary_doc_url: primaryDocUrl(cik, accession, document) });
  }
  for (const [form, list] of byForm) byForm.set(form, list.sort(newestFirst).slice(0, perForm));
  return { name: registeredName(doc.name), byForm };
}
