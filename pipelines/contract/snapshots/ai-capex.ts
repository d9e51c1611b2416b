/**
 * The `ai-capex` snapshot: the annual capital expenditure of the AI-companies cohort (pipelines/catalog/ai-companies.ts)
 * as each company reports it to the SEC in XBRL (data.sec.gov companyfacts), beside the curated references the
 * capex-cycle verdict compares it with: historical infrastructure capex cycles (peak capex as a share of GDP, each
 * figure with its source and the day it was checked) and US nominal GDP by year. GET
 * /api/premium/ai-capex-cycle-verdict reads it.
 */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** Annual figures kept per company, newest fiscal year first. */
export const CAPEX_YEARS_KEPT = 6;

/** The XBRL concepts read as capital expenditure, in order of preference (a company uses one of them for a given year). */
export const CAPEX_CONCEPTS = ["PaymentsToAcquirePropertyPlantAndEquipment", "PaymentsToAcquireProductiveAssets"] as const;

const source = {
  source_url: z.url({ protocol: /^https$/ }),
  source_name: z.string().min(1).max(200),
  /** When the figure was last checked against its source. */
  checked: z.iso.date(),
};

export const capexYearSchema = z.strictObject({
  /** The calendar year holding the middle of the fiscal period (a fiscal year ending in January counts for the year before). */
  fiscal_year: z.int().min(1990).max(2100),
  period_start: z.iso.date(),
  period_end: z.iso.date(),
  /** Capital expenditure over the period, in whole US dollars, as filed. */
  capex_usd: z.number().int().nonnegative(),
  /** The XBRL concept the figure was filed under (us-gaap). */
  concept: z.enum(CAPEX_CONCEPTS),
  form: z.string().min(1).max(20),
  /** The filing that states the figure last (a restated figure replaces the earlier one). */
  accession_number: z.string().regex(/^\d{10}-\d{2}-\d{6}$/),
  filed: z.iso.date(),
});
export type CapexYear = z.infer<typeof capexYearSchema>;

export const capexCompanySchema = z.strictObject({
  ticker: z.string().regex(/^[A-Z.]{1,6}$/),
  cik: z.string().regex(/^\d{10}$/),
  display_name: z.string().min(1).max(80),
  /** ok: read this run (annual may still be empty when no USD figure under a known concept is filed); failed: the fetch or the document failed, annual is the previous run's. */
  status: z.enum(["ok", "failed"]),
  error: z.string().max(300).optional(),
  annual: z.array(capexYearSchema).max(CAPEX_YEARS_KEPT),
});
export type CapexCompany = z.infer<typeof capexCompanySchema>;

export const capexCycleSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{3,60}$/),
  name: z.string().min(1).max(120),
  /** Where the build-out happened (the share is of that economy's GDP). */
  economy: z.string().min(2).max(40),
  /** The peak year or period as the source states it. */
  peak_period: z.string().min(1).max(60),
  /** Peak annual capital spending of the build-out as a percentage of GDP. */
  peak_capex_pct_gdp: z.number().positive().max(100),
  /** What the source's figure measures, in a sentence. */
  measure: z.string().min(1).max(300),
  ...source,
  /** Fall of the cycle's market proxy from peak to trough, in percent (null when no sourced figure). */
  peak_to_trough_drawdown_pct: z.number().positive().max(100).nullable(),
  drawdown_measure: z.string().max(300).nullable(),
  drawdown_source_url: z.url({ protocol: /^https$/ }).nullable(),
  drawdown_source_name: z.string().max(200).nullable(),
});
export type CapexCycle = z.infer<typeof capexCycleSchema>;

export const gdpYearSchema = z.strictObject({
  year: z.int().min(1900).max(2100),
  /** US nominal GDP for the calendar year, billions of current dollars. */
  gdp_usd_b: z.number().positive(),
  ...source,
});
export type GdpYear = z.infer<typeof gdpYearSchema>;

/** The `ai-capex` snapshot body: the cohort in catalog order, the curated cycles and the GDP references. */
export const aiCapexSnapshotSchema = z.strictObject({
  companies: z.array(capexCompanySchema),
  cycles: z.array(capexCycleSchema),
  us_gdp: z.array(gdpYearSchema),
});
export type AiCapexSnapshot = z.infer<typeof aiCapexSnapshotSchema>;

/** The `ai-capex` snapshot type: daily (annual figures change when a 10-K is filed); stale after 3 days. */
export const aiCapexSnapshotType = {
  type: "ai-capex",
  title: "Annual capital expenditure of the AI-companies cohort (SEC XBRL) and historical capex cycles (curated)",
  cron: "41 5 * * *",
  cadence: "daily",
  slaSeconds: 3 * 24 * 60 * 60,
  schema: aiCapexSnapshotSchema,
} satisfies SnapshotType<AiCapexSnapshot>;
