import { describe, expect, it } from "vitest";
import { backoffCeilingMs, MAX_ATTEMPTS, nextRetryDelayMs, RETRY_CAP_MS, RETRY_FLOOR_MS, RETRY_WINDOW_MS } from "./retry-schedule.ts";

describe("retry schedule", () => {
  it("doubles the ceiling from 30 s up to 4 h", () => {
    expect([1, 2, 3, 4].map(backoffCeilingMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffCeilingMs(10)).toBe(RETRY_CAP_MS);
    expect(backoffCeilingMs(500)).toBe(RETRY_CAP_MS);
  });

  it("draws the wait uniformly between the floor and the ceiling (full jitter)", () => {
    expect(nextRetryDelayMs(3, 0, () => 0)).toBe(RETRY_FLOOR_MS);
    expect(nextRetryDelayMs(3, 0, () => 0.5)).toBe(60_000);
    expect(nextRetryDelayMs(3, 0, () => 0.999999)).toBeLessThanOrEqual(120_000);
  });

  it("keeps retrying for 24 hours, then gives up", () => {
    expect(nextRetryDelayMs(20, RETRY_WINDOW_MS - 1, () => 0.5)).toBe(RETRY_CAP_MS / 2);
    expect(nextRetryDelayMs(20, RETRY_WINDOW_MS, () => 0.5)).toBeNull();
    expect(nextRetryDelayMs(MAX_ATTEMPTS, 0, () => 0.5)).toBeNull();
  });

  it("spans at least 24 hours even with the largest draws the attempt bound allows", () => {
    // With every draw at its ceiling, 60 attempts reach far past the 24-hour window, so the window ends retries.
    let total = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) total += backoffCeilingMs(attempt);
    expect(total).toBeGreaterThan(RETRY_WINDOW_MS);
  });
});
