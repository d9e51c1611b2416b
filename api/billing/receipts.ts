/**
 * Signed receipts: Ed25519 (EdDSA) over the RFC 8785 canonical JSON of the signed fields. A receipt proves
 * which endpoint answered which request (request hash) with which body (response hash), what it charged and
 * why not, when, and with which key.
 */
import { z } from "zod";
import { clip } from "../http/clip.ts";
import { canonicalJson, responseHash } from "./canonical.ts";
import * as ed from "./ed25519.ts";
import type { ReceiptKey } from "./receipt-key.ts";
import { randomHex } from "./random-ids.ts";

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in lower-case hex");

/** The fields a receipt signs. */
export const SignedFields = z.strictObject({
  id: z.string().min(1),
  endpoint: z.string().min(1),
  request_hash: Hex64,
  response_hash: Hex64,
  credits_charged: z.number().int().nonnegative(),
  no_charge_reason: z.string().nullable(),
  time: z.string().min(1),
  key_id: z.string().min(1),
});
export type SignedFields = z.infer<typeof SignedFields>;

/** A receipt as paid responses carry it. */
export const Receipt = z.strictObject({
  id: z.string().min(1),
  signing_alg: z.literal("EdDSA"),
  signing_curve: z.literal("Ed25519"),
  signature: z.string().regex(/^[A-Za-z0-9_-]+$/, "base64url without padding"),
  key_id: z.string().min(1),
  signed: SignedFields,
});
export type Receipt = z.infer<typeof Receipt>;

/** A new receipt id: `rcpt_` and 24 hex characters. */
export function newReceiptId(): string {
  return `rcpt_${randomHex(12)}`;
}

/** The text a receipt signature covers (its UTF-8 bytes are signed). */
export function signingText(signed: SignedFields): string {
  return canonicalJson(signed);
}

/** The bytes a receipt signature covers. */
export function signingInput(signed: SignedFields): Uint8Array {
  return new TextEncoder().encode(signingText(signed));
}

/** A receipt of signed fields and their base64url signature. */
export function receiptOf(signed: SignedFields, signature: string): Receipt {
  return { id: signed.id, signing_alg: "EdDSA", signing_curve: "Ed25519", signature, key_id: signed.key_id, signed };
}

/** Sign the fields of one paid call (id and key_id are filled in). */
export function signReceipt(
  key: ReceiptKey,
  fields: Omit<SignedFields, "id" | "key_id"> & { id?: string },
): Receipt {
  const signed: SignedFields = {
    id: fields.id ?? newReceiptId(),
    endpoint: fields.endpoint,
    request_hash: fields.request_hash,
    response_hash: fields.response_hash,
    credits_charged: fields.credits_charged,
    no_charge_reason: fields.no_charge_reason,
    time: fields.time,
    key_id: key.kid,
  };
  return receiptOf(signed, Buffer.from(ed.sign(signingInput(signed), key.seed)).toString("base64url"));
}

/** Why a receipt did not verify. */
export type InvalidReason =
  | "malformed_receipt"
  | "id_mismatch"
  | "key_id_mismatch"
  | "unknown_key"
  | "bad_signature"
  | "response_mismatch";

/** Outcome of {@link verifyReceipt}. */
export interface Verification {
  valid: boolean;
  key_id: string | null;
  reason?: InvalidReason;
  /** Set when a response body was given: whether its hash equals the signed response_hash. */
  response_matches?: boolean;
}

/** A receipt's key id as a verification repeats it: client input, so made visible and cut (this service's ids are 16 hex). */
function echoedKeyId(kid: string): string {
  return clip(kid, 64);
}

/** Verify a receipt against the known public keys (kid → 32-byte key); with `response`, also its hash. */
export function verifyReceipt(
  receipt: unknown,
  keys: ReadonlyMap<string, Uint8Array>,
  response?: Record<string, unknown>,
): Verification {
  const parsed = Receipt.safeParse(receipt);
  if (!parsed.success) {
    const kid = receipt && typeof receipt === "object" ? (receipt as { key_id?: unknown }).key_id : undefined;
    return { valid: false, key_id: typeof kid === "string" ? echoedKeyId(kid) : null, reason: "malformed_receipt" };
  }
  const r = parsed.data;
  const kid = echoedKeyId(r.key_id);
  if (r.signed.key_id !== r.key_id) return { valid: false, key_id: kid, reason: "key_id_mismatch" };
  if (r.signed.id !== r.id) return { valid: false, key_id: kid, reason: "id_mismatch" };
  const publicKey = keys.get(r.key_id);
  if (!publicKey) return { valid: false, key_id: kid, reason: "unknown_key" };
  const signature = Buffer.from(r.signature, "base64url");
  if (signature.length !== 64 || signature.toString("base64url") !== r.signature) {
    return { valid: false, key_id: kid, reason: "bad_signature" };
  }
  if (!ed.verify(signature, signingInput(r.signed), publicKey)) return { valid: false, key_id: kid, reason: "bad_signature" };
  if (response !== undefined) {
    const matches = responseHash(response) === r.signed.response_hash;
    return matches
      ? { valid: true, key_id: kid, response_matches: true }
      : { valid: false, key_id: kid, reason: "response_mismatch", response_matches: false };
  }
  return { valid: true, key_id: kid };
}
