/** How premium answers leave: JSON, no-store, CORS with the payment headers exposed. */
import { CORS_HEADERS } from "../http/cors.ts";
import { respondJson } from "../http/json-response.ts";
import { X402_HEADERS } from "./x402.ts";

/** A finished answer before it becomes a Response. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** `body` already serialized (the 200 answer of a paid call); JSON.stringify(body) when absent. */
  text?: string;
  headers?: Record<string, string>;
  /** Stored for Idempotency-Key replays (2xx, and 4xx from the handler); other answers leave the key free. */
  definitive: boolean;
}

/** Headers browsers may read on premium answers, beyond the common ones. */
const PREMIUM_EXPOSED = [X402_HEADERS.required, X402_HEADERS.response, X402_HEADERS.token, "Idempotent-Replayed"];
const EXPOSED = `${CORS_HEADERS["Access-Control-Expose-Headers"]}, ${PREMIUM_EXPOSED.join(", ")}`;
/** The Response of an answer, with `extra` headers (X-Payment-Token) added. */
export function reply(answer: Answer, extra: Record<string, string>): Response {
  return replyBytes(answer.status, answer.text ?? JSON.stringify(answer.body), { ...extra, ...answer.headers });
}

/** The Response of already serialized JSON (a stored Idempotency-Key answer). */
export function replyBytes(status: number, body: string, extra: Record<string, string>): Response {
  return respondJson(body, status, extra, EXPOSED);
}
