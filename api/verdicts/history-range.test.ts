import { describe, expect, it } from "vitest";
import { ApiError } from "../registry/types.ts";
import { addDays, daysOf, resolveRange } from "./history-range.ts";

const now = new Date("2026-03-01T23:59:00Z");

describe("resolveRange()", () => {
  it("defaults to 30 days ending today (UTC)", () => {
    expect(resolveRange({}, now)).toEqual({ from: "2026-01-31", to: "2026-03-01", days: 30 });
    expect(resolveRange({ to: "2026-01-10" }, now)).toEqual({ from: "2025-12-12", to: "2026-01-10", days: 30 });
    expect(resolveRange({ from: "2026-02-27" }, now)).toEqual({ from: "2026-02-27", to: "2026-03-01", days: 3 });
  });

  it("accepts exactly 90 days and refuses 91 with range_too_long", () => {
    expect(resolveRange({ from: "2026-01-01", to: "2026-03-31" }, now).days).toBe(90);
    const err = (() => {
      try {
        resolveRange({ from: "2026-01-01", to: "2026-04-01" }, now);
      } catch (e) {
        return e;
      }
    })() as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.code]).toEqual([400, "range_too_long"]);
    expect(err.message).toMatch(/91 days.*at most 90/);
  });

  it("refuses a range that ends before it starts", () => {
    expect(() => resolveRange({ from: "2026-02-02", to: "2026-02-01" }, now)).toThrow(/after/);
  });

  it("daysOf() and addDays() cross month and leap-year ends", () => {
    expect(daysOf({ from: "2028-02-28", to: "2028-03-01", days: 3 })).toEqual(["2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});
