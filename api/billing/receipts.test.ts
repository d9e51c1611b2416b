import { createPublicKey, verify as nodeVerify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, requestHash, responseHash, sha256Hex } from "./canonical.ts";
import { publicJwk, receiptKeyFromSeed } from "./receipt-key.ts";
import { signReceipt, signingInput, verifyReceipt, type Receipt, type SignedFields } from "./receipts.ts";

const key = receiptKeyFromSeed(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
const other = receiptKeyFromSeed(Uint8Array.from({ length: 32 }, (_, i) => 200 - i));
const keys = new Map([[key.kid, key.publicKey]]);

function receiptFor(i: number): Receipt {
  return signReceipt(key, {
    endpoint: "GET /api/premium/routing",
    request_hash: requestHash({ method: "GET", path: "/api/premium/routing", query: { task: "code", top_n: String(i % 10) }, body: null }),
    response_hash: responseHash({ ok: true, i, recommendations: [{ rank: 1, id: `m-${i}` }] }),
    credits_charged: i % 7 === 0 ? 0 : 1,
    no_charge_reason: i % 7 === 0 ? "stale_data" : null,
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
  });
}

/** The same receipt with one byte of one signed field (or the signature) changed. */
function flipped(r: Receipt, field: keyof SignedFields | "signature", index: number): Receipt {
  const copy = structuredClone(r);
  if (field === "signature") {
    const sig = Buffer.from(copy.signature, "base64url");
    sig[index % sig.length] = sig[index % sig.length]! ^ 0x01;
    copy.signature = sig.toString("base64url");
    return copy;
  }
  const value = copy.signed[field];
  if (typeof value === "number") (copy.signed as Record<string, unknown>)[field] = value ^ (1 << index % 8);
  else if (value === null) (copy.signed as Record<string, unknown>)[field] = "x";
  else {
    const at = index % value.length;
    const ch = String.fromCharCode(value.charCodeAt(at) ^ 0x01);
    (copy.signed as Record<string, unknown>)[field] = value.slice(0, at) + ch + value.slice(at + 1);
  }
  return copy;
}

describe("signReceipt() / verifyReceipt()", () => {
  it("signReceipt() fills id and key_id and signs the canonical JSON of the signed fields", () => {
    const r = receiptFor(1);
    expect(r).toMatchObject({ signing_alg: "EdDSA", signing_curve: "Ed25519", key_id: key.kid });
    expect(r.id).toMatch(/^rcpt_[0-9a-f]{24}$/);
    expect(r.signed.id).toBe(r.id);
    expect(Buffer.from(r.signature, "base64url")).toHaveLength(64);
    expect(new TextDecoder().decode(signingInput(r.signed))).toBe(canonicalJson(r.signed));
  });

  it("verifyReceipt() accepts 1,000 receipts and rejects every one with a single byte flipped in any signed field or the signature", () => {
    const fields = ["id", "endpoint", "request_hash", "response_hash", "credits_charged", "no_charge_reason", "time", "key_id", "signature"] as const;
    for (let i = 0; i < 1000; i++) {
      const r = receiptFor(i);
      expect(verifyReceipt(r, keys)).toEqual({ valid: true, key_id: key.kid });
      const field = fields[i % fields.length]!;
      const bad = verifyReceipt(flipped(r, field, i * 31), keys);
      expect(bad.valid, `receipt ${i} with ${field} flipped`).toBe(false);
    }
  });

  it("verifyReceipt() rejects every single-byte flip of every field of one receipt, exhaustively", () => {
    const r = receiptFor(3);
    let checked = 0;
    for (const field of ["id", "endpoint", "request_hash", "response_hash", "time", "key_id"] as const) {
      for (let at = 0; at < r.signed[field].length; at++) {
        expect(verifyReceipt(flipped(r, field, at), keys).valid, `${field}[${at}]`).toBe(false);
        checked++;
      }
    }
    for (let bit = 0; bit < 8; bit++) expect(verifyReceipt(flipped(r, "credits_charged", bit), keys).valid).toBe(false);
    for (let at = 0; at < 64; at++) expect(verifyReceipt(flipped(r, "signature", at), keys).valid, `signature[${at}]`).toBe(false);
    expect(checked).toBeGreaterThan(150);
  });

  it("verifyReceipt() names the reason: unknown key, mismatched copies, malformed, response mismatch", () => {
    const r = receiptFor(2);
    expect(verifyReceipt(signReceipt(other, { ...r.signed }), keys)).toMatchObject({ valid: false, reason: "unknown_key" });
    expect(verifyReceipt({ ...r, key_id: other.kid }, keys)).toMatchObject({ valid: false, reason: "key_id_mismatch" });
    expect(verifyReceipt({ ...r, id: "rcpt_other" }, keys)).toMatchObject({ valid: false, reason: "id_mismatch" });
    expect(verifyReceipt({ ...r, signed: { ...r.signed, extra: 1 } }, keys)).toMatchObject({ valid: false, reason: "malformed_receipt" });
    expect(verifyReceipt("nope", keys)).toEqual({ valid: false, key_id: null, reason: "malformed_receipt" });
    const body = { ok: true, i: 2, recommendations: [{ rank: 1, id: "m-2" }] };
    expect(verifyReceipt(r, keys, { ...body, billing: { credits_charged: 1 }, receipt: r })).toEqual({ valid: true, key_id: key.kid, response_matches: true });
    expect(verifyReceipt(r, keys, { ...body, i: 3 })).toMatchObject({ valid: false, reason: "response_mismatch", response_matches: false });
  });

  it("verifyReceipt() repeats a key id made visible and cut to 64 characters, never as sent", () => {
    const hostile = `\u202e<script>\u200b\u0007${"k".repeat(60_000)}`;
    const malformed = verifyReceipt({ key_id: hostile }, keys);
    expect(malformed).toMatchObject({ valid: false, reason: "malformed_receipt" });
    expect(malformed.key_id).toBe(`?<script>??${"k".repeat(53)}… (60011 characters)`);
    const r = receiptFor(3);
    const unknown = verifyReceipt({ ...r, key_id: hostile, signed: { ...r.signed, key_id: hostile } }, keys);
    expect(unknown).toMatchObject({ valid: false, reason: "unknown_key" });
    expect(unknown.key_id!.length).toBeLessThan(90);
  });

  it("a receipt verifies offline with node:crypto and the published JWK alone", () => {
    const r = receiptFor(5);
    const jwk = publicJwk(key);
    const pub = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: "jwk" });
    expect(nodeVerify(null, Buffer.from(canonicalJson(r.signed)), pub, Buffer.from(r.signature, "base64url"))).toBe(true);
    expect(nodeVerify(null, Buffer.from(canonicalJson({ ...r.signed, credits_charged: 5 })), pub, Buffer.from(r.signature, "base64url"))).toBe(false);
  });
});

describe("canonical hashes", () => {
  it("requestHash() ignores key order and upper-cases the method", () => {
    const a = requestHash({ method: "get", path: "/p", query: { b: "2", a: "1" }, body: null });
    const b = requestHash({ method: "GET", path: "/p", query: { a: "1", b: "2" }, body: undefined });
    expect(a).toBe(b);
    expect(a).toBe(sha256Hex('{"body":null,"method":"GET","path":"/p","query":{"a":"1","b":"2"}}'));
    expect(requestHash({ method: "GET", path: "/p", query: { a: "2", b: "2" }, body: null })).not.toBe(a);
  });

  it("responseHash() leaves billing and receipt out", () => {
    expect(responseHash({ ok: true, x: 1, billing: { credits_charged: 1 }, receipt: { id: "r" } })).toBe(responseHash({ x: 1, ok: true }));
  });

  it("canonicalJson() refuses values with no JSON form", () => {
    expect(() => canonicalJson(undefined)).toThrow(/no JSON form/);
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/canonical JSON/);
  });
});
