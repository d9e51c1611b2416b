/**
 * Feed `sec-filings`: for each company of the cohort (pipelines/catalog/ai-companies.ts), EDGAR's submissions
 * document, its latest filings kept with their primary document URLs. EDGAR's rules are obeyed: a User-Agent naming
 * the operator's contact (SEC_EDGAR_CONTACT; a live run without it fails and keeps the previous snapshot) and one
 * request at a time, at least 125 ms apart (at most 8 per second). A company whose fetch fails keeps the filings of
 * the previous snapshot, marked failed; the run fails only when every company failed.
 */
import { AI_COMPANIES, submissionsUrl, type AiCompanyEntry } from "../catalog/ai-companies.ts";
import type { Feed, FeedContext, FeedOutput } from "../lib/types.ts";
import { parseSubmissions } from "../sources/sec-edgar.ts";
import { type AiCompany, type SecFilingsSnapshot, secFilingsSnapshotSchema, secFilingsSnapshotType } from "../contract/snapshots/sec-filings.ts";
import { readEdgarCompanies } from "./edgar-companies.ts";

/** The environment variable holding the contact EDGAR's User-Agent must name (an e-mail address or a URL). */
export const SEC_CONTACT_ENV = "SEC_EDGAR_CONTACT";

/** Every company failed, or the contact is missing on a live run. */
export class SecFilingsFeedError extends Error {
  override name = "SecFilingsFeedError";
}

export interface SecFilingsOptions {
  companies?: readonly AiCompanyEntry[];
  contact?: string | undefined;
  sleep?: (ms: number) => Promise<void>;
}

/** The User-Agent EDGAR asks for: who we are and how to reach the operator. */
export function edgarUserAgent(contact: string): string {
  return `agentfeed/1.0 (${contact})`;
}

/**
 * The User-Agent of an EDGAR feed's run: the contact given, else SEC_EDGAR_CONTACT. A live run without a valid
 * contact (an e-mail address or URL, no spaces) throws `fail(message)`; a replay names "replay".
 */
export function edgarUserAgentFor(feed: string, replay: boolean, given: string | undefined, fail: (message: string) => Error): string {
  const contact = (given ?? process.env[SEC_CONTACT_ENV] ?? "").trim();
  if (!replay && !isContact(contact)) {
    const what = contact === "" ? "is not set" : `is not an e-mail address (name@host.tld) or an http(s) URL without spaces or parentheses (3 to 200 characters; got ${JSON.stringify(contact.slice(0, 60))})`;
    throw fail(`${feed}: ${SEC_CONTACT_ENV} ${what}: EDGAR asks every client for a User-Agent that names a contact`);
  }
  return edgarUserAgent(contact || "replay");
}

/** An e-mail address or an http(s) URL, the two ways EDGAR's User-Agent rule names a contact, with nothing else in it. */
function isContact(value: string): boolean {
  if (!/^[^\s()]{3,200}$/.test(value)) return false;
  return /^[^@]+@[^@]+\.[^@]+$/.test(value) || /^https?:\/\/[^/]+\.[^/]+/i.test(value);
}

/** A failed read in words fit for the snapshot: the error's message, at most 300 characters. */
export function failureMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}

/** A company's catalog facts, as its snapshot entry repeats them. */
function entryBase(company: AiCompanyEntry) {
  return { ticker: company.ticker, cik: company.cik, display_name: company.display_name, category: company.category, ai_angle: company.ai_angle, exchange: company.exchange, aliases: company.aliases };
}

/** Build the snapshot. */
export async function runSecFilings(ctx: FeedContext, options: SecFilingsOptions = {}): Promise<FeedOutput<SecFilingsSnapshot>> {
  const companies = options.companies ?? AI_COMPANIES;
  const replay = ctx.provenance === "replay";
  const userAgent = edgarUserAgentFor("sec-filings", replay, options.contact, (message) => new SecFilingsFeedError(message));
  const previous = await ctx.previous<SecFilingsSnapshot>(secFilingsSnapshotType.type);
  const held = new Map((previous?.companies ?? []).map((c) => [c.ticker, c]));
  const { entries: out, sources } = await readEdgarCompanies<AiCompany>(ctx, {
    feed: "sec-filings",
    source: "edgar",
    companies,
    userAgent,
    replay,
    sleep: options.sleep,
    url: (company) => submissionsUrl(company.cik),
    maxBytes: 8 * 1024 * 1024,
    read: (json, company) => {
      const parsed = parseSubmissions(company.cik, json, ctx.now);
      if (parsed.skipped > 0) ctx.notice(`sec-filings: ${company.ticker} had ${parsed.skipped} filings with a malformed accession number, filing date or document name (skipped)`);
      return { entry: { ...entryBase(company), edgar_name: parsed.name, status: "ok", filings: parsed.filings }, rows: parsed.filings.length };
    },
    failed: (company, error) => {
      const before = held.get(company.ticker);
      return { ...entryBase(company), edgar_name: before?.edgar_name ?? null, status: "failed", error, filings: before?.filings ?? [] };
    },
    describe: failureMessage,
    fail: (message) => new SecFilingsFeedError(message),
  });
  const data = secFilingsSnapshotSchema.parse({ companies: out });
  return { data, rows: data.companies.reduce((a, c) => a + c.filings.length, 0), sources };
}

/** The `sec-filings` feed (API: GET /api/premium/ai-companies/{ticker}). */
export const secFilingsFeed: Feed<SecFilingsSnapshot> = {
  ...secFilingsSnapshotType,
  urls: () => AI_COMPANIES.map((c) => submissionsUrl(c.cik)),
  run: (ctx) => runSecFilings(ctx),
};
