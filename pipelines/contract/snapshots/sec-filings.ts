/**
 * The `sec-filings` snapshot: a fixed cohort of AI-related public companies (pipelines/catalog/ai-companies.ts)
 * with their latest filings as SEC EDGAR lists them (data.sec.gov submissions). The cohort's facts travel in the
 * body, so a reader needs nothing else to answer for a ticker.
 */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** Where the cohort's identities come from, and when they were checked. */
export const AI_COMPANIES_SOURCE = "SEC EDGAR company_tickers.json (tickers and CIKs), cohort chosen by hand on 2026-11-25";

/** What part of the AI build-out a cohort company is in. */
export const AI_COMPANY_CATEGORIES = ["accelerators", "foundry", "chip-ip", "networking-silicon", "memory", "ai-servers", "hyperscaler", "cloud-database", "ai-platform", "devices"] as const;

/** Filings kept per company, newest first. */
export const FILINGS_KEPT = 40;

export const secFilingSchema = z.strictObject({
  accession_number: z.string().regex(/^\d{10}-\d{2}-\d{6}$/),
  form: z.string().min(1).max(40),
  filing_date: z.iso.date(),
  report_date: z.iso.date().nullable(),
  primary_document: z.string().min(1).max(200),
  /** https://www.sec.gov/Archives/edgar/data/<cik>/<accession without dashes>/<primary document> */
  primary_doc_url: z.url({ protocol: /^https$/ }),
  /** EDGAR's description of the primary document, sanitized (null when empty). */
  description: z.string().max(200).nullable(),
});
export type SecFiling = z.infer<typeof secFilingSchema>;

export const aiCompanySchema = z.strictObject({
  ticker: z.string().regex(/^[A-Z.]{1,6}$/),
  /** Ten digits, zero-padded, as EDGAR writes it. */
  cik: z.string().regex(/^\d{10}$/),
  display_name: z.string().min(1).max(80),
  category: z.enum(AI_COMPANY_CATEGORIES),
  ai_angle: z.string().min(1).max(300),
  exchange: z.string().min(1).max(20),
  /** Names news items are matched on (case-insensitive, whole words). */
  aliases: z.array(z.string().min(2).max(60)).min(1).max(10),
  /** EDGAR's registered name, from the submissions document (null when its fetch failed). */
  edgar_name: z.string().max(200).nullable(),
  /** ok: read this run; failed: the fetch or the document failed (filings empty). */
  status: z.enum(["ok", "failed"]),
  error: z.string().max(300).optional(),
  filings: z.array(secFilingSchema).max(FILINGS_KEPT),
});
export type AiCompany = z.infer<typeof aiCompanySchema>;

/** The `sec-filings` snapshot body: the cohort in catalog order. */
export const secFilingsSnapshotSchema = z.strictObject({ companies: z.array(aiCompanySchema) });
export type SecFilingsSnapshot = z.infer<typeof secFilingsSnapshotSchema>;

/** The `sec-filings` snapshot type: every 4 hours (the premium read's freshness SLA is 9 hours). */
export const secFilingsSnapshotType = {
  type: "sec-filings",
  title: "Filings of a cohort of AI-related public companies (SEC EDGAR)",
  cron: "23 */4 * * *",
  cadence: "every 4 hours",
  slaSeconds: 9 * 60 * 60,
  schema: secFilingsSnapshotSchema,
} satisfies SnapshotType<SecFilingsSnapshot>;
