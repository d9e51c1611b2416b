/**
 * The `funding-portfolio` snapshot: a hand-curated registry of AI funding commitments — who committed how much to
 * which AI lab, when, on whose silicon the recipient's compute runs — each entry with its source and the day it
 * was checked. GET /api/funding/portfolio serves it; the funding exposure verdict reads it.
 */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** The accelerator families a recipient's compute can depend on (unknown when no source states it). */
export const SILICON_DEPENDENCIES = ["nvidia-gpu", "google-tpu", "aws-trainium", "amd-instinct", "azure-maia", "unknown"] as const;

export const fundingCommitmentSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{3,80}$/),
  investor: z.string().min(1).max(80),
  /** The investor's ticker when it is in the AI-companies cohort (links GET /api/premium/ai-companies/{ticker}). */
  investor_ticker: z.string().regex(/^[A-Z.]{1,6}$/).nullable(),
  recipient: z.string().min(1).max(80),
  /** USD range of the commitment as announced or reported; null when not disclosed. */
  amount_usd_min: z.number().nonnegative().nullable(),
  amount_usd_max: z.number().nonnegative().nullable(),
  amount_note: z.string().max(300),
  announced: z.iso.date(),
  /** The silicon the recipient's compute under this deal runs on, as the source states it. */
  silicon_dependency: z.enum(SILICON_DEPENDENCIES),
  source_url: z.url({ protocol: /^https$/ }),
  source_name: z.string().min(1).max(80),
  /** When the entry was last checked against its source. */
  checked: z.iso.date(),
});
export type FundingCommitment = z.infer<typeof fundingCommitmentSchema>;

/** The `funding-portfolio` snapshot body. */
export const fundingPortfolioSnapshotSchema = z.strictObject({
  lastUpdated: z.iso.date(),
  commitments: z.array(fundingCommitmentSchema),
  /** Each investor's own silicon brand, when it has one (a commitment to a recipient on it is circular). */
  investor_silicon: z.record(z.string(), z.enum(SILICON_DEPENDENCIES)),
});
export type FundingPortfolioSnapshot = z.infer<typeof fundingPortfolioSnapshotSchema>;

/** The `funding-portfolio` snapshot type: curated, emitted daily. */
export const fundingPortfolioSnapshotType = {
  type: "funding-portfolio",
  title: "AI funding commitments (curated registry)",
  cron: "7 3 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: fundingPortfolioSnapshotSchema,
} satisfies SnapshotType<FundingPortfolioSnapshot>;
