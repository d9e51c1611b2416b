/**
 * GET /api/premium/ai-companies/{ticker}: one company of the fixed cohort of AI-related public
 * companies — who it is, its latest filings (snapshot `sec-filings`, from SEC EDGAR), the latest news naming it
 * (snapshot `news`, matched by api/verdicts/company-news.ts) and its funding commitments as an investor. A ticker
 * outside the cohort is 404 (not charged); freshness SLA 9 hours on the filings.
 */
import { z } from "zod";
import { newsSnapshotSchema } from "../../pipelines/contract/snapshots/news.ts";
import { AI_COMPANY_CATEGORIES, AI_COMPANIES_SOURCE, secFilingsSnapshotSchema, secFilingsSnapshotType } from "../../pipelines/contract/snapshots/sec-filings.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { lastSuccessOf, provenanceOf, readSnapshot } from "../serve/read-snapshot.ts";
import { companyNews } from "../verdicts/company-news.ts";
import { commitmentsOfTicker } from "./funding.ts";

/** Filings and news items listed per company. */
export const COMPANY_ITEMS = 10;

export const AiCompanyParams = z.strictObject({
  ticker: z
    .string()
    // Checked as sent (the pattern clients see), then normalized.
    .regex(/^\s*[A-Za-z.]{1,6}\s*$/, "ticker is 1 to 6 letters, such as NVDA")
    .trim()
    .toUpperCase()
    .meta({ description: "A ticker of the cohort (case-insensitive); /api/meta and the 404 list them." }),
});

export const AiCompanyResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().meta({ description: "When the filings were last read from EDGAR (the sec-filings feed's last success)." }),
  provenance: z.enum(["live", "replay"]).meta({ description: "replay: the bundled data, built from recordings of EDGAR's answers, not read from EDGAR now." }),
  ticker: z.string(),
  cohort_size: z.int().positive(),
  company: z.strictObject({
    ticker: z.string(),
    cik: z.string(),
    display_name: z.string(),
    category: z.enum(AI_COMPANY_CATEGORIES),
    ai_angle: z.string(),
    exchange: z.string(),
    edgar_name: z.string().nullable(),
  }),
  filings: z.strictObject({
    count: z.int().nonnegative(),
    items: z.array(z.strictObject({ accession_number: z.string(), form: z.string(), filing_date: z.string(), report_date: z.string().nullable(), primary_doc_url: z.string() })),
    status: z.enum(["ok", "failed"]).meta({ description: "failed: the last read of EDGAR failed; the filings are those of the read before." }),
    source: z.string(),
    license: z.string(),
  }),
  news: z.strictObject({
    count: z.int().nonnegative(),
    items: z.array(z.strictObject({ id: z.string(), title: z.string(), url: z.string(), source: z.string(), publishedAt: z.string(), matched_aliases: z.array(z.string()) })),
    aliases_used: z.array(z.string()),
    sanitization: z.string(),
  }),
  funding_as_investor: z.strictObject({ count: z.int().nonnegative(), items: z.array(z.record(z.string(), z.unknown())), description: z.string() }),
  attribution: z.string(),
});
type AiCompanyBody = z.infer<typeof AiCompanyResponse>;

/** Render GET /api/premium/ai-companies/{ticker}. */
export function renderAiCompany(ctx: RenderContext, params: z.infer<typeof AiCompanyParams>): AiCompanyBody {
  const snapshot = readSnapshot(ctx.snapshots, secFilingsSnapshotType.type, secFilingsSnapshotSchema);
  const cohort = snapshot.data.companies;
  const company = cohort.find((c) => c.ticker === params.ticker);
  if (!company) {
    throw new ApiError(404, "unknown_ticker", `${params.ticker} is not in the cohort of ${cohort.length} AI-related public companies`, { cohort: cohort.map((c) => c.ticker) });
  }
  const news = ctx.snapshots.get("news") ? readSnapshot(ctx.snapshots, "news", newsSnapshotSchema).data.articles : [];
  const matched = companyNews(news, company.aliases, COMPANY_ITEMS);
  return {
    ok: true,
    capturedAt: lastSuccessOf(snapshot),
    provenance: provenanceOf(snapshot),
    ticker: company.ticker,
    cohort_size: cohort.length,
    company: { ticker: company.ticker, cik: company.cik, display_name: company.display_name, category: company.category, ai_angle: company.ai_angle, exchange: company.exchange, edgar_name: company.edgar_name },
    filings: {
      count: Math.min(company.filings.length, COMPANY_ITEMS),
      items: company.filings.slice(0, COMPANY_ITEMS).map((f) => ({ accession_number: f.accession_number, form: f.form, filing_date: f.filing_date, report_date: f.report_date, primary_doc_url: f.primary_doc_url })),
      status: company.status,
      source: "SEC EDGAR submissions (https://data.sec.gov/submissions/), newest first",
      license: "EDGAR filings are public records of the U.S. Securities and Exchange Commission",
    },
    news: {
      count: matched.count,
      items: matched.items,
      aliases_used: company.aliases,
      sanitization: "Titles as the news feed stored them: HTML stripped, control, bidirectional and invisible characters removed, instruction-like phrases filtered, at most 300 characters.",
    },
    funding_as_investor: (() => {
      const items = commitmentsOfTicker(ctx, company.ticker);
      return { count: items.length, items, description: "Funding commitments this company made as an investor, from the curated funding registry (/api/funding/portfolio), newest first." };
    })(),
    attribution: `Cohort: ${AI_COMPANIES_SOURCE}. Filings: SEC EDGAR. News: this service's news feed.`,
  };
}

/** The AI companies route. */
export const premiumAiCompaniesRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/ai-companies/:ticker",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "One of 14 AI-related public companies: identity and AI angle, its latest 10 SEC filings with primary document URLs, the latest 10 news items naming it, and its funding commitments as an investor.",
    description: [
      "The cohort (chosen by hand, CIKs from EDGAR): NVDA, AMD, AVGO, TSM, ARM, MU, SMCI, MSFT, GOOGL, AMZN, META, ORCL, PLTR, IBM. Any other ticker is 404 unknown_ticker with the cohort listed (not charged).",
      "Filings: EDGAR's submissions document, newest first (any form: 10-K, 10-Q, 8-K, 20-F, 6-K, ownership reports …), read every 4 hours with a User-Agent naming the operator's contact, at most 8 requests per second. status failed: the last read failed and the filings shown are those of the read before.",
      "News: articles of the news feed whose title or snippet names one of the company's aliases as a whole phrase (aliases_used), newest first; count is every match in the feed.",
      "Freshness SLA 9 hours on the filings: a staler answer is served and not charged (stale_data); so is a company whose filings could not be read at all (filings_unavailable).",
    ].join(" "),
    tags: ["premium", "finance"],
    params: AiCompanyParams,
    response: AiCompanyResponse,
    snapshots: ["sec-filings"],
    freshness: { cadence: secFilingsSnapshotType.cadence, slaSeconds: secFilingsSnapshotType.slaSeconds },
    errors: { 404: "the ticker is not in the cohort (unknown_ticker, with the cohort)" },
    noCharge: {
      outcomes: { filings_unavailable: "EDGAR's list of the company's filings could not be read and none is held from an earlier read" },
      check: (body) => (body.filings.status === "failed" && body.filings.count === 0 ? "filings_unavailable" : null),
    },
    example: "/api/premium/ai-companies/NVDA",
    render: (ctx, { params }) => renderAiCompany(ctx, params),
  }),
];
