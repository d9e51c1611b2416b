import { describe, expect, it } from "vitest";
import { coverageOf, SETTLEMENT_SLA_SECONDS } from "./premium-x402-index.ts";

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
