/**
 * Feed `sec-filing-sections`: for each company of the AI cohort, EDGAR's submissions document, then the primary
 * documents of its latest FILINGS_PER_FORM 10-K and 10-Q reports, each read into its forward-looking passages (risk
 * factors, the forward-looking statements notice, an outlook; pipelines/lib/filings/). A filing read once is kept
 * from the previous snapshot and never fetched again (a filed report does not change). EDGAR's rules as in
 * `sec-filings`: a User-Agent naming SEC_EDGAR_CONTACT (required live) and one request at a time, ≥ 125 ms apart.
 * A document that cannot be read is kept as failed (no passages) and retried on the next run; a company whose list
 * cannot be read keeps its previous filings, marked failed; the run fails only when every company failed.
 */
import { AI_COMPANIES, submissionsUrl, type AiCompanyEntry } from "../catalog/ai-companies.ts";
import {
  DELTA_FORMS,
  type ExtractedFiling,
  FILINGS_PER_FORM,
  type FilingSectionsCompany,
  type SecFilingSectionsSnapshot,
  secFilingSectionsSnapshotSchema,
  secFilingSectionsSnapshotType,
} from "../contract/snapshots/sec-filing-sections.ts";
import { readFilingDocument } from "../lib/filings/read-document.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { EDGAR_MIN_INTERVAL_MS, periodicFilings } from "../sources/sec-edgar.ts";
import { edgarUserAgentFor, failureMessage, SecFilingsFeedError } from "./sec-filings.ts";

/** Largest filing document read (the biggest 10-Ks with inline XBRL run to tens of megabytes). */
export const MAX_DOCUMENT_BYTES = 40 * 1024 * 1024;

export interface SecFilingSectionsOptions {
  companies?: readonly AiCompanyEntry[];
  contact?: string | undefined;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** Build the snapshot. */
export async function runSecFilingSections(ctx: FeedContext, options: SecFilingSectionsOptions = {}): Promise<FeedOutput<SecFilingSectionsSnapshot>> {
  const companies = options.companies ?? AI_COMPANIES;
  const replay = ctx.provenance === "replay";
  const headers = { "User-Agent": edgarUserAgentFor("sec-filing-sections", replay, options.contact, (message) => new SecFilingsFeedError(message)) };
  const sleep = options.sleep ?? defaultSleep;
  let requests = 0;
  const paced = async <T>(request: () => Promise<T>): Promise<T> => {
    if (requests++ > 0 && !replay) await sleep(EDGAR_MIN_INTERVAL_MS);
    return request();
  };
  const previous = await ctx.previous<SecFilingSectionsSnapshot>(secFilingSectionsSnapshotType.type);
  const held = new Map((previous?.companies ?? []).map((c) => [c.ticker, c]));
  const out: FilingSectionsCompany[] = [];
  const sources: SourceHealth[] = [];
  for (const company of companies) {
    const before = held.get(company.ticker);
    const base = { ticker: company.ticker, cik: company.cik, display_name: company.display_name };
    let listed: ReturnType<typeof periodicFilings>;
    try {
      const { json } = await paced(() => ctx.http.getJson(submissionsUrl(company.cik), { headers: { ...headers, Accept: "application/json" }, maxBytes: 8 * 1024 * 1024 }));
      listed = periodicFilings(company.cik, json, DELTA_FORMS, FILINGS_PER_FORM, ctx.now);
    } catch (err) {
      const error = failureMessage(err);
      out.push({ ...base, edgar_name: before?.edgar_name ?? null, status: "failed", error, newest: before?.newest ?? { "10-K": null, "10-Q": null }, filings: before?.filings ?? [] });
      sources.push({ id: `edgar:${company.ticker}`, ok: false, error });
      ctx.notice(`sec-filing-sections: ${company.ticker} failed: ${error}`);
      continue;
    }
    const known = new Map((before?.filings ?? []).filter((f) => f.status === "ok").map((f) => [f.accession_number, f]));
    const filings: ExtractedFiling[] = [];
    let unreadable = 0;
    for (const form of DELTA_FORMS) {
      for (const f of listed.byForm.get(form) ?? []) {
        const kept = known.get(f.accession_number);
        if (kept) {
          filings.push(kept);
          continue;
        }
        const filing = { accession_number: f.accession_number, form, filing_date: f.filing_date, report_date: f.report_date, primary_doc_url: f.primary_doc_url };
        try {
          const { body } = await paced(() => ctx.http.getText(f.primary_doc_url, { headers: { ...headers, Accept: "text/html, application/xhtml+xml" }, maxBytes: MAX_DOCUMENT_BYTES }));
          filings.push({ ...filing, status: "ok", error: null, passages: readFilingDocument(body) });
        } catch (err) {
          unreadable++;
          filings.push({ ...filing, status: "failed", error: failureMessage(err), passages: [] });
        }
      }
    }
    const newest = (form: (typeof DELTA_FORMS)[number]) => {
      const first = listed.byForm.get(form)?.[0];
      return first ? { accession_number: first.accession_number, filing_date: first.filing_date } : null;
    };
    out.push({ ...base, edgar_name: listed.name, status: "ok", error: null, newest: { "10-K": newest("10-K"), "10-Q": newest("10-Q") }, filings });
    sources.push({ id: `edgar:${company.ticker}`, ok: true, rows: filings.filter((f) => f.status === "ok").length });
    if (unreadable > 0) ctx.notice(`sec-filing-sections: ${company.ticker}: ${unreadable} of ${filings.length} filing documents could not be read`);
  }
  if (out.length > 0 && out.every((c) => c.status === "failed")) throw new SecFilingsFeedError(`sec-filing-sections: all ${out.length} companies failed; first: ${out[0]?.error ?? ""}`);
  const data = secFilingSectionsSnapshotSchema.parse({ companies: out });
  return { data, rows: data.companies.reduce((n, c) => n + c.filings.reduce((m, f) => m + f.passages.length, 0), 0), sources };
}

/** The `sec-filing-sections` feed (API: GET /api/premium/sec/filings/guidance-delta). */
export const secFilingSectionsFeed: Feed<SecFilingSectionsSnapshot> = {
  ...secFilingSectionsSnapshotType,
  urls: () => AI_COMPANIES.map((c) => submissionsUrl(c.cik)),
  run: (ctx) => runSecFilingSections(ctx),
};
