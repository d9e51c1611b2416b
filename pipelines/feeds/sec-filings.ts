/**
 * Feed `sec-filings`: for each company of the cohort (pipelines/catalog/ai-companies.ts), EDGAR's submissions
 * document, its latest filings kept with their primary document URLs. EDGAR's rules are obeyed: a User-Agent naming
 * the operator's contact (SEC_EDGAR_CONTACT; a live run without it fails and keeps the previous snapshot) and one
 * request at a time, at least 125 ms apart (at most 8 per second). A company whose fetch fails keeps the filings of
 * the previous snapshot, marked failed; the run fails only when every company failed.
 */
import { AI_COMPANIES, submissionsUrl, type AiCompanyEntry } from "../catalog/ai-companies.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { EDGAR_MIN_INTERVAL_MS, parseSubmissions } from "../sources/sec-edgar.ts";
import { type AiCompany, type SecFilingsSnapshot, secFilingsSnapshotSchema, secFilingsSnapshotType } from "../contract/snapshots/sec-filings.ts";

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

const defaultSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

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
  if (!replay && !/^[^\s()]{3,200}$/.test(contact)) {
    throw fail(`${feed}: ${SEC_CONTACT_ENV} is not set (an e-mail address or URL without spaces): EDGAR asks every client for a User-Agent that names a contact`);
  }
  return edgarUserAgent(contact || "replay");
}

/** A failed read in words fit for the snapshot: the error's message, at most 300 characters. */
export function failureMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}

/** Build the snapshot. */
export async function runSecFilings(ctx: FeedContext, options: SecFilingsOptions = {}): Promise<FeedOutput<SecFilingsSnapshot>> {
  const companies = options.companies ?? AI_COMPANIES;
  const replay = ctx.provenance === "replay";
  const userAgent = edgarUserAgentFor("sec-filings", replay, options.contact, (message) => new SecFilingsFeedError(message));
  const sleep = options.sleep ?? defaultSleep;
  const previous = await ctx.previous<SecFilingsSnapshot>(secFilingsSnapshotType.type);
  const held = new Map((previous?.companies ?? []).map((c) => [c.ticker, c]));
  const out: AiCompany[] = [];
  const sources: SourceHealth[] = [];
  for (const [i, company] of companies.entries()) {
    if (i > 0 && !replay) await sleep(EDGAR_MIN_INTERVAL_MS);
    const base = { ticker: company.ticker, cik: company.cik, display_name: company.display_name, category: company.category, ai_angle: company.ai_angle, exchange: company.exchange, aliases: company.aliases };
    try {
      const { json } = await ctx.http.getJson(submissionsUrl(company.cik), { headers: { "User-Agent": userAgent, Accept: "application/json" }, maxBytes: 8 * 1024 * 1024 });
      const parsed = parseSubmissions(company.cik, json);
      out.push({ ...base, edgar_name: parsed.name, status: "ok", filings: parsed.filings });
      sources.push({ id: `edgar:${company.ticker}`, ok: true, rows: parsed.filings.length });
    } catch (err) {
      const error = failureMessage(err);
      const before = held.get(company.ticker);
      out.push({ ...base, edgar_name: before?.edgar_name ?? null, status: "failed", error, filings: before?.filings ?? [] });
      sources.push({ id: `edgar:${company.ticker}`, ok: false, error });
      ctx.notice(`sec-filings: ${company.ticker} failed: ${error}`);
    }
  }
  if (out.length > 0 && out.every((c) => c.status === "failed")) throw new SecFilingsFeedError(`sec-filings: all ${out.length} companies failed; first: ${out[0]?.error ?? ""}`);
  const data = secFilingsSnapshotSchema.parse({ companies: out });
  return { data, rows: data.companies.reduce((a, c) => a + c.filings.length, 0), sources };
}

/** The `sec-filings` feed (API: GET /api/premium/ai-companies/{ticker}). */
export const secFilingsFeed: Feed<SecFilingsSnapshot> = {
  ...secFilingsSnapshotType,
  urls: () => AI_COMPANIES.map((c) => submissionsUrl(c.cik)),
  run: (ctx) => runSecFilings(ctx),
};
