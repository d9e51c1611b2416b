/**
 * Feed `ai-capex`: for each company of the AI-companies cohort (pipelines/catalog/ai-companies.ts), its annual capital
 * expenditure from SEC EDGAR's XBRL company facts (pipelines/sources/sec-xbrl-capex.ts), with the curated historical
 * capex cycles and US GDP references (pipelines/catalog/capex-cycles.ts). EDGAR's rules are obeyed as in
 * `sec-filings`: a User-Agent naming SEC_EDGAR_CONTACT (a live run without it fails and keeps the previous snapshot)
 * and one request at a time, at least 125 ms apart. A company whose fetch fails keeps the figures of the previous
 * snapshot, marked failed; the run fails only when every company failed. Each run also writes the figures to the
 * warehouse table `ai_capex_annual`.
 */
import { AI_COMPANIES, type AiCompanyEntry } from "../catalog/ai-companies.ts";
import { CAPEX_CYCLES, US_GDP } from "../catalog/capex-cycles.ts";
import { HttpError } from "../lib/http/errors.ts";
import { sanitize } from "../lib/sanitize.ts";
import type { Feed, FeedContext, FeedOutput, WarehouseBatch } from "../lib/types.ts";
import { companyFactsUrl, parseAnnualCapex } from "../sources/sec-xbrl-capex.ts";
import { type AiCapexSnapshot, aiCapexSnapshotSchema, aiCapexSnapshotType, CAPEX_CONCEPTS, type CapexCompany, type CapexCycle, type GdpYear } from "../contract/snapshots/ai-capex.ts";
import { readEdgarCompanies } from "./edgar-companies.ts";
import { edgarUserAgentFor } from "./sec-filings.ts";

/** Largest companyfacts body read (the biggest filers' documents run to tens of megabytes). */
export const COMPANY_FACTS_MAX_BYTES = 48 * 1024 * 1024;

/** Every company failed, or the contact is missing on a live run. */
export class AiCapexFeedError extends Error {
  override name = "AiCapexFeedError";
}

export interface AiCapexOptions {
  companies?: readonly AiCompanyEntry[];
  cycles?: readonly CapexCycle[];
  gdp?: readonly GdpYear[];
  contact?: string | undefined;
  sleep?: (ms: number) => Promise<void>;
}


/** Check the curated references: unique cycle ids and GDP years. */
export function checkReferences(cycles: readonly CapexCycle[], gdp: readonly GdpYear[]): void {
  const ids = new Set<string>();
  for (const c of cycles) {
    if (ids.has(c.id)) throw new Error(`ai-capex: cycle ${c.id} appears twice`);
    ids.add(c.id);
    if ((c.peak_to_trough_drawdown_pct === null) !== (c.drawdown_source_url === null)) throw new Error(`ai-capex: cycle ${c.id} has a drawdown without its source, or a source without a drawdown`);
  }
  const years = new Set<number>();
  for (const g of gdp) {
    if (years.has(g.year)) throw new Error(`ai-capex: GDP year ${g.year} appears twice`);
    years.add(g.year);
  }
}

/** The `ai_capex_annual` rows of a day: one per company and fiscal year held in the snapshot. */
export function aiCapexRows(data: AiCapexSnapshot, date: string): WarehouseBatch {
  return {
    table: "ai_capex_annual",
    key: ["date", "ticker", "fiscal_year"],
    rows: data.companies.flatMap((c) =>
      c.annual.map((y) => ({
        date,
        ticker: c.ticker,
        cik: c.cik,
        fiscal_year: y.fiscal_year,
        period_start: y.period_start,
        period_end: y.period_end,
        capex_usd: y.capex_usd,
        concept: y.concept,
        form: y.form,
        accession_number: y.accession_number,
        filed: y.filed,
        status: c.status,
      })),
    ),
  };
}

/** A failure in words fit for the snapshot: the HTTP error's code, status and URL (never a local path), else the message. */
export function describeFailure(err: unknown): string {
  if (err instanceof HttpError) return `${err.code}${err.status === undefined ? "" : ` ${err.status}`}: ${err.url}`.slice(0, 300);
  return sanitize(err instanceof Error ? err.message : String(err), { maxLength: 300 });
}

/** Build the snapshot. */
export async function runAiCapex(ctx: FeedContext, options: AiCapexOptions = {}): Promise<FeedOutput<AiCapexSnapshot>> {
  const companies = options.companies ?? AI_COMPANIES;
  const cycles = options.cycles ?? CAPEX_CYCLES;
  const gdp = options.gdp ?? US_GDP;
  checkReferences(cycles, gdp);
  const replay = ctx.provenance === "replay";
  const userAgent = edgarUserAgentFor("ai-capex", replay, options.contact, (message) => new AiCapexFeedError(message));
  const previous = await ctx.previous<AiCapexSnapshot>(aiCapexSnapshotType.type);
  const held = new Map((previous?.companies ?? []).map((c) => [c.ticker, c]));
  const base = (company: AiCompanyEntry) => ({ ticker: company.ticker, cik: company.cik, display_name: company.display_name });
  const { entries: out, sources } = await readEdgarCompanies<CapexCompany>(ctx, {
    feed: "ai-capex",
    source: "edgar-xbrl",
    companies,
    userAgent,
    replay,
    sleep: options.sleep,
    url: (company) => companyFactsUrl(company.cik),
    maxBytes: COMPANY_FACTS_MAX_BYTES,
    read: (json, company) => {
      const annual = parseAnnualCapex(json, ctx.now);
      if (annual.length === 0) ctx.notice(`ai-capex: ${company.ticker} files no annual USD capex under ${CAPEX_CONCEPTS.join(" or ")}`);
      return { entry: { ...base(company), status: "ok", annual }, rows: annual.length };
    },
    failed: (company, error) => ({ ...base(company), status: "failed", error, annual: held.get(company.ticker)?.annual ?? [] }),
    describe: describeFailure,
    fail: (message) => new AiCapexFeedError(message),
  });
  const data = aiCapexSnapshotSchema.parse({ companies: out, cycles: [...cycles].sort((a, b) => b.peak_capex_pct_gdp - a.peak_capex_pct_gdp || a.id.localeCompare(b.id)), us_gdp: [...gdp].sort((a, b) => a.year - b.year) });
  return { data, rows: data.companies.reduce((a, c) => a + c.annual.length, 0), sources, warehouse: [aiCapexRows(data, ctx.now.toISOString().slice(0, 10))] };
}

/** The `ai-capex` feed (API: GET /api/premium/ai-capex-cycle-verdict). */
export const aiCapexFeed: Feed<AiCapexSnapshot> = {
  ...aiCapexSnapshotType,
  urls: () => AI_COMPANIES.map((c) => companyFactsUrl(c.cik)),
  run: (ctx) => runAiCapex(ctx),
  historyRows: (data, at) => [aiCapexRows(data, at.date)],
};
