import { describe, expect, it } from "vitest";
import type { SnapshotReader } from "../registry/types.ts";
import { DIGEST_SETTLE_MS, gatherInputs, pricingSettled } from "./schedule.ts";

/** A reader whose pricing entry last succeeded at `lastSuccess` (a run's start) and holds no dated file. */
const pricingAt = (lastSuccess: string | null): SnapshotReader => ({
  get: (type: string) => (type === "pricing" && lastSuccess !== null ? ({ meta: { lastSuccess }, body: {} } as never) : undefined),
  types: () => ["pricing"],
  dates: () => [],
  dated: async () => undefined,
});

describe("digest periods wait for the pricing run that crossed their end", () => {
  const midnight = "2026-11-24T00:00:00.000Z";
  const at = (iso: string) => new Date(iso);

  it("pricingSettled(): after a run started at or after the end, or once the wait is over", () => {
    // The run started at 23:50 may still be writing the day's file at 00:01.
    expect(pricingSettled(pricingAt("2026-11-23T23:50:00Z"), midnight, at("2026-11-24T00:01:00Z"))).toBe(false);
    expect(pricingSettled(pricingAt("2026-11-24T00:00:00Z"), midnight, at("2026-11-24T00:01:00Z"))).toBe(true);
    expect(pricingSettled(pricingAt("2026-11-23T23:50:00Z"), midnight, new Date(Date.parse(midnight) + DIGEST_SETTLE_MS))).toBe(true);
    expect(pricingSettled(pricingAt(null), midnight, at("2026-11-24T02:59:00Z"))).toBe(false);
  });

  it("gatherInputs() leaves an unsettled period out of the run (delivered at a later one), a settled one in", async () => {
    const early = await gatherInputs(pricingAt("2026-11-23T23:50:00Z"), undefined, at("2026-11-24T00:01:00Z"));
    expect(early.digests!.map((d) => d.cadence)).toEqual(["weekly"]);
    const later = await gatherInputs(pricingAt("2026-11-24T00:00:00Z"), undefined, at("2026-11-24T01:01:00Z"));
    expect(later.digests!.map((d) => [d.cadence, d.period.to])).toEqual([
      ["daily", midnight],
      ["weekly", "2026-11-23T00:00:00.000Z"],
    ]);
  });
});
