/**
 * Webhook signatures. One key per watch: the secret's bytes after `whsec_` decoded from base64 (the Standard
 * Webhooks secret form); a secret not in that form is used as its UTF-8 bytes. With that key:
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 over the raw body bytes exactly as sent (UTF-8).
 * - `webhook-signature: v1,<base64>`: HMAC-SHA256 over the UTF-8 bytes of `<webhook-id>.<webhook-timestamp>.<body>`
 *   (Standard Webhooks), so receivers can verify with its libraries.
 * `webhook-timestamp` is the attempt's time in whole Unix seconds; `webhook-id` is the outbox row id, the same on
 * every attempt.
 */
import { createHmac } from "node:crypto";

const WHSEC_PREFIX = "whsec_";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

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
