import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("loadConfig()", () => {
  it("applies the documented defaults", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "127.0.0.1",
      publicBaseUrl: "http://localhost:3000",
      snapshotsDir: "snapshots",
      rateLimitPerMinute: 120,
      trustProxy: null,
      premiumBilling: true,
      paymentRateLimitPerMinute: 30,
      allowPrivateCallbacks: false,
      warehouseMemoryMb: 96,
    });
  });

  it("reads WATCHES_ALLOW_PRIVATE_CALLBACKS as 1 or 0 and refuses anything else", () => {
    expect(loadConfig({ WATCHES_ALLOW_PRIVATE_CALLBACKS: "1" }).allowPrivateCallbacks).toBe(true);
    expect(loadConfig({ WATCHES_ALLOW_PRIVATE_CALLBACKS: "0" }).allowPrivateCallbacks).toBe(false);
    expect(loadConfig({ WATCHES_ALLOW_PRIVATE_CALLBACKS: "" }).allowPrivateCallbacks).toBe(false);
    expect(() => loadConfig({ WATCHES_ALLOW_PRIVATE_CALLBACKS: "yes" })).toThrow(/WATCHES_ALLOW_PRIVATE_CALLBACKS must be 1 or 0/);
  });

  it("reads PREMIUM_BILLING as on or off (any case) and refuses anything else", () => {
    expect(loadConfig({ PREMIUM_BILLING: "off" }).premiumBilling).toBe(false);
    expect(loadConfig({ PREMIUM_BILLING: " OFF " }).premiumBilling).toBe(false);
    expect(loadConfig({ PREMIUM_BILLING: "on" }).premiumBilling).toBe(true);
    expect(loadConfig({ PREMIUM_BILLING: "" }).premiumBilling).toBe(true);
    expect(() => loadConfig({ PREMIUM_BILLING: "false" })).toThrow(/PREMIUM_BILLING must be on or off/);
  });

  it("reads every variable and strips a trailing slash from the base URL", () => {
    const c = loadConfig({ PORT: "8080", HOST: "0.0.0.0", PUBLIC_BASE_URL: "https://feed.example/", RATE_LIMIT_PER_MINUTE: "0", TRUST_PROXY: "loopback, 10.0.0.0/8", PAYMENT_RATE_LIMIT_PER_MINUTE: "5" });
    expect(c).toMatchObject({ port: 8080, host: "0.0.0.0", publicBaseUrl: "https://feed.example", rateLimitPerMinute: 0, trustProxy: "loopback, 10.0.0.0/8", paymentRateLimitPerMinute: 5 });
  });

  it("fails with the variable name and value on bad input", () => {
    expect(() => loadConfig({ PORT: "80a" })).toThrow(/PORT must be an integer, got "80a"/);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT must be between 0 and 65535/);
    expect(() => loadConfig({ TRUST_PROXY: "not-an-ip" })).toThrow(/TRUST_PROXY .*"not-an-ip"/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: "feed.example" })).toThrow(/PUBLIC_BASE_URL must be an absolute http\(s\) URL such as https:\/\/agentfeed.example, got "feed.example"/);
    expect(() => loadConfig({ PREMIUM_BILLING: "maybe" })).toThrow(/PREMIUM_BILLING must be on or off, got "maybe"/);
    expect(() => loadConfig({ WATCHES_ALLOW_PRIVATE_CALLBACKS: "yes" })).toThrow(/WATCHES_ALLOW_PRIVATE_CALLBACKS must be 1 or 0, got "yes"/);
  });

  it("refuses a RECEIPT_SIGNING_KEY that is no Ed25519 seed at start, without printing it", () => {
    const secret = "my-secret-signing-value";
    expect(() => loadConfig({ RECEIPT_SIGNING_KEY: secret })).toThrow(/RECEIPT_SIGNING_KEY: RECEIPT_SIGNING_KEY must be a 32-byte Ed25519 seed/);
    expect(() => loadConfig({ RECEIPT_SIGNING_KEY: secret })).not.toThrow(new RegExp(secret));
    expect(() => loadConfig({ RECEIPT_SIGNING_KEY: "ab".repeat(32) })).not.toThrow();
    expect(() => loadConfig({ RECEIPT_SIGNING_KEY: " " })).not.toThrow();
  });
});
