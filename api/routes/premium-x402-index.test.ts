import { describe, expect, it } from "vitest";
import { coverageOf, premiumX402IndexRoutes, SETTLEMENT_SLA_SECONDS } from "./premium-x402-index.ts";

const base = { chainId: 8453, token: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913" };
const status = (blockTime: Date | null) => ({ block: 42n, blockTime, firstBlock: 7n, firstBlockTime: new Date("2026-11-01T00:00:00Z"), updatedAt: new Date() });

describe("coverageOf()", () => {
  const now = new Date("2026-11-25T12:00:00Z");

  it("is fresh while the newest indexed block is at most 10 minutes old, stale past it", () => {
    const edge = new Date(now.getTime() - SETTLEMENT_SLA_SECONDS * 1000);
    expect(coverageOf(base, status(edge), now)).toEqual({
      network: "eip155:8453",
      test_chain: false,
      token: base.token,
      indexed_from: "2026-11-01T00:00:00.000Z",
      indexed_to: edge.toISOString(),
      indexed_to_block: "42",
      stale: false,
    });
    expect(coverageOf(base, status(new Date(edge.getTime() - 1000)), now).stale).toBe(true);
  });

  it("is stale and empty before the first pass, and flags any chain but Base mainnet as a test chain", () => {
    expect(coverageOf(base, null, now)).toMatchObject({ indexed_from: null, indexed_to: null, indexed_to_block: null, stale: true });
    expect(coverageOf(base, status(null), now).stale).toBe(true);
    expect(coverageOf({ ...base, chainId: 31337 }, status(now), now)).toMatchObject({ network: "eip155:31337", test_chain: true });
  });
});

describe("the settlement routes' no-charge rules", () => {
  const route = (path: string) => premiumX402IndexRoutes.find((r) => r.path === path)!;
  const coverage = (over: Partial<ReturnType<typeof coverageOf>> = {}) => ({ ...coverageOf(base, status(new Date("2026-11-25T12:00:00Z")), new Date("2026-11-25T12:00:00Z")), ...over });
  const verdictBody = (count: number, priorEmpty: boolean, cov = coverage()) => ({ ecosystem: { count, prior_window_empty: priorEmpty }, coverage: cov }) as never;

  it("verdict: not_indexed before the first pass, index_stale past the SLA, no_settlements when both windows are empty, else charged", () => {
    const check = route("/api/premium/x402-settlement-verdict").noCharge!.check;
    expect(check(verdictBody(0, true, coverage({ indexed_to: null, stale: true })))).toBe("not_indexed");
    expect(check(verdictBody(5, false, coverage({ stale: true })))).toBe("index_stale");
    expect(check(verdictBody(0, true))).toBe("no_settlements");
    expect(check(verdictBody(0, false))).toBeNull();
    expect(check(verdictBody(3, true))).toBeNull();
  });

  it("series: not_served for hours first, then not_indexed and index_stale; publisher: not_indexed and index_stale", () => {
    const series = route("/api/premium/x402-index/series").noCharge!.check;
    expect(series({ granularity: "hour", coverage: coverage({ indexed_to: null }) } as never)).toBe("not_served");
    expect(series({ granularity: "day", coverage: coverage({ indexed_to: null }) } as never)).toBe("not_indexed");
    expect(series({ granularity: "day", coverage: coverage({ stale: true }) } as never)).toBe("index_stale");
    expect(series({ granularity: "day", coverage: coverage() } as never)).toBeNull();
    const publisher = route("/api/premium/x402-index/publisher/:domain").noCharge!.check;
    expect(publisher({ coverage: coverage({ indexed_to: null }) } as never)).toBe("not_indexed");
    expect(publisher({ coverage: coverage({ stale: true }) } as never)).toBe("index_stale");
    expect(publisher({ coverage: coverage() } as never)).toBeNull();
  });
});
