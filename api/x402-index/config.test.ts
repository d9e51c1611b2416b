import { describe, expect, it } from "vitest";
import { loadX402IndexConfig } from "./config.ts";

describe("loadX402IndexConfig()", () => {
  it("defaults to on, 12 confirmations, a pass every 30 s, forward-only", () => {
    expect(loadX402IndexConfig({})).toEqual({ mode: "on", confirmations: 12, intervalMs: 30_000, batchBlocks: 10_000, startBlock: undefined });
  });

  it("reads every setting, and off", () => {
    const c = loadX402IndexConfig({ X402_INDEX: "OFF", X402_INDEX_CONFIRMATIONS: "0", X402_INDEX_INTERVAL_SECONDS: "2", X402_INDEX_BATCH_BLOCKS: "500", X402_INDEX_START_BLOCK: "123456" });
    expect(c).toEqual({ mode: "off", confirmations: 0, intervalMs: 2000, batchBlocks: 500, startBlock: 123456n });
  });

  it("reads read", () => {
    expect(loadX402IndexConfig({ X402_INDEX: "read" }).mode).toBe("read");
  });

  it("refuses a value it cannot use with one line naming it", () => {
    expect(() => loadX402IndexConfig({ X402_INDEX: "maybe" })).toThrow(/X402_INDEX/);
    expect(() => loadX402IndexConfig({ X402_INDEX_CONFIRMATIONS: "-1" })).toThrow(/X402_INDEX_CONFIRMATIONS/);
    expect(() => loadX402IndexConfig({ X402_INDEX_START_BLOCK: "12x" })).toThrow(/X402_INDEX_START_BLOCK/);
  });
});
