import { describe, expect, it } from "vitest";
import { AmountError, decimalToUnits, numberToUnits, unitsToUsd } from "./units.ts";
import { baseCredits, creditsForPayment, quoteCredits } from "./pricing.ts";

describe("units", () => {
  it("numberToUnits() converts through the decimal string without float error", () => {
    expect(numberToUnits(0.1)).toBe(100_000n);
    expect(numberToUnits(1.1)).toBe(1_100_000n);
    expect(numberToUnits(0.3)).toBe(300_000n);
    expect(numberToUnits(2.675)).toBe(2_675_000n);
    expect(numberToUnits(10000)).toBe(10_000_000_000n);
    expect(numberToUnits(1.000001)).toBe(1_000_001n);
    expect(numberToUnits(1e-6)).toBe(1n);
    expect(numberToUnits(5e-7 * 2)).toBe(1n);
    expect(() => numberToUnits(1.0000001)).toThrow(AmountError);
    expect(() => numberToUnits(5e-7)).toThrow(AmountError);
    expect(() => numberToUnits(-1)).toThrow(AmountError);
    expect(() => numberToUnits(Number.NaN)).toThrow(AmountError);
  });

  it("decimalToUnits() reads plain and exponent forms and refuses junk", () => {
    expect(decimalToUnits("5")).toBe(5_000_000n);
    expect(decimalToUnits("5.")).toBe(5_000_000n);
    expect(decimalToUnits("5.00")).toBe(5_000_000n);
    expect(decimalToUnits("1.5e2")).toBe(150_000_000n);
    expect(decimalToUnits("1.2300000")).toBe(1_230_000n);
    expect(() => decimalToUnits("0x10")).toThrow(AmountError);
    expect(() => decimalToUnits("-5")).toThrow(AmountError);
    expect(() => decimalToUnits("")).toThrow(AmountError);
  });

  it("unitsToUsd() keeps two decimals at least and all significant ones", () => {
    expect(unitsToUsd(5_000_000n)).toBe("5.00");
    expect(unitsToUsd(2_500_000n)).toBe("2.50");
    expect(unitsToUsd(1_234_567n)).toBe("1.234567");
    expect(unitsToUsd(10_000n)).toBe("0.01");
  });
});

describe("pricing", () => {
  it("quoteCredits() gives the bundles at their amounts and each tier's rate up to the next, so more never buys less", () => {
    expect(quoteCredits(1_000_000n)).toEqual({ credits: 50, rate: "quote" });
    expect(quoteCredits(4_999_999n)).toEqual({ credits: 249, rate: "quote" });
    expect(quoteCredits(5_000_000n)).toEqual({ credits: 275, rate: "bundle" });
    expect(quoteCredits(6_000_000n)).toEqual({ credits: 330, rate: "bundle" });
    expect(quoteCredits(29_999_999n)).toEqual({ credits: 1649, rate: "bundle" });
    expect(quoteCredits(30_000_000n)).toEqual({ credits: 1950, rate: "bundle" });
    expect(quoteCredits(31_000_000n)).toEqual({ credits: 2015, rate: "bundle" });
    expect(quoteCredits(199_999_999n)).toEqual({ credits: 12999, rate: "bundle" });
    expect(quoteCredits(200_000_000n)).toEqual({ credits: 16000, rate: "bundle" });
    expect(quoteCredits(201_000_000n)).toEqual({ credits: 16080, rate: "bundle" });
    expect(quoteCredits(10_000_000_000n)).toEqual({ credits: 800000, rate: "bundle" });
    let previous = 0;
    for (let cents = 50n; cents <= 1_000_000n; cents += 37n) {
      const { credits } = quoteCredits(cents * 10_000n);
      expect(credits, `USD ${cents} cents`).toBeGreaterThanOrEqual(previous);
      previous = credits;
    }
  });

  it("creditsForPayment() grants the quote within 10000 units and the base rate beyond", () => {
    const quote = { units: 5_000_000n, credits: 275, rate: "bundle" as const };
    expect(creditsForPayment(4_990_000n, quote)).toEqual({ credits: 275, rate: "bundle" });
    expect(creditsForPayment(5_010_000n, quote)).toEqual({ credits: 275, rate: "bundle" });
    expect(creditsForPayment(4_989_999n, quote)).toEqual({ credits: 249, rate: "base" });
    expect(creditsForPayment(5_010_001n, quote)).toEqual({ credits: 250, rate: "base" });
    expect(creditsForPayment(100_000_000n, quote)).toEqual({ credits: 5000, rate: "base" });
  });

  it("creditsForPayment() says base whenever the base rate applied: the 1.00 USD bundle and a quote off the bundle table", () => {
    expect(creditsForPayment(1_000_000n, { units: 1_000_000n, ...quoteCredits(1_000_000n) })).toEqual({ credits: 50, rate: "base" });
    expect(creditsForPayment(2_500_000n, { units: 2_500_000n, ...quoteCredits(2_500_000n) })).toEqual({ credits: 125, rate: "base" });
    expect(creditsForPayment(200_000_000n, { units: 200_000_000n, ...quoteCredits(200_000_000n) })).toEqual({ credits: 16000, rate: "bundle" });
    expect(baseCredits(19_999n)).toBe(0);
  });
});
