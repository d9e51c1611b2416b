import { describe, expect, it } from "vitest";
import { median } from "./median.ts";

describe("median", () => {
  it("takes the middle value of an odd count, whatever the order", () => {
    expect(median([5, 1, 9, 3, 7])).toBe(5);
    expect(median([0.9])).toBe(0.9);
  });

  it("takes the mean of the two middle values of an even count, sorting numerically (not as strings)", () => {
    expect(median([10, 2, 30, 4])).toBe(7);
  });

  it("is not moved by one outlier the way a mean is", () => {
    expect(median([1, 1.02, 0.98, 0.2, 1.01])).toBe(1);
  });

  it("is NaN for no values and leaves its input unsorted", () => {
    expect(median([])).toBeNaN();
    const input = [3, 1, 2];
    median(input);
    expect(input).toEqual([3, 1, 2]);
  });
});
