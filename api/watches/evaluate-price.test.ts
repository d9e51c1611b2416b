import { describe, expect, it } from "vitest";
import { evaluatePrice } from "./evaluate-price.ts";
import type { PriceSpec } from "./spec.ts";

const prices = (input: number, output = 10) => ({ provider: "openai", inputPrice: input, outputPrice: output, blended: (3 * input + output) / 4 });
const lt: PriceSpec = { type: "price", model: "gpt-x", field: "inputPrice", op: "lt", threshold: 2 };
const gt: PriceSpec = { ...lt, op: "gt", threshold: 5 };
const changes: PriceSpec = { type: "price", model: "gpt-x", field: "outputPrice", op: "changes" };

describe("evaluatePrice", () => {
  it("lt fires when the price crosses below the threshold, with the match object", () => {
    const r = evaluatePrice(lt, { value: 2.5 }, prices(1.5));
    expect(r.seen).toEqual({ value: 1.5 });
    expect(r.match).toEqual({ type: "price", model: "gpt-x", provider: "openai", field: "inputPrice", from: 2.5, to: 1.5, delta_pct: -40, threshold: 2, crossed: "below" });
  });

  it("lt does not fire again while the price stays below, nor when it moves within the region", () => {
    expect(evaluatePrice(lt, { value: 1.5 }, prices(1.5)).match).toBeNull();
    expect(evaluatePrice(lt, { value: 1.5 }, prices(1.2)).match).toBeNull();
  });

  it("lt fires again after the price went back up and crossed down once more", () => {
    const up = evaluatePrice(lt, { value: 1.5 }, prices(3));
    expect(up.match).toBeNull();
    expect(evaluatePrice(lt, up.seen, prices(1)).match).not.toBeNull();
  });

  it("lt: exactly at the threshold is not below it", () => {
    expect(evaluatePrice(lt, { value: 3 }, prices(2)).match).toBeNull();
  });

  it("gt fires on crossing above and not while staying above", () => {
    expect(evaluatePrice(gt, { value: 4 }, prices(6)).match).toMatchObject({ crossed: "above", from: 4, to: 6 });
    expect(evaluatePrice(gt, { value: 6 }, prices(7)).match).toBeNull();
    expect(evaluatePrice(gt, { value: 6 }, prices(4)).match).toBeNull();
  });

  it("unknown memory counts as not past the threshold: lt fires when the price is below", () => {
    expect(evaluatePrice(lt, null, prices(1)).match).toMatchObject({ from: null, delta_pct: null });
  });

  it("changes fires on any change of a known price and never from unknown memory", () => {
    expect(evaluatePrice(changes, { value: 10 }, prices(1, 12)).match).toMatchObject({ field: "outputPrice", from: 10, to: 12, delta_pct: 20, threshold: null, crossed: null });
    expect(evaluatePrice(changes, { value: 10 }, prices(1, 10)).match).toBeNull();
    expect(evaluatePrice(changes, null, prices(1, 10))).toEqual({ seen: { value: 10 }, match: null });
  });

  it("blended follows the 3:1 blend", () => {
    const spec: PriceSpec = { type: "price", model: "gpt-x", field: "blended", op: "changes" };
    expect(evaluatePrice(spec, { value: 1 }, prices(2, 2)).match).toMatchObject({ from: 1, to: 2 });
  });

  it("a model gone from the pricing data fires nothing and keeps its memory", () => {
    expect(evaluatePrice(lt, { value: 3 }, undefined)).toEqual({ seen: { value: 3 }, match: null });
  });
});
