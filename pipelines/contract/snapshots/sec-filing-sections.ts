/**
 * The `sec-filing-sections` snapshot: for each company of the AI cohort (pipelines/catalog/ai-companies.ts), its
 * latest annual (10-K) and quarterly (10-Q) reports with the passages that speak of the future — every risk factor of
 * Item 1A, the forward-looking statements notice, an MD&A outlook — read from the primary document as EDGAR serves
 * it. Each form also names the newest filing EDGAR lists, so a reader can tell when a newer report has superseded the
 * ones extracted here.
 */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** The forms compared. */
export const DELTA_FORMS = ["10-K", "10-Q"] as const;
export type DeltaForm = (typeof DELTA_FORMS)[number];

/** Filings of each form kept per company, newest first (so the newest pair survives one unreadable filing). */
export const FILINGS_PER_FORM = 3;

/** The sections a passage can come from. */
export const FILING_SECTIONS = ["risk_factors", "forward_looking_statements", "outlook"] as const;
export type FilingSection = (typeof FILING_SECTIONS)[number];

/** Longest heading, in characters. */
export const MAX_HEADING = 450;
/** Longest passage text, in characters. */
export const MAX_PASSAGE_TEXT = 30_000;
/** Most passages per filing. */
export const MAX_PASSAGES = 400;

export const filingPassageSchema = z.strictObject({
  section: z.enum(FILING_SECTIONS),
  /** The heading a risk factor is grouped under ("Risks Related to Our Industry and Markets"), else null. */
  group: z.string().max(MAX_HEADING).nullable(),
  heading: z.string().min(1).max(MAX_HEADING),
  /** Sanitized paragraphs joined by "\n". */
  text: z.string().min(1).max(MAX_PASSAGE_TEXT),
});
export type FilingPassage = z.infer<typeof filingPassageSchema>;

export const extractedFilingSchema = z.strictObject({
  accession_number: z.string().regex(/^\d{10}-\d{2}-\d{6}$/),
  form: z.enum(DELTA_FORMS),
  filing_date: z.iso.date(),
  report_date: z.iso.date().nullable(),
  primary_doc_url: z.url({ protocol: /^https$/ }),
  /** ok: the document was read and its passages extracted; failed: it could not be read (passages empty). */
  status: z.enum(["ok", "failed"]),
  error: z.string().max(300).nullable(),
  passages: z.array(filingPassageSchema).max(MAX_PASSAGES),
});
export type ExtractedFiling = z.infer<typeof extractedFilingSchema>;

export const newestFilingSchema = z.strictObject({ accession_number: z.string().regex(/^\d{10}-\d{2}-\d{6}$/), filing_date: z.iso.date() });

export const filingSectionsCompanySchema = z.strictObject({
  ticker: z.string().regex(/^[A-Z.]{1,6}$/),
  cik: z.string().regex(/^\d{10}$/),
  display_name: z.string().min(1).max(80),
  /** EDGAR's registered name (null when the submissions document could not be read). */
  edgar_name: z.string().max(200).nullable(),
  /** ok: EDGAR's list of filings was read this run; failed: it was not (the filings are the previous run's). */
  status: z.enum(["ok", "failed"]),
  error: z.string().max(300).nullable(),
  /** The newest filing of each form EDGAR lists (null: none in its recent list). */
  newest: z.strictObject({ "10-K": newestFilingSchema.nullable(), "10-Q": newestFilingSchema.nullable() }),
  /** Up to FILINGS_PER_FORM filings of each form, newest first within a form. */
  filings: z.array(extractedFilingSchema).max(FILINGS_PER_FORM * DELTA_FORMS.length),
});
export type FilingSectionsCompany = z.infer<typeof filingSectionsCompanySchema>;

/** The `sec-filing-sections` snapshot body: the cohort in catalog order. */
export const secFilingSectionsSnapshotSchema = z.strictObject({ companies: z.array(filingSectionsCompanySchema) });
export type SecFilingSectionsSnapshot = z.infer<typeof secFilingSectionsSnapshotSchema>;

/** The `sec-filing-sections` snapshot type: daily; a filing once read is kept, not read again. */
export const secFilingSectionsSnapshotType = {
  type: "sec-filing-sections",
  title: "Risk factors and forward-looking statements of the AI cohort's 10-K and 10-Q reports (SEC EDGAR)",
  cron: "47 5 * * *",
  cadence: "daily",
  slaSeconds: 36 * 60 * 60,
  schema: secFilingSectionsSnapshotSchema,
} satisfies SnapshotType<SecFilingSectionsSnapshot>;
