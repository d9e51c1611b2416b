/**
 * GET /api/premium/sec/filings/guidance-delta: what changed in a cohort company's risk factors,
 * forward-looking statements notice and outlook between a 10-K (or 10-Q) and the same-form filing before it, read
 * from snapshot `sec-filing-sections` and judged by api/verdicts/guidance-delta.ts. Not charged when a newer
 * same-form filing than the one served exists (the delta asked for as "latest" is superseded).
 */
import { z } from "zod";
import { DELTA_FORMS, type ExtractedFiling, type FilingSectionsCompany, secFilingSectionsSnapshotSchema, secFilingSectionsSnapshotType } from "../../pipelines/contract/snapshots/sec-filing-sections.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { lastSuccessOf, provenanceOf, readSnapshot } from "../serve/read-snapshot.ts";
import { VersionedMemo } from "../serve/versioned-memo.ts";
import { CATEGORIES, CHANGE_TYPES, DIRECTIONS, DELTA_SECTIONS, type GuidanceChange, guidanceChanges, type MaterialitySummary, MATERIALITIES, materialitySummary } from "../verdicts/guidance-delta.ts";

const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

export const GuidanceDeltaQuery = z
  .strictObject({
    ticker: z
      .string()
      // Checked as sent (the pattern clients see), then normalized.
      .regex(/^\s*[A-Za-z.]{1,6}\s*$/, "ticker is 1 to 6 letters, such as NVDA")
      .trim()
      .toUpperCase()
      .optional()
      .meta({ description: "A ticker of the AI cohort (case-insensitive); with form, the latest delta of that form." }),
    form: z.enum(DELTA_FORMS).optional().meta({ description: "10-K or 10-Q (default 10-K when ticker is given)." }),
    accession: z
      .string()
      .trim()
      .regex(ACCESSION, "accession is EDGAR's accession number, such as 0001045810-25-000023")
      .optional()
      .meta({ description: "One filing's accession number: the delta of that filing against the same-form filing before it." }),
  })
  .superRefine((q, ctx) => {
    if (q.ticker === undefined && q.accession === undefined) ctx.addIssue({ code: "custom", message: "give ticker (with form) or accession", path: ["ticker"] });
    if (q.accession !== undefined && q.form !== undefined) ctx.addIssue({ code: "custom", message: "form goes with ticker; an accession names one filing and its form", path: ["form"] });
  });
export type GuidanceDeltaInput = z.infer<typeof GuidanceDeltaQuery>;

const Change = z.strictObject({
  topic: z.string(),
  prior_text: z.string().nullable(),
  current_text: z.string().nullable(),
  prior_value: z.string().nullable(),
  current_value: z.string().nullable(),
  section: z.enum(DELTA_SECTIONS),
  category: z.enum(CATEGORIES),
  change_type: z.enum(CHANGE_TYPES),
  direction: z.enum(DIRECTIONS),
  materiality: z.enum(MATERIALITIES),
});

const count = z.int().nonnegative();
export const MaterialitySummarySchema = z.strictObject({
  total_changes: count,
  by_materiality: z.strictObject({ material: count, minor: count, boilerplate: count }),
  by_category: z.record(z.string(), count),
  by_change_type: z.strictObject({ added: count, removed: count, modified: count, value_changed: count }),
  by_direction: z.strictObject({ increased: count, decreased: count, neutral: count }),
  headline: z.string(),
});

export const Freshness = z.strictObject({
  model: z.literal("superseded_by_newer_filing").meta({ description: "A delta stays current until EDGAR lists a newer filing of the same form." }),
  superseded: z.boolean().meta({ description: "A latest-delta request (ticker and form) answered with an older filing than the newest EDGAR lists: not charged. Always false for an accession, which names its filing." }),
  newest_same_form: z.strictObject({ accession_number: z.string(), filing_date: z.string() }).nullable().meta({ description: "The newest filing of the form EDGAR listed when last read (may not be extracted yet)." }),
  checked_at: z.string().meta({ description: "When EDGAR's list of filings was last read." }),
});

