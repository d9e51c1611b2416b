import { describe, expect, it } from "vitest";
import { BREAKER_THRESHOLDS, Breakers } from "./breakers.ts";

describe("Breakers", () => {
  it("admit() opens the identical-request breaker after 5 identical requests within 10 s and closes when the window passes", () => {
    let t = 1_000_000;
    const b = new Breakers({ now: () => t });
    for (let i = 0; i < BREAKER_THRESHOLDS.identical_request.max; i++) expect(b.admit("tok", "h1").open).toBe(false);
    const open = b.admit("tok", "h1");
    expect(open).toMatchObject({ open: true, breaker: "identical_request", retryAfterSeconds: 10 });
    expect(b.admit("tok", "h2").open).toBe(false); // another request is fine
    expect(b.admit("tok2", "h1").open).toBe(false); // another token is fine
    t += 4_000;
    expect(b.admit("tok", "h1")).toMatchObject({ open: true, retryAfterSeconds: 6 });
    t += 6_001;
    expect(b.admit("tok", "h1").open).toBe(false);
  });

  it("admit() opens the burn-rate breaker after 60 charged calls within a minute", () => {
    let t = 0;
    const b = new Breakers({ now: () => t });
    for (let i = 0; i < BREAKER_THRESHOLDS.burn_rate.max; i++) {
      expect(b.admit("tok", `h${i}`).open).toBe(false);
      b.recordCharge("tok");
      t += 500;
    }
    expect(b.admit("tok", "fresh")).toMatchObject({ open: true, breaker: "burn_rate", retryAfterSeconds: 30 });
    t = 60_001;
    expect(b.admit("tok", "fresh").open).toBe(false);
  });
});
