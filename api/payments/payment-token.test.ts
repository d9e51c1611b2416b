import { describe, expect, it } from "vitest";
import { isTokenFormat } from "../billing/credits.ts";
import { paymentToken, paymentTokenKey } from "./payment-token.ts";

describe("paymentToken", () => {
  it("derives one well-formed token per payment and memo under a key of the seed", () => {
    const key = paymentTokenKey(new Uint8Array(32).fill(1));
    const tx = `0x${"ab".repeat(32)}`;
    const token = paymentToken(key, tx, "0".repeat(32));
    expect(isTokenFormat(token)).toBe(true);
    expect(paymentToken(key, tx, "0".repeat(32))).toBe(token);
    expect(paymentToken(key, tx, "1".repeat(32))).not.toBe(token);
    expect(paymentToken(key, `0x${"cd".repeat(32)}`, "0".repeat(32))).not.toBe(token);
    expect(paymentToken(paymentTokenKey(new Uint8Array(32).fill(2)), tx, "0".repeat(32))).not.toBe(token);
    // The derivation key is not the seed itself.
    expect(Buffer.from(key).equals(Buffer.alloc(32, 1))).toBe(false);
  });
});