export const GuidanceDeltaResponse = z.strictObject({
  ok: z.literal(true),
  ticker: z.string(),
  company_name: z.string(),
  form: z.enum(DELTA_FORMS),
  accession_number: z.string(),
  prior_accession_number: z.string(),
  filing_date: z.string(),
  prior_filing_date: z.string(),
  current_doc_url: z.string(),
  prior_doc_url: z.string(),
  materiality_summary: MaterialitySummarySchema,
  changes: z.array(Change),
  freshness: Freshness,
  provenance: z.enum(["live", "replay"]).meta({ description: "replay: the bundled data, extracted from recorded copies of the filings as EDGAR serves them." }),
  capturedAt: z.string(),
  attribution: z.string(),
});
export type GuidanceDeltaBody = z.infer<typeof GuidanceDeltaResponse>;

/** The pair of filings a query asks about. */
export interface DeltaPair {
  company: FilingSectionsCompany;
  current: ExtractedFiling;
  prior: ExtractedFiling;
  superseded: boolean;
}

const readable = (f: ExtractedFiling | undefined): f is ExtractedFiling => f !== undefined && f.status === "ok";

/** Find the filings a query names (404 with a hint when it names none, or no readable pair). */
export function resolveDeltaPair(companies: readonly FilingSectionsCompany[], query: GuidanceDeltaInput): DeltaPair {
  if (query.accession !== undefined) {
    const company = companies.find((c) => c.filings.some((f) => f.accession_number === query.accession));
    const named = company?.filings.find((f) => f.accession_number === query.accession);
    if (!company || !named || (query.ticker !== undefined && company.ticker !== query.ticker)) {
      throw new ApiError(404, "unknown_accession", `${query.accession} is not among the latest 10-K and 10-Q filings extracted for ${query.ticker ?? "the cohort"}`, {
        hint: "GET /api/premium/ai-companies/{ticker} lists a company's filings; this endpoint keeps the latest 3 of each form per company",
      });
    }
    const sameForm = company.filings.filter((f) => f.form === named.form);
    const current = named;
    const prior = sameForm[sameForm.indexOf(named) + 1];
    if (!readable(current) || !readable(prior)) {
      throw new ApiError(404, "no_delta", `${query.accession}: ${!readable(current) ? "this filing's document could not be read" : "the same-form filing before it is not extracted here"}, so there is no delta to serve`, { ticker: company.ticker });
    }
    return { company, current, prior, superseded: false };
  }
  const form = query.form ?? "10-K";
  const company = companies.find((c) => c.ticker === query.ticker);
  if (!company) {
    throw new ApiError(404, "unknown_ticker", `${query.ticker} is not in the cohort of ${companies.length} AI-related public companies`, { cohort: companies.map((c) => c.ticker) });
  }
  const sameForm = company.filings.filter((f) => f.form === form);
  for (let k = 0; k + 1 < sameForm.length; k++) {
    const current = sameForm[k];
    const prior = sameForm[k + 1];
    if (readable(current) && readable(prior)) {
      const newest = company.newest[form];
      return { company, current, prior, superseded: newest !== null && newest.accession_number !== current.accession_number };
    }
  }
  throw new ApiError(404, "no_delta", `${company.ticker} has no two consecutive readable ${form} filings extracted (it files ${form === "10-Q" ? "no quarterly reports on 10-Q" : "no 10-K"} here, or their documents could not be read)`, {
    ticker: company.ticker,
    form,
    filings: sameForm.map((f) => ({ accession_number: f.accession_number, filing_date: f.filing_date, status: f.status })),
  });
}

const memo = new VersionedMemo<{ changes: GuidanceChange[]; summary: MaterialitySummary }>(500);

