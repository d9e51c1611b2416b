import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp, type ServedSnapshots } from "../app.ts";
import { receiptKeyFromSeed } from "../billing/receipt-key.ts";
import { signReceipt } from "../billing/receipts.ts";
import { responseHash } from "../billing/canonical.ts";
import { createReceiptRoutes, decodeReceiptParam, ReceiptKeysResponse, VerifyResponse } from "./receipts.ts";

const key = receiptKeyFromSeed(Uint8Array.from({ length: 32 }, (_, i) => 255 - i));
const snapshots: ServedSnapshots = { generation: 1, get: () => undefined, types: () => [], dates: () => [], dated: async () => undefined };
const app = createApp({ routes: createReceiptRoutes(async () => key), snapshots, baseUrl: "https://feed.example", rateLimitPerMinute: 0, trustProxy: null }).app;

const body = { ok: true, verdict: "GO", score: 12 };
const receipt = signReceipt(key, {
  endpoint: "GET /api/premium/security/package-verdict",
  request_hash: "a".repeat(64),
  response_hash: responseHash(body),
  credits_charged: 1,
  no_charge_reason: null,
  time: "2025-06-01T12:00:00.000Z",
});
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

describe("receipt routes", () => {
  it("GET /.well-known/receipt-key.json lists the public key, JWK-like", async () => {
    const res = await app.request("/.well-known/receipt-key.json");
    expect(res.status).toBe(200);
    const doc = ReceiptKeysResponse.parse(await res.json());
    expect(doc.keys).toEqual([{ kid: key.kid, alg: "EdDSA", crv: "Ed25519", kty: "OKP", use: "sig", x: Buffer.from(key.publicKey).toString("base64url") }]);
  });

  it("GET /api/receipt/verify checks a base64url receipt and names the reason when it fails", async () => {
    const good = VerifyResponse.parse(await (await app.request(`/api/receipt/verify?receipt=${b64(receipt)}`)).json());
    expect(good).toEqual({ ok: true, valid: true, key_id: key.kid });
    const tampered = { ...receipt, signed: { ...receipt.signed, credits_charged: 0 } };
    const bad = await (await app.request(`/api/receipt/verify?receipt=${b64(tampered)}`)).json();
    expect(bad).toEqual({ ok: true, valid: false, key_id: key.kid, reason: "bad_signature" });
    const plain = await (await app.request(`/api/receipt/verify?receipt=${encodeURIComponent(JSON.stringify(receipt))}`)).json();
    expect(plain).toMatchObject({ valid: true });
  });

  it("GET /api/receipt/verify answers 400 when the parameter is missing or not base64url JSON", async () => {
    expect((await app.request("/api/receipt/verify")).status).toBe(400);
    const res = await app.request("/api/receipt/verify?receipt=%25%25%25");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_receipt");
    expect(() => decodeReceiptParam(Buffer.from("not json").toString("base64url"))).toThrow(/does not decode to JSON/);
  });

  it("POST /api/receipt/verify checks the receipt and, given the response, its hash", async () => {
    const post = (payload: unknown) =>
      app.request("/api/receipt/verify", { method: "POST", body: JSON.stringify(payload), headers: { "Content-Type": "application/json" } });
    expect(await (await post({ receipt })).json()).toEqual({ ok: true, valid: true, key_id: key.kid });
    const full = { ...body, billing: { credits_charged: 1, credits_remaining: 4 }, receipt };
    expect(await (await post({ receipt, response: full })).json()).toEqual({ ok: true, valid: true, key_id: key.kid, response_matches: true });
    expect(await (await post({ receipt, response: { ...body, score: 13 } })).json()).toEqual({
      ok: true,
      valid: false,
      key_id: key.kid,
      reason: "response_mismatch",
      response_matches: false,
    });
    expect((await post({ response: body })).status).toBe(400);
    const other = receiptKeyFromSeed(new Uint8Array(32).fill(4));
    const foreign = signReceipt(other, { ...receipt.signed });
    expect(await (await post({ receipt: foreign })).json()).toMatchObject({ valid: false, reason: "unknown_key", key_id: other.kid });
  });

  it("VerifyResponse accepts only the documented fields", () => {
    expect(() => VerifyResponse.parse({ ok: true, valid: true, key_id: "k", extra: 1 })).toThrow(z.ZodError);
  });
});
