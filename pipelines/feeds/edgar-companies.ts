/**
 * The company loop the EDGAR JSON feeds share (`sec-filings`, `ai-capex`): one request per company of the cohort,
 * with the feed's User-Agent, at least EDGAR_MIN_INTERVAL_MS apart on a live run. A company read is the feed's
 * entry and its source health; a company whose read fails keeps what the feed's `failed` makes of the previous
 * snapshot, with a notice; the run fails (`fail`) only when every company failed.
 */
import type { AiCompanyEntry } from "../catalog/ai-companies.ts";
import type { FeedContext, SourceHealth } from "../lib/types.ts";
import { EDGAR_MIN_INTERVAL_MS } from "../sources/sec-edgar.ts";

/** What a feed's entry for one company says about its read. */
export interface CompanyEntry {
  status: "ok" | "failed";
  error?: string | null | undefined;
}

/** How one EDGAR feed reads each company. */
export interface EdgarCompanyReads<T extends CompanyEntry> {
  /** The feed's type, as its notices and errors name it. */
  feed: string;
  /** Prefix of the source health ids (`<prefix>:<ticker>`). */
  source: string;
  companies: readonly AiCompanyEntry[];
  /** The User-Agent EDGAR asks for (edgarUserAgentFor). */
  userAgent: string;
  /** True in a replay run: no pacing. */
  replay: boolean;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  url(company: AiCompanyEntry): string;
  maxBytes: number;
  /** The entry of a company from its JSON document, and the rows it holds; throws when the document is unusable. */
  read(json: unknown, company: AiCompanyEntry): { entry: T; rows: number };
  /** The entry of a company whose read failed (usually what the previous snapshot held), with `error`. */
  failed(company: AiCompanyEntry, error: string): T;
  /** A failure in words fit for the snapshot. */
  describe(err: unknown): string;
  /** The error a run where every company failed throws. */
  fail(message: string): Error;
}

const defaultSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** Read every company in order; the entries in the cohort's order and each one's source health. */
export async function readEdgarCompanies<T extends CompanyEntry>(ctx: FeedContext, reads: EdgarCompanyReads<T>): Promise<{ entries: T[]; sources: SourceHealth[] }> {
  const sleep = reads.sleep ?? defaultSleep;
  const entries: T[] = [];
  const sources: SourceHealth[] = [];
  for (const [i, company] of reads.companies.entries()) {
    if (i > 0 && !reads.replay) await sleep(EDGAR_MIN_INTERVAL_MS);
    const id = `${reads.source}:${company.ticker}`;
    try {
      const { json } = await ctx.http.getJson(reads.url(company), { headers: { "User-Agent": reads.userAgent, Accept: "application/json" }, maxBytes: reads.maxBytes });
      const { entry, rows } = reads.read(json, company);
      entries.push(entry);
      sources.push({ id, ok: true, rows });
    } catch (err) {
      const error = reads.describe(err);
      entries.push(reads.failed(company, error));
      sources.push({ id, ok: false, error });
      ctx.notice(`${reads.feed}: ${company.ticker} failed: ${error}`);
    }
  }
  if (entries.length > 0 && entries.every((e) => e.status === "failed")) {
    throw reads.fail(`${reads.feed}: all ${entries.length} companies failed; first: ${entries[0]?.error ?? ""}`);
  }
  return { entries, sources };
}
