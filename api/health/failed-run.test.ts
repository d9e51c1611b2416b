import { describe, expect, it } from "vitest";
import { failedRunLine } from "./failed-run.ts";

describe("failedRunLine()", () => {
  it("failedRunLine() names the feed, the cause on one line and the next cron time", () => {
    const line = failedRunLine("status", "all sources failed:\n  ENOTFOUND status.example", "*/2 * * * *", new Date("2026-11-23T10:00:30Z"));
    expect(line).toBe("pipeline status failed: all sources failed: ENOTFOUND status.example; next attempt 2026-11-23T10:02:00.000Z (*/2 * * * * UTC)");
  });

  it("failedRunLine() cuts a long cause and survives a missing cron", () => {
    const line = failedRunLine("news", "x".repeat(5000), undefined);
    expect(line.length).toBeLessThan(400);
    expect(line).toMatch(/next attempt not scheduled$/);
  });
});