/** Render the delta of a query. */
export async function renderGuidanceDelta(ctx: RenderContext, query: GuidanceDeltaInput): Promise<GuidanceDeltaBody> {
  const snapshot = readSnapshot(ctx.snapshots, secFilingSectionsSnapshotType.type, secFilingSectionsSnapshotSchema);
  const { company, current, prior, superseded } = resolveDeltaPair(snapshot.data.companies, query);
  const label = `${company.ticker} ${current.form} filed ${current.filing_date} against ${prior.filing_date}`;
  const { changes, summary } = await memo.get(ctx.dataVersion ?? lastSuccessOf(snapshot), `${current.accession_number}|${prior.accession_number}`, async () => {
    const list = guidanceChanges(prior.passages, current.passages);
    return { changes: list, summary: materialitySummary(list, label) };
  });
  const capturedAt = lastSuccessOf(snapshot);
  return {
    ok: true,
    ticker: company.ticker,
    company_name: company.edgar_name ?? company.display_name,
    form: current.form,
    accession_number: current.accession_number,
    prior_accession_number: prior.accession_number,
    filing_date: current.filing_date,
    prior_filing_date: prior.filing_date,
    current_doc_url: current.primary_doc_url,
    prior_doc_url: prior.primary_doc_url,
    materiality_summary: summary,
    changes,
    freshness: { model: "superseded_by_newer_filing", superseded, newest_same_form: company.newest[current.form], checked_at: capturedAt },
    provenance: provenanceOf(snapshot),
    capturedAt,
    attribution: "SEC EDGAR filings (public records of the U.S. Securities and Exchange Commission), primary documents as EDGAR serves them; passages extracted and changes classified by this service's published rules.",
  };
}

/** The route's description: the rules a caller needs to read a delta. */
export const GUIDANCE_DELTA_RULES = [
  "Passages: every risk factor of Item 1A (a heading set in bold or italic opens one; group headings such as 'Risks Related to …' are not risk factors), the forward-looking statements notice, and an MD&A outlook where the filing has one.",
  "Matching: same heading first, then by word overlap (at least 0.5). change_type: added, removed, value_changed (only figures differ), modified.",
  "materiality: boilerplate when only years, dates, spacing, punctuation or case differ; material for an added or removed risk factor, a figure moved by 25 % or 5 percentage points, a rewrite changing 25 % of the word pairs, or a high-signal term (export controls, tariffs, sanctions, investigations, impairment, material weakness, going concern, default …) named more often than before; minor otherwise.",
  "direction: a figure rose or fell; a risk factor added (increased) or removed (decreased); for a rewording, the sign of the net count of risk-language terms. Quotes are the changed sentences, at most 600 characters.",
].join(" ");

/** The guidance-delta route. */
export const premiumGuidanceDeltaRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/sec/filings/guidance-delta",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "What changed in a cohort company's risk factors, forward-looking statements and outlook between its latest 10-K (or 10-Q) and the one before, each change classified by category, direction and materiality.",
    description: [
      "ticker + form (10-K default, or 10-Q): the newest pair of consecutive same-form filings extracted here; accession: that filing against the same-form filing before it. Filings are SEC EDGAR's primary documents, the latest 3 of each form per company of the 14-company AI cohort.",
      GUIDANCE_DELTA_RULES,
      "Not charged: a latest-delta request answered with an older filing than the newest EDGAR lists (freshness.superseded: its document is not extracted yet). Unknown ticker or accession, or no readable pair: 404, not charged.",
    ].join(" "),
    tags: ["premium", "finance"],
    query: GuidanceDeltaQuery,
    response: GuidanceDeltaResponse,
    snapshots: ["sec-filing-sections"],
    // A filing's delta stands until a newer filing supersedes it (the superseded outcome), not until a feed ages.
    chargedWhenStale: true,
    errors: { 404: "unknown ticker or accession (unknown_ticker, unknown_accession), or no two readable same-form filings (no_delta)" },
    example: "/api/premium/sec/filings/guidance-delta?accession=0001045810-25-000023",
    noCharge: {
      outcomes: { superseded: "a newer same-form filing than the one served exists (the latest delta is superseded)" },
      check: (body) => (body.freshness.superseded ? "superseded" : null),
    },
    render: (ctx, { query }) => renderGuidanceDelta(ctx, query),
  }),
];
