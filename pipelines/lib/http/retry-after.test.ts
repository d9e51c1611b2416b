import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retry-after.ts";

describe("parseRetryAfter()", () => {
  const now = Date.parse("2026-03-01T00:00:00Z");

  it("parseRetryAfter() reads delay seconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 7 ", now)).toBe(7000);
  });

  it("parseRetryAfter() reads an HTTP date relative to now, never negative", () => {
    expect(parseRetryAfter("Sun, 01 Mar 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sat, 28 Feb 2026 23:00:00 GMT", now)).toBe(0);
  });

  it("parseRetryAfter() ignores a missing or unreadable value", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
