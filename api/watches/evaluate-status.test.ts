import { describe, expect, it } from "vitest";
import { evaluateStatus } from "./evaluate-status.ts";
import type { StatusSpec } from "./spec.ts";

const becomesDown: StatusSpec = { type: "status", provider: "openai", op: "becomes", value: "down" };
const changes: StatusSpec = { type: "status", provider: "openai", op: "changes" };

describe("evaluateStatus", () => {
  it("becomes fires when the status turns into the value, with from and to", () => {
    expect(evaluateStatus(becomesDown, { value: "operational" }, "down")).toEqual({ seen: { value: "down" }, match: { type: "status", provider: "openai", from: "operational", to: "down" } });
  });

  it("becomes does not fire while the status stays, nor for another value", () => {
    expect(evaluateStatus(becomesDown, { value: "down" }, "down").match).toBeNull();
    expect(evaluateStatus(becomesDown, { value: "operational" }, "degraded").match).toBeNull();
  });

  it("becomes fires again after leaving and re-entering the value", () => {
    const back = evaluateStatus(becomesDown, { value: "down" }, "operational");
    expect(back.match).toBeNull();
    expect(evaluateStatus(becomesDown, back.seen, "down").match).not.toBeNull();
  });

  it("changes fires on each transition between known readings, not from unknown memory", () => {
    expect(evaluateStatus(changes, { value: "operational" }, "degraded").match).toMatchObject({ from: "operational", to: "degraded" });
    expect(evaluateStatus(changes, { value: "degraded" }, "degraded").match).toBeNull();
    expect(evaluateStatus(changes, null, "degraded")).toEqual({ seen: { value: "degraded" }, match: null });
  });

  it("a provider gone from the status data fires nothing and keeps its memory", () => {
    expect(evaluateStatus(changes, { value: "down" }, undefined)).toEqual({ seen: { value: "down" }, match: null });
  });
});
