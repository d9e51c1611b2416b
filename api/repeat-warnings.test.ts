import { describe, expect, it } from "vitest";
import { withoutRepeats } from "./repeat-warnings.ts";

describe("withoutRepeats()", () => {
  it("writes the first of a run, counts the repeats within the window, and says how many with the next one written", () => {
    const lines: string[] = [];
    let t = 0;
    const warn = withoutRepeats((m) => lines.push(m), { windowMs: 60_000, now: () => t });
    for (; t < 30_000; t += 1000) warn("webhook delivery failed: connect ECONNREFUSED");
    expect(lines).toEqual(["webhook delivery failed: connect ECONNREFUSED"]);
    t = 61_000;
    warn("webhook delivery failed: connect ECONNREFUSED");
    expect(lines[1]).toBe("webhook delivery failed: connect ECONNREFUSED (and 29 more like it in the last 61 s)");
    warn("webhook delivery failed: timeout");
    expect(lines[2]).toBe("webhook delivery failed: timeout");
    expect(lines).toHaveLength(3);
  });
});
