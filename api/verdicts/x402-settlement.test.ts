import { describe, expect, it } from "vitest";
import { changePct, concentrationOf, herfindahl, momentumOf, settlementVerdict, type PublisherTotals } from "./x402-settlement.ts";

const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));
const p = (domain: string, volume: number, count: number): PublisherTotals => ({ domain, volumeUnits: usdc(volume), count });

describe("changePct()", () => {
  it("is the one-decimal percent change, null from zero", () => {
    expect(changePct(100n, 150n)).toBe(50);
    expect(changePct(300n, 200n)).toBe(-33.3);
    expect(changePct(0n, 5n)).toBeNull();
    expect(changePct(7n, 7n)).toBe(0);
  });
});

describe("herfindahl() and concentrationOf()", () => {
  it("sums squared percent shares: one publisher is 10,000, four equal ones 2,500", () => {
    expect(herfindahl([usdc(3)])).toBe(10_000);
    expect(herfindahl([1n, 1n, 1n, 1n])).toBe(2500);
    expect(herfindahl([1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n])).toBe(1000);
    expect(herfindahl([])).toBeNull();
    expect(herfindahl([0n, 0n])).toBeNull();
  });

  it("bands by the merger guidelines: above 2,500 concentrated, from 1,500 moderate, below diversified", () => {
    expect(concentrationOf(2501)).toBe("concentrated");
    expect(concentrationOf(2500)).toBe("moderate");
    expect(concentrationOf(1500)).toBe("moderate");
    expect(concentrationOf(1499)).toBe("diversified");
  });
});

describe("momentumOf()", () => {
  const base = { priorWindowCovered: true, priorCount: 20, currentCount: 20 };
  it("expands from +20 %, contracts from −20 %, else steady", () => {
    expect(momentumOf({ ...base, volumeChangePct: 20 })).toBe("expanding");
    expect(momentumOf({ ...base, volumeChangePct: 19.9 })).toBe("steady");
    expect(momentumOf({ ...base, volumeChangePct: -19.9 })).toBe("steady");
    expect(momentumOf({ ...base, volumeChangePct: -20 })).toBe("contracting");
    expect(momentumOf({ ...base, currentCount: 0, volumeChangePct: -100 })).toBe("contracting");
  });

  it("is nascent without an indexed prior window, with an empty one, or with too few settlements", () => {
    expect(momentumOf({ ...base, priorWindowCovered: false, volumeChangePct: 80 })).toBe("nascent");
    expect(momentumOf({ ...base, priorCount: 0, volumeChangePct: null })).toBe("nascent");
    expect(momentumOf({ priorWindowCovered: true, priorCount: 4, currentCount: 5, volumeChangePct: 300 })).toBe("nascent");
    expect(momentumOf({ priorWindowCovered: true, priorCount: 5, currentCount: 5, volumeChangePct: 300 })).toBe("expanding");
  });
});

describe("settlementVerdict()", () => {
  it("ranks publishers by volume, shares them, and judges the ecosystem against the prior window", () => {
    const v = settlementVerdict({
      window: "7d",
      current: [p("b.example", 30, 6), p("a.example", 60, 10), p("c.example", 10, 4)],
      prior: [p("a.example", 50, 8), p("b.example", 30, 5)],
      priorWindowCovered: true,
    });
    expect(v.ranking.map((r) => [r.rank, r.domain, r.volume_usdc, r.share_pct])).toEqual([
      [1, "a.example", "60.00", 60],
      [2, "b.example", "30.00", 30],
      [3, "c.example", "10.00", 10],
    ]);
    expect(v.ecosystem).toEqual({
      volume_usdc: "100.00",
      count: 20,
      unique_publishers: 3,
      volume_change_pct: 25,
      count_change_pct: 53.8,
      prior_window_empty: false,
      top_publisher_share_pct: 60,
      hhi: 4600,
    });
    expect(v.verdict).toEqual({ momentum: "expanding", concentration: "concentrated", leading_publisher: "a.example" });
  });

  it("keeps amounts exact in base units and breaks ties by count, then domain", () => {
    const v = settlementVerdict({
      window: "24h",
      current: [
        { domain: "z.example", volumeUnits: 1_000_001n, count: 2 },
        { domain: "y.example", volumeUnits: 1_000_001n, count: 3 },
        { domain: "x.example", volumeUnits: 1_000_001n, count: 3 },
      ],
      prior: [],
      priorWindowCovered: true,
    });
    expect(v.ranking.map((r) => r.domain)).toEqual(["x.example", "y.example", "z.example"]);
    expect(v.ecosystem.volume_usdc).toBe("3.000003");
    expect(v.ranking[0]!.volume_usdc).toBe("1.000001");
    expect(v.ecosystem).toMatchObject({ prior_window_empty: true, volume_change_pct: null, count_change_pct: null });
    expect(v.verdict.momentum).toBe("nascent");
    expect(v.verdict.concentration).toBe("concentrated");
  });

  it("answers an empty window with no concentration, no leader and an empty ranking", () => {
    const v = settlementVerdict({ window: "30d", current: [p("a.example", 0, 0)], prior: [], priorWindowCovered: false });
    expect(v.verdict).toEqual({ momentum: "nascent", concentration: null, leading_publisher: null });
    expect(v.ecosystem).toMatchObject({ volume_usdc: "0.00", count: 0, unique_publishers: 0, hhi: null, top_publisher_share_pct: null });
    expect(v.ranking).toEqual([]);
  });

  it("reads a spread of many publishers as diversified and a fall as contracting", () => {
    const current = Array.from({ length: 10 }, (_, i) => p(`p${i}.example`, 10, 2));
    const prior = Array.from({ length: 10 }, (_, i) => p(`p${i}.example`, 20, 2));
    const v = settlementVerdict({ window: "7d", current, prior, priorWindowCovered: true });
    expect(v.ecosystem.hhi).toBe(1000);
    expect(v.verdict).toMatchObject({ concentration: "diversified", momentum: "contracting" });
    expect(v.ecosystem.volume_change_pct).toBe(-50);
  });

  it("lists at most 100 publishers while counting all of them", () => {
    const current = Array.from({ length: 120 }, (_, i) => p(`p${String(i).padStart(3, "0")}.example`, 1 + i, 1));
    const v = settlementVerdict({ window: "7d", current, prior: [], priorWindowCovered: true });
    expect(v.ranking).toHaveLength(100);
    expect(v.ecosystem.unique_publishers).toBe(120);
    expect(v.ranking[0]!.domain).toBe("p119.example");
  });
});
