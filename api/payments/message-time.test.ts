import { describe, expect, it } from "vitest";
import { zonedInstant } from "./message-time.ts";

describe("zonedInstant()", () => {
  it("reads ISO 8601 times that carry their zone", () => {
    expect(zonedInstant("2026-11-23T12:00:00Z")?.toISOString()).toBe("2026-11-23T12:00:00.000Z");
    expect(zonedInstant("2026-11-23T12:00:00.123Z")?.toISOString()).toBe("2026-11-23T12:00:00.123Z");
    expect(zonedInstant("2026-11-23T17:30:00+05:30")?.toISOString()).toBe("2026-11-23T12:00:00.000Z");
    expect(zonedInstant("2026-11-23T04:00-08:00")?.toISOString()).toBe("2026-11-23T12:00:00.000Z");
  });

  it("refuses a time without a zone (the host's zone would decide its instant), dates alone and impossible times", () => {
    for (const text of ["2026-11-23T12:00:00", "2026-11-23", "2026-11-23 12:00:00Z", "2026-02-30T12:00:00Z", "2026-11-23T25:00:00Z", "yesterday", "2026-11-23T12:00:00Z junk"]) {
      expect(zonedInstant(text), text).toBeNull();
    }
  });
});
