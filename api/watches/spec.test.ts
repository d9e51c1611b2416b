import { describe, expect, it } from "vitest";
import { WatchSpec } from "./spec.ts";

describe("WatchSpec", () => {
  it.each([
    { type: "price", model: "gpt-4.1", field: "inputPrice", op: "lt", threshold: 1.5 },
    { type: "price", model: "gpt-4.1", field: "blended", op: "changes" },
    { type: "status", provider: "openai", op: "becomes", value: "down" },
    { type: "status", provider: "openai", op: "changes" },
    { type: "digest", cadence: "weekly" },
    { type: "leaderboard_rank", provider: "openai", op: "drops_below", threshold: 3 },
    { type: "leaderboard_rank", provider: "openai", op: "changes" },
  ])("accepts %o", (spec) => {
    expect(WatchSpec.safeParse(spec).success).toBe(true);
  });

  it.each([
    [{ type: "price", model: "gpt-4.1", field: "inputPrice", op: "lt" }, "threshold"],
    [{ type: "price", model: "gpt-4.1", field: "inputPrice", op: "below", threshold: 1 }, "op"],
    [{ type: "price", model: "gpt-4.1", field: "price", op: "lt", threshold: 1 }, "field"],
    [{ type: "price", model: "", field: "inputPrice", op: "changes" }, "model"],
    [{ type: "status", provider: "openai", op: "becomes" }, "value"],
    [{ type: "status", provider: "openai", op: "becomes", value: "unknown" }, "value"],
    [{ type: "digest", cadence: "hourly" }, "cadence"],
    [{ type: "leaderboard_rank", provider: "openai", op: "rises_above", threshold: 2.5 }, "threshold"],
    [{ type: "leaderboard_rank", provider: "openai", op: "drops_below" }, "threshold"],
    // A condition op changes ignores would read as a promise it does not keep.
    [{ type: "price", model: "gpt-4.1", field: "blended", op: "changes", threshold: 0.5 }, "threshold"],
    [{ type: "status", provider: "openai", op: "changes", value: "down" }, "value"],
    [{ type: "leaderboard_rank", provider: "openai", op: "changes", threshold: 3 }, "threshold"],
    [{ type: "weather" }, "type"],
    [{ type: "digest", cadence: "daily", extra: 1 }, ""],
  ])("refuses %o (issue at %s)", (spec, path) => {
    const r = WatchSpec.safeParse(spec);
    expect(r.success).toBe(false);
    if (path) expect(r.error!.issues.map((i) => i.path.join("."))).toContain(path);
  });
});
