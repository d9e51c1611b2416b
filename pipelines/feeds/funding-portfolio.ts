/**
 * Feed `funding-portfolio`: the curated AI funding registry. No upstream: it validates the hand-curated entries
 * (pipelines/catalog/funding-portfolio.ts) with the strict snapshot schema and emits them, newest first.
 */
import { FUNDING_COMMITMENTS, INVESTOR_SILICON } from "../catalog/funding-portfolio.ts";
import type { Feed } from "../lib/types.ts";
import { type FundingPortfolioSnapshot, fundingPortfolioSnapshotSchema, fundingPortfolioSnapshotType } from "../contract/snapshots/funding-portfolio.ts";

/** Validate the registry (unique ids, min ≤ max) and build the snapshot body. */
export function buildFundingPortfolio(commitments = FUNDING_COMMITMENTS, investorSilicon = INVESTOR_SILICON): FundingPortfolioSnapshot {
  const ids = new Set<string>();
  for (const c of commitments) {
    if (ids.has(c.id)) throw new Error(`funding-portfolio: id ${c.id} appears twice`);
    ids.add(c.id);
    if (c.amount_usd_min !== null && c.amount_usd_max !== null && c.amount_usd_min > c.amount_usd_max) throw new Error(`funding-portfolio: ${c.id} has amount_usd_min above amount_usd_max`);
  }
  const sorted = [...commitments].sort((a, b) => b.announced.localeCompare(a.announced) || a.id.localeCompare(b.id));
  return fundingPortfolioSnapshotSchema.parse({ lastUpdated: sorted.reduce((a, c) => (c.checked > a ? c.checked : a), "1970-01-01"), commitments: sorted, investor_silicon: investorSilicon });
}

/** The funding registry feed: daily, offline, curated. */
export const fundingPortfolioFeed = {
  ...fundingPortfolioSnapshotType,
  urls: () => [],
  async run() {
    const data = buildFundingPortfolio();
    return { data, rows: data.commitments.length, sources: [{ id: "catalog:funding-portfolio", ok: true, rows: data.commitments.length }] };
  },
} satisfies Feed<FundingPortfolioSnapshot>;
