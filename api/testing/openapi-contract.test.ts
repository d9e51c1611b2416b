import { describe, expect, it } from "vitest";
import { ContractError, OpenApiContract, assertContract, serviceContract } from "./openapi-contract.ts";

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
const answer = (status: number, body: unknown, headers: Record<string, string> = JSON_TYPE) =>
  new Response(body === null ? null : typeof body === "string" ? body : JSON.stringify(body), { status, headers });
const url = (path: string) => new URL(`http://127.0.0.1:1${path}`);
const problems = async (method: string, path: string, response: Response) => (await (await serviceContract()).check(method, url(path), response)).problems;

const receipt = {
  id: "rcpt_0123456789abcdef01234567",
  signing_alg: "EdDSA",
  signing_curve: "Ed25519",
  signature: "c2lnbmF0dXJl",
  key_id: "0123456789abcdef",
  signed: {
    id: "rcpt_0123456789abcdef01234567",
    endpoint: "GET /api/premium/cost/projection",
    request_hash: "a".repeat(64),
    response_hash: "b".repeat(64),
    credits_charged: 1,
    no_charge_reason: null,
    time: "2026-11-23T12:00:00.000Z",
    key_id: "0123456789abcdef",
  },
};
const projection = {
  ok: true,
  workload: { input_tokens_per_day: 1000, output_tokens_per_day: 100, total_tokens_per_day: 1100 },
  primary_horizon: "monthly",
  projections: [],
  ranked_cheapest_monthly: [],
};

describe("OpenApiContract", () => {
  it("accepts answers that keep the document and rejects those that do not, naming what is wrong", async () => {
    const path = "/api/premium/cost/projection?model=gpt-4o";
    expect(await problems("GET", path, answer(200, { ...projection, billing: { credits_charged: 1, credits_remaining: 9 }, receipt }))).toEqual([]);
    // the paid answer without its billing block and receipt
    expect((await problems("GET", path, answer(200, projection))).join(" ")).toContain("must have required property 'billing'");
    // a field the schema does not declare
    expect((await problems("GET", path, answer(200, { ...projection, billing: { credits_charged: 1, credits_remaining: 9, bonus: 1 }, receipt }))).join(" ")).toContain("must NOT have additional properties");
    // a status the operation does not declare
    expect(await problems("GET", path, answer(201, projection))).toEqual([expect.stringContaining("status 201 is not declared")]);
    // an error body without its code
    expect((await problems("GET", "/api/news", answer(400, { ok: false, message: "bad" }))).join(" ")).toContain("must have required property 'error'");
    // a 429 without Retry-After, and a header of the wrong type
    expect(await problems("GET", "/api/news", answer(429, { ok: false, error: "rate_limited", message: "slow down" }))).toEqual(["required header Retry-After is missing"]);
    expect(await problems("GET", "/api/news", answer(429, { ok: false, error: "rate_limited", message: "x" }, { ...JSON_TYPE, "retry-after": "soon" }))).toEqual([
      "header retry-after must be integer",
    ]);
    // a content type the operation does not declare
    expect(await problems("GET", "/llms.txt", answer(200, "{}", JSON_TYPE))).toEqual([expect.stringContaining("content type application/json is not declared")]);
    expect(await problems("GET", "/llms.txt", answer(200, "# agentfeed", { "content-type": "text/plain; charset=utf-8" }))).toEqual([]);
  });

  it("holds answers outside every operation to the service's 404 and 405 error bodies", async () => {
    expect(await problems("GET", "/nowhere", answer(404, { ok: false, error: "not_found", message: "no route" }))).toEqual([]);
    expect(await problems("DELETE", "/api/history", answer(405, { ok: false, error: "method_not_allowed", message: "no" }))).toEqual([]);
    expect(await problems("GET", "/nowhere", answer(200, { ok: true }))).toEqual([expect.stringContaining("no operation matches")]);
    expect((await problems("GET", "/nowhere", answer(404, "<html>", { "content-type": "text/html" }))).length).toBeGreaterThan(0);
  });

  it("assertContract() throws a ContractError naming the operation, the status and the problem", async () => {
    const failing = assertContract("GET", url("/api/premium/routing?task=code"), answer(402, { ok: false, error: "payment_required", message: "pay" }));
    await expect(failing).rejects.toBeInstanceOf(ContractError);
    await expect(failing).rejects.toThrow(/getApiPremiumRouting \(GET \/api\/premium\/routing\) answered 402: body .*x402Version/);
  });

  it("refuses a document that is not valid OpenAPI 3.1", async () => {
    await expect(OpenApiContract.load({ openapi: "3.1.0", info: { title: "x" }, paths: {} })).rejects.toThrow(/not valid OpenAPI 3\.1\.0/);
  });
});
