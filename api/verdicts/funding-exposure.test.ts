import { describe, expect, it } from "vitest";
import type { FundingCommitment } from "../../pipelines/contract/snapshots/funding-portfolio.ts";
import { fundingExposure, loopClassOf } from "./funding-exposure.ts";

let n = 0;
const c = (investor: string, recipient: string, max: number | null, silicon: FundingCommitment["silicon_dependency"]): FundingCommitment => ({
  id: `c-${++n}`,
  investor,
  investor_ticker: null,
  recipient,
  amount_usd_min: max,
  amount_usd_max: max,
  amount_note: "",
  announced: "2025-01-01",
  silicon_dependency: silicon,
  source_url: "https://example.com/source",
  source_name: "Example",
  checked: "2026-11-25",
});

describe("loopClassOf()", () => {
  it("needs two commitments, then bands at 85 % and 25 %", () => {
    expect(loopClassOf(1, 100)).toBe("insufficient-data");
    expect(loopClassOf(2, 85)).toBe("fully-circular");
    expect(loopClassOf(2, 84.99)).toBe("partial-loop");
    expect(loopClassOf(4, 25)).toBe("partial-loop");
    expect(loopClassOf(4, 24.99)).toBe("agnostic");
    expect(loopClassOf(3, 0)).toBe("agnostic");
  });
});

describe("fundingExposure()", () => {
  const silicon = { Chipco: "nvidia-gpu", Cloudco: "aws-trainium" };
  const registry = [
    c("Chipco", "LabA", 100, "nvidia-gpu"),
    c("Chipco", "LabB", 50, "nvidia-gpu"),
    c("Chipco", "LabC", null, "unknown"),
    c("Cloudco", "LabA", 40, "aws-trainium"),
    c("Cloudco", "LabB", 10, "nvidia-gpu"),
    c("Softco", "LabA", 0, "unknown"),
  ];
  const v = fundingExposure(registry, silicon);

  it("shares the silicon by the upper bound of the amounts", () => {
    expect(v.total_commitments).toBe(6);
    expect(v.total_amount_usd_max).toBe(200);
    expect(v.silicon_concentration).toEqual([
      { silicon_dependency: "nvidia-gpu", commitment_count: 3, total_amount_usd_max: 160, share_of_total_pct: 80 },
      { silicon_dependency: "aws-trainium", commitment_count: 1, total_amount_usd_max: 40, share_of_total_pct: 20 },
      { silicon_dependency: "unknown", commitment_count: 2, total_amount_usd_max: 0, share_of_total_pct: 0 },
    ]);
  });

  it("measures each investor's loop back to its own silicon by count and by amount", () => {
    const chip = v.circular_exposure.find((e) => e.investor === "Chipco")!;
    expect(chip).toMatchObject({ investor_silicon_brand: "nvidia-gpu", total_commitments: 3, commitments_to_own_silicon: 2, circular_ratio_by_count: 66.67, circular_ratio_by_amount: 100, loop_classification: "partial-loop" });
    const cloud = v.circular_exposure.find((e) => e.investor === "Cloudco")!;
    expect(cloud).toMatchObject({ commitments_to_own_silicon: 1, circular_ratio_by_count: 50, circular_ratio_by_amount: 80, loop_classification: "partial-loop" });
    const soft = v.circular_exposure.find((e) => e.investor === "Softco")!;
    expect(soft).toMatchObject({ investor_silicon_brand: null, commitments_to_own_silicon: 0, circular_ratio_by_amount: null, loop_classification: "insufficient-data" });
    expect(v.circular_exposure.map((e) => e.investor)).toEqual(["Chipco", "Cloudco", "Softco"]);
  });

  it("ranks recipients by inbound amount and pairs investors that back the same recipient", () => {
    expect(v.top_recipients[0]).toEqual({ recipient: "LabA", inbound_commitments: 3, inbound_amount_usd_max: 140, investors: ["Chipco", "Cloudco", "Softco"] });
    expect(v.co_investor_pairs).toEqual([
      { investor_a: "Chipco", investor_b: "Cloudco", shared_recipients: ["LabA", "LabB"] },
      { investor_a: "Chipco", investor_b: "Softco", shared_recipients: ["LabA"] },
      { investor_a: "Cloudco", investor_b: "Softco", shared_recipients: ["LabA"] },
    ]);
  });

  it("falls back to counts when no amount is disclosed, and is empty for an empty registry", () => {
    const counts = fundingExposure([c("X", "L", null, "google-tpu"), c("Y", "L", null, "unknown")], {});
    expect(counts.silicon_concentration.map((s) => s.share_of_total_pct)).toEqual([50, 50]);
    expect(fundingExposure([], {})).toEqual({ total_commitments: 0, total_amount_usd_max: 0, silicon_concentration: [], circular_exposure: [], top_recipients: [], co_investor_pairs: [] });
  });
});
