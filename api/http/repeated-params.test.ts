import { describe, expect, it } from "vitest";
import { repeatedParams } from "./repeated-params.ts";

describe("repeatedParams", () => {
  it("names each parameter given more than once, and nothing else", () => {
    expect(repeatedParams({ limit: "3", category: "research" })).toBeUndefined();
    const error = repeatedParams({ limit: ["1", "3"], category: "research", q: ["a", "b", "c"] });
    expect(error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["limit", "limit is given 2 times; give each parameter once (a list is one value, comma-separated)"],
      ["q", "q is given 3 times; give each parameter once (a list is one value, comma-separated)"],
    ]);
  });
});
