import { describe, expect, it } from "vitest";
import { PaymentConfigError } from "./config.ts";
import { decidePaymentMode, testChainSetting } from "./mode.ts";

const live = { BASE_RPC_URL: "https://mainnet.base.org", PUBLISHER_WALLET: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" };

describe("decidePaymentMode()", () => {
  it("starts the test chain by default when nothing about payments or a public URL is configured", () => {
    expect(decidePaymentMode({}).kind).toBe("test-chain");
    expect(decidePaymentMode({ PAYMENTS_TEST_CHAIN: " AUTO ", BASE_RPC_URL: " " }).kind).toBe("test-chain");
  });

  it("is the real network with BASE_RPC_URL and PUBLISHER_WALLET, under auto and off", () => {
    expect(decidePaymentMode(live)).toEqual({ kind: "live" });
    expect(decidePaymentMode({ ...live, PAYMENTS_TEST_CHAIN: "off", PUBLIC_BASE_URL: "https://feed.example" })).toEqual({ kind: "live" });
  });

  it("runs no test chain on a public URL without the explicit opt-in", () => {
    const env = decidePaymentMode({ PUBLIC_BASE_URL: "https://feed.example" });
    expect(env).toMatchObject({ kind: "off", reason: expect.stringContaining("PAYMENTS_TEST_CHAIN=on") });
    expect(decidePaymentMode({}, "https://feed.example").kind).toBe("off");
    expect(decidePaymentMode({ PUBLIC_BASE_URL: "https://feed.example", PAYMENTS_TEST_CHAIN: "on" }).kind).toBe("test-chain");
  });

  it("is off with PAYMENTS_TEST_CHAIN=off, or with half a real configuration, naming what is missing", () => {
    expect(decidePaymentMode({ PAYMENTS_TEST_CHAIN: "off" })).toMatchObject({ kind: "off", reason: expect.stringContaining("PAYMENTS_TEST_CHAIN=off") });
    expect(decidePaymentMode({ PUBLISHER_WALLET: live.PUBLISHER_WALLET })).toMatchObject({ kind: "off", reason: expect.stringMatching(/^PUBLISHER_WALLET is set but BASE_RPC_URL is not/) });
    expect(decidePaymentMode({ BASE_RPC_URL: live.BASE_RPC_URL })).toMatchObject({ kind: "off", reason: expect.stringMatching(/^BASE_RPC_URL is set but PUBLISHER_WALLET is not/) });
  });

  it("refuses PAYMENTS_TEST_CHAIN=on together with real payment settings, and values other than auto, on, off", () => {
    expect(() => decidePaymentMode({ ...live, PAYMENTS_TEST_CHAIN: "on" })).toThrow(/PAYMENTS_TEST_CHAIN=on conflicts with BASE_RPC_URL and PUBLISHER_WALLET/);
    expect(() => decidePaymentMode({ PUBLISHER_WALLET: live.PUBLISHER_WALLET, PAYMENTS_TEST_CHAIN: "on" })).toThrow(PaymentConfigError);
    expect(() => testChainSetting("yes")).toThrow(/must be auto, on or off, got "yes"/);
    expect(testChainSetting(undefined)).toBe("auto");
    expect(testChainSetting("OFF")).toBe("off");
  });
});
