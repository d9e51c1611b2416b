import { describe, expect, it } from "vitest";
import { round } from "./round.ts";

describe("round()", () => {
  it("rounds the decimal a computed figure stands for, half away from zero", () => {
    expect((3 * 0.075 + 0.3) / 4).toBe(0.13124999999999998);
    expect(round((3 * 0.075 + 0.3) / 4, 4)).toBe(0.1313);
    expect(round((3 * 0.035 + 0.14) / 4, 4)).toBe(0.0613);
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(-2.5, 0)).toBe(-3);
    expect(round(-0.00004, 4)).toBe(0);
    expect(Object.is(round(-0.00004, 4), -0)).toBe(false);
  });

  it("leaves figures already at their places, large figures and non-finite values as they are", () => {
    expect(round(0.1312, 4)).toBe(0.1312);
    expect(round(12345678.9, 1)).toBe(12345678.9);
    expect(round(27720.7, 4)).toBe(27720.7);
    expect(round(1 / 3)).toBe(0.3333);
    expect(round(2 / 3, 6)).toBe(0.666667);
    expect(round(Number.NaN, 2)).toBeNaN();
    expect(round(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
  });
});
