import { randomInt } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { canonicalJson, CanonicalJsonError, withoutBilling } from "./canonical.ts";

/** Strings that stress key order and escaping: UTF-16 order vs code points, numeric-looking keys, escapes. */
const AWKWARD = ["", "a", "B", "10", "9", "1", "\u20ac", "\ud83d\ude00", "\u00e9", "\r\n", '"', "\\", "\u0000", "\u001f", "\u2028", "key with space", "\ufb33", "__proto__x"];
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789012345680000, 5e-324, 1.7976931348623157e308, 333333333.3333333, -2.5, 2 ** 53];

function randomValue(depth: number): unknown {
  const pick = randomInt(depth > 4 ? 4 : 7);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return randomInt(2) === 0;
    case 2:
      return NUMBERS[randomInt(NUMBERS.length)]! * (randomInt(2) ? 1 : Math.random());
    case 3:
      return AWKWARD[randomInt(AWKWARD.length)]! + String.fromCharCode(32 + randomInt(2000));
    case 4:
      return Array.from({ length: randomInt(5) }, () => randomValue(depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = randomInt(6); i > 0; i--) out[AWKWARD[randomInt(AWKWARD.length)]! + (randomInt(3) ? "" : String(randomInt(20)))] = randomValue(depth + 1);
      return out;
    }
  }
}

describe("canonicalJson()", () => {
  it("writes exactly what the canonicalize package writes for 5,000 random JSON values", () => {
    for (let i = 0; i < 5000; i++) {
      const value = randomValue(0);
      expect(canonicalJson(value)).toBe(canonicalize(value));
    }
  });

  it("matches canonicalize on the unusual values too: toJSON, Dates, undefined members, nested arrays with holes", () => {
    const values: unknown[] = [
      { at: new Date("2025-01-01T00:00:00Z"), x: undefined, y: [undefined, 1] },
      { toJSON: () => ({ b: 1, a: 2 }) },
      Object.assign(Object.create(null) as object, { z: 1, a: [1, { c: 2, b: 3 }] }),
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(canonicalize(value));
  });

  it("refuses what has no canonical form: NaN, Infinity, a lone surrogate, a cycle, undefined", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const bad of [Number.NaN, { n: Infinity }, { s: "\ud800" }, cycle, undefined]) {
      expect(() => canonicalJson(bad)).toThrow(CanonicalJsonError);
    }
  });
});

describe("withoutBilling()", () => {
  it("drops billing and receipt from a copy, and hands back a body without them as it is", () => {
    const paid = { ok: true, billing: { credits_charged: 1 }, receipt: { id: "r" }, data: [1] };
    expect(withoutBilling(paid)).toEqual({ ok: true, data: [1] });
    expect(paid).toHaveProperty("billing");
    const plain = { ok: true, data: [1] };
    expect(withoutBilling(plain)).toBe(plain);
  });
});
