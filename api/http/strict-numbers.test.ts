import { describe, expect, it } from "vitest";
import { InferenceCostQuery } from "../routes/premium-inference-cost.ts";
import { RoutingQuery } from "../routes/premium-routing.ts";
import { looseNumbers } from "./strict-numbers.ts";

const flagged = (schema: Parameters<typeof looseNumbers>[0], query: Record<string, unknown>) =>
  looseNumbers(schema, query)?.issues.map((i) => i.path.join(".")) ?? [];

describe("looseNumbers", () => {
  it("finds the coerced numbers of real route schemas through optional and default wrappers", () => {
    const empties = { task: "", w_quality: "", w_cost: "", w_latency: "", w_availability: "", budget: "", min_quality: "", top_n: "" };
    expect(flagged(RoutingQuery, empties).sort()).toEqual(["budget", "min_quality", "top_n", "w_availability", "w_cost", "w_latency", "w_quality"]);
    expect(flagged(InferenceCostQuery, { model: "x", monthly_tokens: "", input_tokens: "1e6", output_tokens: "5" }).sort()).toEqual(["input_tokens", "monthly_tokens"]);
  });

  it("lets plain decimals and non-string values through to the schema", () => {
    expect(looseNumbers(RoutingQuery, { w_quality: "0.4", top_n: "3", budget: "-1" })).toBeUndefined();
    // A repeated parameter arrives as an array: the schema's own 400 names it.
    expect(looseNumbers(RoutingQuery, { top_n: ["1", "2"] })).toBeUndefined();
  });

  it("asks an integer parameter for a whole number and a decimal one for a plain decimal", () => {
    const messages = looseNumbers(RoutingQuery, { top_n: "abc", budget: "abc" })!.issues.map((i) => i.message);
    expect(messages).toEqual(['budget must be a plain decimal number such as 5 or 0.25; got "abc"', 'top_n must be a whole number such as 5; got "abc"']);
  });

  it("clips a long value in its message", () => {
    const message = looseNumbers(RoutingQuery, { budget: "x".repeat(5_000) })!.issues[0]!.message;
    expect(message.length).toBeLessThan(150);
    expect(message).toContain("(5000 characters)");
  });
});
