/**
 * Webhook signatures. One key per watch: the secret's bytes after `whsec_` decoded from base64 (the Standard
 * Webhooks secret form); any other secret is used as its UTF-8 bytes (registration refuses a `whsec_` secret not
 * in that form: `whsecSecretProblem`). With that key:
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 over the raw body bytes exactly as sent (UTF-8).
 * - `webhook-signature: v1,<base64>`: HMAC-SHA256 over the UTF-8 bytes of `<webhook-id>.<webhook-timestamp>.<body>`
 *   (Standard Webhooks), so receivers can verify with its libraries.
 * `webhook-timestamp` is the attempt's time in whole Unix seconds; `webhook-id` is the outbox row id, the same on
 * every attempt.
 */
import { createHmac } from "node:crypto";

const WHSEC_PREFIX = "whsec_";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Fewest key bytes a `whsec_` secret must decode to at registration. */
export const WHSEC_MIN_KEY_BYTES = 16;

/**
 * Why a `whsec_` secret cannot be registered, or null when it can (or does not start with `whsec_`): the part
 * after the prefix must be canonical padded standard base64 (what Buffer and the Standard Webhooks libraries
 * encode) of at least 16 bytes. Other forms would be signed with the whole text's UTF-8 bytes, which receivers
 * decoding the prefix form could not verify.
 */
export function whsecSecretProblem(secret: string): string | null {
  if (!secret.startsWith(WHSEC_PREFIX)) return null;
  const encoded = secret.slice(WHSEC_PREFIX.length);
  const bytes = BASE64.test(encoded) && encoded.length % 4 === 0 ? Buffer.from(encoded, "base64") : null;
  if (bytes === null || bytes.toString("base64") !== encoded) {
    return `a secret starting with ${WHSEC_PREFIX} must continue with canonical padded standard base64 (A-Z a-z 0-9 + /, = padding to a multiple of 4 characters, no base64url - or _); omit the ${WHSEC_PREFIX} prefix to use the text itself as the key`;
  }
  if (bytes.length < WHSEC_MIN_KEY_BYTES) return `a ${WHSEC_PREFIX} secret must encode at least ${WHSEC_MIN_KEY_BYTES} bytes (it encodes ${bytes.length})`;
  return null;
}

/** The HMAC key of a watch secret. */
export function signingKey(secret: string): Buffer {
  if (secret.startsWith(WHSEC_PREFIX)) {
    const encoded = secret.slice(WHSEC_PREFIX.length);
    if (BASE64.test(encoded) && encoded.length % 4 === 0) return Buffer.from(encoded, "base64");
  }
  return Buffer.from(secret, "utf8");
}

/** The signature headers of one delivery attempt. */
export function signatureHeaders(input: { secret: string; id: string; timestampSeconds: number; body: string }): Record<string, string> {
  const key = signingKey(input.secret);
  const timestamp = String(Math.floor(input.timestampSeconds));
  const hex = createHmac("sha256", key).update(input.body, "utf8").digest("hex");
  const standard = createHmac("sha256", key).update(`${input.id}.${timestamp}.${input.body}`, "utf8").digest("base64");
  return {
    "x-service-signature": `sha256=${hex}`,
    "webhook-id": input.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${standard}`,
  };
}
