import { describe, expect, it } from "vitest";
import { x402Payees } from "./x402-discovery.ts";

const v2 = (accepts: unknown[]) => JSON.stringify({ x402Version: 2, items: [{ resource: "https://api.example.test/a", type: "http", x402Version: 2, accepts }] });

describe("x402Payees()", () => {
  it("reads v2 CAIP-2 networks and checksums the payee", () => {
    const body = v2([{ scheme: "exact", network: "eip155:8453", amount: "10000", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", payTo: "0x209693bc6afc0c5328ba36faf03c514ef312287c" }]);
    expect(x402Payees(body)).toEqual([{ payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", network: "eip155:8453" }]);
  });

  it("reads v1 network names (under items or resources), distinct pairs, sorted", () => {
    const body = JSON.stringify({
      x402Version: 1,
      resources: [
        { resource: "https://x.test/1", accepts: [{ scheme: "exact", network: "base", maxAmountRequired: "1000", payTo: "0x0000000000000000000000000000000000000002" }] },
        { resource: "https://x.test/2", accepts: [{ scheme: "exact", network: "base-sepolia", payTo: "0x0000000000000000000000000000000000000001" }, { network: "base", payTo: "0x0000000000000000000000000000000000000002" }] },
      ],
    });
    expect(x402Payees(body)).toEqual([
      { payTo: "0x0000000000000000000000000000000000000001", network: "eip155:84532" },
      { payTo: "0x0000000000000000000000000000000000000002", network: "eip155:8453" },
    ]);
  });

  it("skips entries without a valid address or network; anything else is []", () => {
    expect(x402Payees(v2([{ network: "eip155:8453", payTo: "not-an-address" }, { network: "<script>", payTo: "0x0000000000000000000000000000000000000003" }, { payTo: "0x0000000000000000000000000000000000000004" }]))).toEqual([]);
    expect(x402Payees("<html>")).toEqual([]);
    expect(x402Payees("[1,2]")).toEqual([]);
  });
});
