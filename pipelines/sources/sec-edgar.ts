/**
 * SEC EDGAR's submissions document (https://data.sec.gov/submissions/CIK##########.json): a company's registered
 * name and its recent filings as parallel arrays under `filings.recent` (accessionNumber, filingDate, reportDate,
 * form, primaryDocument, primaryDocDescription …), newest first. Tolerant: entries with a malformed accession
 * number, date or document name are skipped; text is sanitized. EDGAR asks every client for a User-Agent that
 * names a contact and for at most 10 requests per second (https://www.sec.gov/os/accessing-edgar-data).
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
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
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const day = (v: unknown) => (/^\d{4}-\d{2}-\d{2}$/.test(text(v)) ? text(v) : null);

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

/** Parse a submissions body; throws on anything that is not one. */
export function parseSubmissions(cik: string, body: unknown): Submissions {
  const doc = submissionsSchema.parse(body);
  const r = doc.filings.recent;
  const filings: SecFiling[] = [];
  for (let i = 0; i < r.accessionNumber.length && filings.length < FILINGS_KEPT; i++) {
    const accession = text(r.accessionNumber[i]);
    const filed = day(r.filingDate[i]);
    const document = text(r.primaryDocument[i]);
    const form = sanitize(text(r.form[i]), { maxLength: 40 });
    if (!/^\d{10}-\d{2}-\d{6}$/.test(accession) || filed === null || !isDocumentName(document) || form === "") continue;
    const description = sanitize(text(r.primaryDocDescription[i]), { maxLength: 200 });
    filings.push({
      accession_number: accession,
      form,
      filing_date: filed,
      report_date: day(r.reportDate[i]),
      primary_document: document,
      primary_doc_url: primaryDocUrl(cik, accession, document),
      description: description === "" ? null : description,
    });
  }
  filings.sort((a, b) => b.filing_date.localeCompare(a.filing_date) || b.accession_number.localeCompare(a.accession_number));
  const name = sanitize(doc.name, { maxLength: 200 });
  return { name: name === "" ? null : name, filings };
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
 * from a submissions body, newest first within a form, and the newest of each form. Throws on anything that is not
 * a submissions document.
 */
export function periodicFilings(cik: string, body: unknown, forms: readonly string[], perForm: number): { name: string | null; byForm: Map<string, PeriodicFiling[]> } {
  const doc = submissionsSchema.parse(body);
  const r = doc.filings.recent;
  const byForm = new Map<string, PeriodicFiling[]>(forms.map((f) => [f, []]));
  for (let i = 0; i < r.accessionNumber.length; i++) {
    const form = text(r.form[i]);
    const list = byForm.get(form);
    if (list === undefined) continue;
    const accession = text(r.accessionNumber[i]);
    const filed = day(r.filingDate[i]);
    const document = text(r.primaryDocument[i]);
    if (!/^\d{10}-\d{2}-\d{6}$/.test(accession) || filed === null || !isDocumentName(document)) continue;
    list.push({ accession_number: accession, form, filing_date: filed, report_date: day(r.reportDate[i]), primary_doc_url: primaryDocUrl(cik, accession, document) });
  }
  for (const [form, list] of byForm) {
    list.sort((a, b) => b.filing_date.localeCompare(a.filing_date) || b.accession_number.localeCompare(a.accession_number));
    byForm.set(form, list.slice(0, perForm));
  }
  const name = sanitize(doc.name, { maxLength: 200 });
  return { name: name === "" ? null : name, byForm };
}
