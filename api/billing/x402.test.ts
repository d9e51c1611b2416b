import { describe, expect, it } from "vitest";
import { minimumPurchaseUsd, paymentChallenge, usdcDomainName } from "./x402.ts";

const terms = { chainId: 8453, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo: "0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db" };

describe("paymentChallenge()", () => {
  it("paymentChallenge() prices the call at 20000 units a credit and puts the x402 v2 object in the header", () => {
    const { body, header } = paymentChallenge({ resourceUrl: "https://a.example/api/premium/x?q=1", baseUrl: "https://a.example", summary: "X", cost: 3, terms, why: "no credential" });
    const decoded = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    expect(Object.keys(decoded).sort()).toEqual(["accepts", "error", "extensions", "resource", "x402Version"]);
    expect(decoded.accepts[0]).toEqual({
      scheme: "exact",
      network: "eip155:8453",
      amount: "60000",
      asset: terms.asset,
      payTo: terms.payTo,
      maxTimeoutSeconds: 1800,
      extra: { name: "USD Coin", version: "2" },
    });
    expect(decoded.resource).toEqual({ url: "https://a.example/api/premium/x?q=1", description: "X", mimeType: "application/json" });
    expect(body).toMatchObject({ ok: false, error: "payment_required", x402Version: 2, accepts: decoded.accepts, resource: decoded.resource });
    expect((body.quote_flow as { steps: unknown[] }).steps).toHaveLength(3);
  });

  it("paymentChallenge() without payment terms still answers, with no accepts and the reason", () => {
    const { body, header } = paymentChallenge({ resourceUrl: "u", baseUrl: "b", summary: "X", cost: 1, terms: null, why: "no credential" });
    expect(JSON.parse(Buffer.from(header, "base64").toString()).accepts).toEqual([]);
    expect(body.quote_flow).toMatchObject({ available: false });
    expect(String(body.message)).toMatch(/not available/);
  });

  it("minimumPurchaseUsd() is the quote minimum unless the call costs more; usdcDomainName() follows the chain", () => {
    expect(minimumPurchaseUsd(1)).toBe(0.5);
    expect(minimumPurchaseUsd(30)).toBe(0.6);
    expect(usdcDomainName(84532)).toBe("USDC");
    expect(usdcDomainName(8453)).toBe("USD Coin");
  });
});
