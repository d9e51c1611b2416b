import { describe, expect, it } from "vitest";
import { FUNDING_COMMITMENTS, INVESTOR_SILICON } from "../catalog/funding-portfolio.ts";
import { buildFundingPortfolio } from "./funding-portfolio.ts";

describe("funding-portfolio feed", () => {
  it("emits the curated registry newest first, every entry sourced over https and checked", () => {
    const data = buildFundingPortfolio();
    expect(data.commitments).toHaveLength(FUNDING_COMMITMENTS.length);
    expect(data.commitments.map((c) => c.announced)).toEqual([...data.commitments.map((c) => c.announced)].sort().reverse());
    for (const c of data.commitments) expect(c.source_url.startsWith("https://")).toBe(true);
    expect(data.investor_silicon).toEqual(INVESTOR_SILICON);
    expect(data.lastUpdated).toBe("2026-11-25");
  });

  it("refuses a duplicate id and a range whose minimum is above its maximum", () => {
    const first = FUNDING_COMMITMENTS[0]!;
    expect(() => buildFundingPortfolio([first, first])).toThrow(/appears twice/);
    expect(() => buildFundingPortfolio([{ ...first, amount_usd_min: 2, amount_usd_max: 1 }])).toThrow(/above/);
  });
});
