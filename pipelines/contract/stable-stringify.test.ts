import { describe, expect, it } from "vitest";
import { stableStringify } from "./stable-stringify.ts";

describe("stableStringify()", () => {
  it("stableStringify() sorts keys at every depth, indents 2 spaces and ends with a newline", () => {
    const text = stableStringify({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } });
    expect(text).toBe('{\n  "a": {\n    "c": null,\n    "d": [\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1\n}\n');
  });

  it("stableStringify() gives the same bytes whatever the insertion order", () => {
    expect(stableStringify({ x: 1, y: [3, 1], z: "s" })).toBe(stableStringify({ z: "s", y: [3, 1], x: 1 }));
  });

  it("stableStringify() keeps array order and drops undefined members like JSON.stringify", () => {
    expect(JSON.parse(stableStringify({ a: [2, 1], u: undefined }))).toEqual({ a: [2, 1] });
  });

  it("stableStringify() throws on a value with no JSON form", () => {
    expect(() => stableStringify(undefined)).toThrow(/no JSON form/);
  });
});
