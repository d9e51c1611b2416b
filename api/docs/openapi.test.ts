import { describe, expect, it } from "vitest";
import { routes } from "../registry/index.ts";
import { buildOpenApi, openApiDocument, operationIdOf } from "./openapi.ts";
import { openApiPath } from "./endpoints.ts";

type Json = Record<string, any>;
const doc = buildOpenApi(routes, { baseUrl: "https://feed.example" }) as Json;
const op = (method: string, path: string): Json => doc.paths[openApiPath(path)][method.toLowerCase()];
const schemaOf = (response: Json): Json => {
  const schema = response.content["application/json"].schema as Json;
  return schema.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1)] : schema;
};

describe("buildOpenApi()", () => {
  it("states the inputs the endpoints take: case-insensitive tickers and ecosystems, the callback URL's real limit", () => {
    const param = (method: string, path: string, name: string): Json => (op(method, path).parameters as Json[]).find((p) => p.name === name)!.schema;
    for (const [path, name, accepted, refused] of [
      ["/api/premium/ai-companies/:ticker", "ticker", ["nvda", "NVDA", "brk.b"], ["NVIDIA1", ""]],
      ["/api/premium/sec/filings/guidance-delta", "ticker", ["amd"], ["a-b"]],
      ["/api/premium/security/package-verdict", "ecosystem", ["npm", "PyPI", "pypi", "NPM"], ["cargo"]],
    ] as const) {
      const pattern = new RegExp(param("GET", path, name).pattern as string);
      for (const value of accepted) expect(pattern.test(value), `${path} ${name}=${value}`).toBe(true);
      for (const value of refused) expect(pattern.test(value), `${path} ${name}=${value}`).toBe(false);
    }
    const body = op("POST", "/api/premium/watches").requestBody.content["application/json"].schema as Json;
    const watchBody = body.$ref ? doc.components.schemas[body.$ref.split("/").at(-1)] : body;
    expect(watchBody.properties.callback_url.maxLength).toBe(2048);
  });

  it("declares bearer, x402 retry and x402 exact payment security on every premium operation, and bearer on the routes that read one", () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.x402PaymentTx).toMatchObject({ type: "apiKey", in: "header", name: "X-Payment-Tx" });
    expect(doc.components.securitySchemes.x402PaymentSignature).toMatchObject({ type: "apiKey", in: "header", name: "PAYMENT-SIGNATURE" });
    for (const r of routes.filter((r) => r.tier === "premium")) {
      expect(op(r.method, r.path).security, r.path).toEqual([{ bearer: [] }, { x402PaymentTx: [], x402PaymentQuote: [] }, { x402PaymentSignature: [] }]);
    }
    expect(op("GET", "/api/payment/balance").security).toEqual([{ bearer: [] }]);
    expect(op("POST", "/api/payment/confirm").security).toEqual([{}, { bearer: [] }]);
    expect(op("GET", "/api/news").security).toBeUndefined();
  });

  it("gives every premium operation a 402 (challenge or insufficient credits) with the PAYMENT-REQUIRED header, and billing and receipt on its 200", () => {
    for (const r of routes.filter((r) => r.tier === "premium")) {
      const responses = op(r.method, r.path).responses as Json;
      expect(responses["402"].headers["PAYMENT-REQUIRED"].schema).toEqual({ type: "string" });
      const refs = (responses["402"].content["application/json"].schema.anyOf as Json[]).map((s) => s.$ref);
      expect(refs).toEqual(["#/components/schemas/PaymentChallenge", "#/components/schemas/InsufficientCredits"]);
      const success = schemaOf(responses["200"]);
      expect(success.required).toEqual(expect.arrayContaining(["billing", "receipt"]));
      expect(success.properties.billing.$ref).toBe("#/components/schemas/Billing");
      expect(success.properties.receipt.$ref).toBe("#/components/schemas/Receipt");
      expect(responses["304"]).toBeUndefined();
      expect(op(r.method, r.path).parameters.map((p: Json) => p.name)).toContain("Idempotency-Key");
    }
  });

  it("with premium billing off, premium operations declare no credential, 402 or billing", () => {
    const off = buildOpenApi(routes, { baseUrl: "https://feed.example", premiumBilling: false }) as Json;
    const routing = off.paths["/api/premium/routing"].get as Json;
    expect(routing.security).toBeUndefined();
    expect(routing.responses["402"]).toBeUndefined();
    expect(JSON.stringify(routing.responses["200"])).not.toContain("Billing");
  });

  it("declares the error body on every 4xx a route can send, derived from its tier, inputs and declared errors", () => {
    for (const r of routes) {
      const responses = op(r.method, r.path).responses as Json;
      const id = operationIdOf(r);
      expect(responses["4XX"], id).toBeDefined();
      expect(responses["429"].headers["Retry-After"].required, id).toBe(true);
      if (r.query || r.params || r.body) expect(responses["400"], id).toBeDefined();
      if (r.params) expect(responses["404"], id).toBeDefined();
      if (r.body) expect(Object.keys(responses)).toEqual(expect.arrayContaining(["413", "415"]));
      if (r.snapshots?.length || r.tier === "payment" || r.tier === "premium") expect(responses["503"], id).toBeDefined();
      for (const status of Object.keys(r.errors ?? {})) expect(responses[status], `${id} ${status}`).toBeDefined();
      for (const [status, response] of Object.entries(responses)) {
        if (/^[45]/.test(status) && status !== "402") expect(schemaOf(response as Json), `${id} ${status}`).toBe(doc.components.schemas.Error);
      }
    }
    expect(Object.keys(op("GET", "/api/payment/balance").responses)).toContain("401");
    expect(Object.keys(op("POST", "/api/payment/confirm").responses)).toEqual(expect.arrayContaining(["401", "403", "404", "409", "410", "422"]));
    expect(op("GET", "/api/news").responses["429"].headers).toHaveProperty("RateLimit-Remaining");
  });

  it("keeps the error body open to detail fields and the billing block closed", () => {
    expect(doc.components.schemas.Error.additionalProperties).toEqual({});
    expect(doc.components.schemas.Error.required).toEqual(["ok", "error", "message"]);
    expect(doc.components.schemas.Billing.additionalProperties).toBe(false);
    expect(Object.keys(doc.components.responses)).toEqual(["NotFound", "MethodNotAllowed"]);
    expect(doc.components.responses.MethodNotAllowed.headers).toHaveProperty("Allow");
  });
});

describe("openApiDocument()", () => {
  it("builds the document once per route list and options, equal to buildOpenApi's", () => {
    const opts = { baseUrl: "https://feed.example", premiumBilling: true };
    const first = openApiDocument(routes, opts);
    expect(first).toEqual(buildOpenApi(routes, opts));
    expect(openApiDocument(routes, { ...opts })).toBe(first);
    const off = openApiDocument(routes, { ...opts, premiumBilling: false });
    expect(off).not.toBe(first);
    expect(off).toEqual(buildOpenApi(routes, { ...opts, premiumBilling: false }));
    expect(openApiDocument(routes, { ...opts, baseUrl: "https://other.example" })).not.toBe(first);
    expect(openApiDocument([...routes], opts)).not.toBe(first);
  });
});
