import { describe, expect, it } from "vitest";
import { isJsonContentType, jsonDepth } from "./body.ts";

describe("jsonDepth()", () => {
  it("jsonDepth() counts nested arrays and objects and ignores brackets inside strings", () => {
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth(`{"a":[1,{"b":[]}]}`)).toBe(4);
    expect(jsonDepth(`{"a":"[[[[{{{{","b":"\\"[["}`)).toBe(1);
    expect(jsonDepth("[".repeat(10_000) + "]".repeat(10_000))).toBe(10_000);
  });

  it("jsonDepth() stops counting past stopAt", () => {
    expect(jsonDepth("[".repeat(10_000), 64)).toBe(65);
  });
});

describe("isJsonContentType()", () => {
  it("isJsonContentType() accepts application/json with parameters and +json types only", () => {
    expect(isJsonContentType("application/json")).toBe(true);
    expect(isJsonContentType("Application/JSON; charset=utf-8")).toBe(true);
    expect(isJsonContentType("application/merge-patch+json")).toBe(true);
    expect(isJsonContentType("text/plain")).toBe(false);
    expect(isJsonContentType("application/x-www-form-urlencoded")).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });
});
