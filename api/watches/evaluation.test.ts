import { describe, expect, it } from "vitest";
import { deltaPct, fireRule } from "./evaluation.ts";

const now = new Date("2026-11-23T12:00:00Z");
const future = "2027-02-21T12:00:00Z";

describe("fireRule", () => {
  it("an active, unexpired watch under its cap fires and stays active", () => {
    expect(fireRule({ status: "active", fire_count: 0, fire_cap: 100, expires_at: future }, now)).toEqual({ mayFire: true, statusAfterFire: "active" });
  });

  it("the fire that reaches the cap makes the watch capped; a capped one never fires", () => {
    expect(fireRule({ status: "active", fire_count: 2, fire_cap: 3, expires_at: future }, now)).toEqual({ mayFire: true, statusAfterFire: "capped" });
    expect(fireRule({ status: "capped", fire_count: 3, fire_cap: 3, expires_at: future }, now).mayFire).toBe(false);
    expect(fireRule({ status: "active", fire_count: 3, fire_cap: 3, expires_at: future }, now).mayFire).toBe(false);
  });

  it("expired and deleted watches never fire", () => {
    expect(fireRule({ status: "active", fire_count: 0, fire_cap: 100, expires_at: now }, now).mayFire).toBe(false);
    expect(fireRule({ status: "expired", fire_count: 0, fire_cap: 100, expires_at: future }, now).mayFire).toBe(false);
    expect(fireRule({ status: "deleted", fire_count: 0, fire_cap: 100, expires_at: new Date(future) }, now).mayFire).toBe(false);
  });
});

describe("deltaPct", () => {
  it("rounds to 2 decimals and is null from zero", () => {
    expect(deltaPct(3, 4)).toBe(33.33);
    expect(deltaPct(0, 4)).toBeNull();
  });
});
