/**
 * The funding exposure verdict (GET /api/premium/funding/exposure): over the curated commitments, how concentrated
 * the recipients' silicon is, how circular each investor's commitments are (money that returns to the investor's
 * own accelerators), who receives the most, and which investors back the same recipients. Pure: registry in,
 * answer out. Amounts use each commitment's upper bound (undisclosed ones count 0 in sums, 1 in counts).
 */
import type { FundingCommitment } from "../../pipelines/contract/snapshots/funding-portfolio.ts";
import { round } from "./round.ts";

/** loop_classification thresholds on the share of an investor's commitments to its own silicon (by count). */
export const FULLY_CIRCULAR_PCT = 85;
export const PARTIAL_LOOP_PCT = 25;

export type LoopClass = "fully-circular" | "partial-loop" | "agnostic" | "insufficient-data";

export interface FundingExposure {
  total_commitments: number;
  total_amount_usd_max: number;
  silicon_concentration: { silicon_dependency: string; commitment_count: number; total_amount_usd_max: number; share_of_total_pct: number }[];
  circular_exposure: {
    investor: string;
    investor_silicon_brand: string | null;
    total_commitments: number;
    total_amount_usd_max: number;
    commitments_to_own_silicon: number;
    circular_ratio_by_count: number;
    circular_ratio_by_amount: number | null;
    loop_classification: LoopClass;
  }[];
  top_recipients: { recipient: string; inbound_commitments: number; inbound_amount_usd_max: number; investors: string[] }[];
  co_investor_pairs: { investor_a: string; investor_b: string; shared_recipients: string[] }[];
}

const pct = (part: number, whole: number) => round((part * 100) / whole, 2);

/** The class of an investor's loop: one commitment says too little; then by the share to its own silicon. */
export function loopClassOf(total: number, ratioByCount: number): LoopClass {
  if (total < 2) return "insufficient-data";
  if (ratioByCount >= FULLY_CIRCULAR_PCT) return "fully-circular";
  if (ratioByCount >= PARTIAL_LOOP_PCT) return "partial-loop";
  return "agnostic";
}

/** Judge the registry. */
export function fundingExposure(commitments: readonly FundingCommitment[], investorSilicon: Readonly<Record<string, string>>): FundingExposure {
  const max = (c: FundingCommitment) => c.amount_usd_max ?? 0;
  const total = commitments.reduce((a, c) => a + max(c), 0);

  const bySilicon = new Map<string, { count: number; amount: number }>();
  for (const c of commitments) {
    const s = bySilicon.get(c.silicon_dependency) ?? { count: 0, amount: 0 };
    s.count += 1;
    s.amount += max(c);
    bySilicon.set(c.silicon_dependency, s);
  }
  const silicon_concentration = [...bySilicon.entries()]
    .map(([silicon_dependency, s]) => ({ silicon_dependency, commitment_count: s.count, total_amount_usd_max: s.amount, share_of_total_pct: total === 0 ? pct(s.count, commitments.length) : pct(s.amount, total) }))
    .sort((a, b) => b.share_of_total_pct - a.share_of_total_pct || b.commitment_count - a.commitment_count || a.silicon_dependency.localeCompare(b.silicon_dependency));

  const byInvestor = new Map<string, FundingCommitment[]>();
  for (const c of commitments) byInvestor.set(c.investor, [...(byInvestor.get(c.investor) ?? []), c]);
  const circular_exposure = [...byInvestor.entries()]
    .map(([investor, list]) => {
      const brand = investorSilicon[investor] ?? null;
      const own = list.filter((c) => brand !== null && c.silicon_dependency === brand);
      const amount = list.reduce((a, c) => a + max(c), 0);
      const ownAmount = own.reduce((a, c) => a + max(c), 0);
      const byCount = pct(own.length, list.length);
      return {
        investor,
        investor_silicon_brand: brand,
        total_commitments: list.length,
        total_amount_usd_max: amount,
        commitments_to_own_silicon: own.length,
        circular_ratio_by_count: byCount,
        circular_ratio_by_amount: amount === 0 ? null : pct(ownAmount, amount),
        loop_classification: loopClassOf(list.length, byCount),
      };
    })
    .sort((a, b) => b.total_amount_usd_max - a.total_amount_usd_max || a.investor.localeCompare(b.investor));

  const byRecipient = new Map<string, FundingCommitment[]>();
  for (const c of commitments) byRecipient.set(c.recipient, [...(byRecipient.get(c.recipient) ?? []), c]);
  const top_recipients = [...byRecipient.entries()]
    .map(([recipient, list]) => ({ recipient, inbound_commitments: list.length, inbound_amount_usd_max: list.reduce((a, c) => a + max(c), 0), investors: [...new Set(list.map((c) => c.investor))].sort() }))
    .sort((a, b) => b.inbound_amount_usd_max - a.inbound_amount_usd_max || b.inbound_commitments - a.inbound_commitments || a.recipient.localeCompare(b.recipient));

  const investors = [...byInvestor.keys()].sort();
  const co_investor_pairs: FundingExposure["co_investor_pairs"] = [];
  for (let i = 0; i < investors.length; i++) {
    for (let j = i + 1; j < investors.length; j++) {
      const a = new Set(byInvestor.get(investors[i]!)!.map((c) => c.recipient));
      const shared = [...new Set(byInvestor.get(investors[j]!)!.map((c) => c.recipient))].filter((r) => a.has(r)).sort();
      if (shared.length > 0) co_investor_pairs.push({ investor_a: investors[i]!, investor_b: investors[j]!, shared_recipients: shared });
    }
  }
  return { total_commitments: commitments.length, total_amount_usd_max: total, silicon_concentration, circular_exposure, top_recipients, co_investor_pairs };
}
