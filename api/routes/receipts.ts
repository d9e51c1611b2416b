/**
 * Receipt routes: the public signing key (GET /.well-known/receipt-key.json, JWK-like) and verification
 * (GET /api/receipt/verify?receipt=…, POST /api/receipt/verify). Verification needs no credential and
 * charges nothing; anyone can also verify offline with the public key (see the README).
 */
import { z } from "zod";
import { processReceiptKey, publicJwk, type ReceiptKey } from "../billing/receipt-key.ts";
import { verifyReceipt } from "../billing/receipts.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError } from "../registry/types.ts";

/** Body of GET /.well-known/receipt-key.json. */
export const ReceiptKeysResponse = z.strictObject({
  ok: z.literal(true),
  keys: z.array(
    z.strictObject({
      kid: z.string(),
      alg: z.literal("EdDSA"),
      crv: z.literal("Ed25519"),
      kty: z.literal("OKP"),
      use: z.literal("sig"),
      x: z.string(),
    }),
  ),
});

/** Body of both verify routes. */
export const VerifyResponse = z.strictObject({
  ok: z.literal(true),
  valid: z.boolean(),
  key_id: z.string().nullable(),
  reason: z
    .enum(["malformed_receipt", "id_mismatch", "key_id_mismatch", "unknown_key", "bad_signature", "response_mismatch"])
    .optional(),
  response_matches: z.boolean().optional().meta({ description: "present when a response body was given" }),
});

/** Longest `receipt` query value accepted (a receipt is about 700 characters as base64url). */
const MAX_RECEIPT_PARAM = 8000;

const VerifyQuery = z.strictObject({
  receipt: z
    .string()
    .min(1)
    .max(MAX_RECEIPT_PARAM)
    .meta({ description: "the receipt JSON, base64url-encoded (plain JSON starting with { is accepted too)" }),
});

const VerifyBody = z.strictObject({
  receipt: z.unknown().refine((v) => v !== undefined, "receipt is required").meta({ description: "the receipt object as the paid response carried it" }),
  response: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: "the paid response body (billing and receipt may stay in); its hash is checked against response_hash" }),
});

/** Decode the `receipt` query value: base64url of the JSON, or the JSON itself. */
export function decodeReceiptParam(value: string): unknown {
  const text = value.trimStart().startsWith("{") ? value : /^[A-Za-z0-9_-]+=*$/.test(value) ? Buffer.from(value, "base64url").toString("utf8") : null;
  if (text === null) throw new ApiError(400, "invalid_receipt", "receipt must be the receipt JSON encoded as base64url");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, "invalid_receipt", `receipt does not decode to JSON (${value.length} characters given)`);
  }
}

/** The receipt routes over a key source (the process key by default). */
export function createReceiptRoutes(getKey: () => Promise<ReceiptKey>) {
  const keyMap = async () => {
    const key = await getKey();
    return new Map([[key.kid, key.publicKey]]);
  };
  return [
    defineRoute({
      method: "GET",
      path: "/.well-known/receipt-key.json",
      tier: "discovery",
      tags: ["receipts"],
      summary: "Public Ed25519 key(s) that sign premium receipts, JWK-like (kid, alg EdDSA, crv Ed25519, kty OKP, x base64url).",
      description:
        "The key id (kid) is the first 16 hex characters of sha256 of the 32-byte public key; a receipt names its key in key_id. The key comes from RECEIPT_SIGNING_KEY or is generated once and kept in DATA_DIR/receipt-key.json.",
      response: ReceiptKeysResponse,
      render: async () => ({ ok: true as const, keys: [publicJwk(await getKey())] }),
    }),
    defineRoute({
      method: "GET",
      path: "/api/receipt/verify",
      // base64url of "{}": answers valid: false, reason malformed_receipt.
      example: "/api/receipt/verify?receipt=e30",
      tier: "free",
      tags: ["receipts"],
      summary: "Verify a premium receipt given as base64url JSON in ?receipt=.",
      description:
        "Checks the receipt's shape, that key_id and id match their signed copies, that the key is this service's, and the Ed25519 signature over the RFC 8785 canonical JSON of `signed`. Answers valid false with a reason rather than an error; 400 only when the parameter is not base64url JSON. To also check a response body, POST { receipt, response }.",
      query: VerifyQuery,
      response: VerifyResponse,
      render: async (_ctx, { query }) => ({ ok: true as const, ...verifyReceipt(decodeReceiptParam(query.receipt), await keyMap()) }),
    }),
    defineRoute({
      method: "POST",
      path: "/api/receipt/verify",
      tier: "free",
      tags: ["receipts"],
      summary: "Verify a premium receipt: body { receipt } or { receipt, response } to also check the response hash.",
      description:
        "`response` is the paid body as received; billing and receipt are dropped before hashing, so the whole body can be sent as is. valid is true only when the signature holds and, with a response, its sha256 of canonical JSON equals signed.response_hash (response_matches says which failed).",
      body: VerifyBody,
      response: VerifyResponse,
      handle: async (_ctx, { body }) => {
        const b = body as z.infer<typeof VerifyBody>;
        return { ok: true as const, ...verifyReceipt(b.receipt, await keyMap(), b.response) };
      },
    }),
  ];
}

/** The receipt routes over this process's key (RECEIPT_SIGNING_KEY or DATA_DIR/receipt-key.json). */
export const receiptRoutes = createReceiptRoutes(() => processReceiptKey());
