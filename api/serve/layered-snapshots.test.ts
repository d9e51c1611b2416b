import { describe, expect, it } from "vitest";
import type { SnapshotMeta } from "../registry/types.ts";
import { newer } from "./layered-snapshots.ts";

const now = new Date("2026-11-28T12:00:00Z");
const entry = (lastSuccess: string | null, date = "2026-11-28"): SnapshotMeta => ({ lastSuccess, date }) as unknown as SnapshotMeta;

describe("newer()", () => {
  it("prefers the later last success, then the later date", () => {
    expect(newer(entry("2026-11-28T11:00:00Z"), entry("2026-11-28T10:00:00Z"), now)).toBe(true);
    expect(newer(entry("2026-11-28T10:00:00Z"), entry("2026-11-28T11:00:00Z"), now)).toBe(false);
    expect(newer(entry("2026-11-28T10:00:00Z", "2026-11-28"), entry("2026-11-28T10:00:00Z", "2026-11-27"), now)).toBe(true);
  });

  it("does not let an entry stamped ahead of the clock hide this server's own newer run", () => {
    const fromFastClock = entry("2026-11-28T15:00:00Z");
    const ownRun = entry("2026-11-28T11:58:00Z");
    expect(newer(ownRun, fromFastClock, now)).toBe(true);
    expect(newer(fromFastClock, ownRun, now)).toBe(false);
    // A minute ahead is within the clocks' tolerance and still counts.
    expect(newer(entry("2026-11-28T12:01:00Z"), ownRun, now)).toBe(true);
  });
});
