import { describe, expect, it } from "vitest";
import { combineRateHeaders, createRateLimiter } from "./rate-limit.ts";

const daily = (remaining: number) => ({ "RateLimit-Limit": "5", "RateLimit-Remaining": String(remaining), "RateLimit-Reset": "19800", "RateLimit-Policy": "5;w=86400", "X-Other": "kept" });
const minute = (remaining: number) => ({ "RateLimit-Limit": "120", "RateLimit-Remaining": String(remaining), "RateLimit-Reset": "42", "RateLimit-Policy": "120;w=60" });

describe("combineRateHeaders()", () => {
  it("describes the limit with fewer calls left and names both policies", () => {
    expect(combineRateHeaders(daily(4), minute(118))).toEqual({ ...daily(4), "RateLimit-Policy": "5;w=86400, 120;w=60" });
    expect(combineRateHeaders(daily(4), minute(2))).toEqual({
      "RateLimit-Limit": "120",
      "RateLimit-Remaining": "2",
      "RateLimit-Reset": "42",
      "RateLimit-Policy": "5;w=86400, 120;w=60",
      "X-Other": "kept",
    });
  });

  it("keeps the first set alone when the second has no limit (per-IP limiting off)", () => {
    expect(combineRateHeaders(daily(3), {})).toEqual(daily(3));
  });
});

describe("createRateLimiter()", () => {
  it("peeks at a client's window without spending a call", async () => {
    const limiter = createRateLimiter(3)!;
    expect(await limiter.peek("10.0.0.1")).toBeNull();
    expect((await limiter.check("10.0.0.1")).headers["RateLimit-Remaining"]).toBe("2");
    expect((await limiter.peek("10.0.0.1"))!["RateLimit-Remaining"]).toBe("2");
    expect((await limiter.peek("10.0.0.1"))!["RateLimit-Remaining"]).toBe("2");
    expect((await limiter.check("10.0.0.1")).headers["RateLimit-Remaining"]).toBe("1");
  });
});
