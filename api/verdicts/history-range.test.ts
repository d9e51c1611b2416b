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
    expect(resolveRange({ from: "2025-12-02", to: "2026-03-01" }, now).days).toBe(90);
    const err = (() => {
      try {
        resolveRange({ from: "2025-12-01", to: "2026-03-01" }, now);
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

  it("refuses a range that ends after today (UTC) with invalid_range, and takes today itself", () => {
    expect(resolveRange({ to: "2026-03-01" }, now).to).toBe("2026-03-01");
    for (const query of [{ to: "2026-03-02" }, { from: "2026-03-02", to: "2026-03-05" }, { from: "2026-02-20", to: "2026-12-31" }]) {
      let caught: unknown;
      try {
        resolveRange(query, now);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ApiError);
      expect([(caught as ApiError).status, (caught as ApiError).code]).toEqual([400, "invalid_range"]);
      expect((caught as ApiError).message).toMatch(/after today \(2026-03-01, UTC\)/);
    }
  });

  it("daysOf() and addDays() cross month and leap-year ends", () => {
    expect(daysOf({ from: "2028-02-28", to: "2028-03-01", days: 3 })).toEqual(["2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});
