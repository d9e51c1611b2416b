import { describe, expect, it } from "vitest";
import { x402ChallengePayees, x402OwnResources, x402Payees, x402Resources } from "./x402-discovery.ts";

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

describe("x402Resources()", () => {
  it("counts resources with a positive amount as paid, the rest as free; own subdomains are not federation", () => {
    const body = JSON.stringify({
      x402Version: 2,
      items: [
        { resource: "https://api.example.test/a", accepts: [{ scheme: "exact", network: "eip155:8453", amount: "10000", payTo: "0x0000000000000000000000000000000000000001" }] },
        { resource: "https://example.test/b", accepts: [{ scheme: "exact", network: "eip155:8453", amount: "0" }] },
        { resource: "https://example.test/c", accepts: [] },
        { resource: "https://example.test/d", accepts: [{ amount: "0" }, { amount: "5" }] },
      ],
    });
    expect(x402Resources(body, "example.test")).toEqual({ paid: 2, free: 2, federated: false, total: null, complete: true });
  });

  it("reads v1 maxAmountRequired under resources, and a resource of another site as federation", () => {
    const body = JSON.stringify({
      x402Version: 1,
      resources: [
        { resource: "https://other.test/x", accepts: [{ network: "base", maxAmountRequired: "1000" }] },
        { resource: "not a url", accepts: [{ maxAmountRequired: "abc" }] },
        { resource: "https://notexample.test/y", accepts: [] },
      ],
    });
    expect(x402Resources(body, "example.test")).toEqual({ paid: 1, free: 2, federated: true, total: null, complete: true });
  });

  it("marks the counts partial when pagination.total is larger than the items of the page", () => {
    const item = (n: number) => ({ resource: `https://example.test/r${n}`, accepts: [{ scheme: "exact", network: "eip155:8453", amount: "10000", payTo: "0x0000000000000000000000000000000000000001" }] });
    const page = (total: unknown, count: number) => JSON.stringify({ x402Version: 2, items: Array.from({ length: count }, (_, i) => item(i)), pagination: { limit: 10, offset: 0, total } });
    expect(x402Resources(page(137, 10), "example.test")).toEqual({ paid: 10, free: 0, federated: false, total: 137, complete: false });
    expect(x402Resources(page(10, 10), "example.test")).toEqual({ paid: 10, free: 0, federated: false, total: 10, complete: true });
    expect(x402Resources(page("lots", 2), "example.test")).toMatchObject({ paid: 2, total: null, complete: true });
  });

  it("is null for anything that is not a discovery document", () => {
    expect(x402Resources("<html>", "example.test")).toBeNull();
    expect(x402Resources("[]", "example.test")).toBeNull();
    expect(x402Resources(JSON.stringify({ x402Version: 2 }), "example.test")).toBeNull();
  });
});

describe("x402ChallengePayees()", () => {
  const v2 = { x402Version: 2, error: "PAYMENT-SIGNATURE header is required", accepts: [{ scheme: "exact", network: "eip155:8453", amount: "10000", payTo: "0x209693bc6afc0c5328ba36faf03c514ef312287c" }] };
  const v1 = { x402Version: 1, error: "X-PAYMENT header is required", accepts: [{ scheme: "exact", network: "base-sepolia", maxAmountRequired: "10000", payTo: "0x0000000000000000000000000000000000000002" }] };

  it("reads a v2 challenge from the PAYMENT-REQUIRED header and a v1 challenge from the body", () => {
    expect(x402ChallengePayees(Buffer.from(JSON.stringify(v2)).toString("base64"), "{}")).toEqual([{ payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", network: "eip155:8453" }]);
    expect(x402ChallengePayees(null, JSON.stringify(v1))).toEqual([{ payTo: "0x0000000000000000000000000000000000000002", network: "eip155:84532" }]);
    expect(x402ChallengePayees(Buffer.from(JSON.stringify(v2)).toString("base64"), JSON.stringify(v1))).toHaveLength(2);
  });

  it("is [] for a header or body that is not a challenge, and ignores an oversized header", () => {
    expect(x402ChallengePayees("%%%", "<html>")).toEqual([]);
    expect(x402ChallengePayees(null, JSON.stringify({ accepts: v1.accepts }))).toEqual([]);
    expect(x402ChallengePayees("A".repeat(20_000), "{}")).toEqual([]);
  });
});

describe("x402OwnResources()", () => {
  it("keeps the site's own http(s) resources (subdomains included), distinct, at most max", () => {
    const body = JSON.stringify({
      x402Version: 2,
      items: [{ resource: "https://api.example.test/a" }, { resource: "https://api.example.test/a" }, { resource: "https://other.test/x" }, { resource: "ftp://example.test/f" }, { resource: "https://example.test/b" }, { resource: "https://example.test/c" }],
    });
    expect(x402OwnResources(body, "example.test", 2)).toEqual(["https://api.example.test/a", "https://example.test/b"]);
    expect(x402OwnResources("nope", "example.test", 2)).toEqual([]);
  });
});
