/**
 * Reading a JSON request body under limits: the route's byte cap (64 KB unless the route declares
 * `maxBodyBytes`), checked on Content-Length and on the bytes that arrive (h3's assertBodySize, a streaming
 * counter that never buffers past the cap); `application/json` (or `+json`) required; nesting deeper than
 * MAX_JSON_DEPTH refused before JSON.parse. Every refusal is an ApiError 4xx with the common error shape.
 */
import { assertBodySize, HTTPError, type H3Event } from "h3";
import { ApiError } from "../registry/types.ts";

/** Body cap of a route that declares none. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
/** Deepest nesting of arrays and objects accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64;

/** The 413 a too-large body gets (the connection is closed after it, see app.ts). */
export function bodyTooLarge(limit: number): ApiError {
  return new ApiError(413, "body_too_large", `the request body is larger than this endpoint's limit of ${limit} bytes`, { limit_bytes: limit });
}

/** True when a Content-Type names JSON: application/json or any application/*+json, parameters allowed. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * The nesting depth of a JSON text (arrays and objects), counted without parsing and ignoring brackets inside
 * strings; stops counting past `stopAt`. Malformed text is left to JSON.parse.
 */
export function jsonDepth(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return max;
}

/** The 400 invalid_body of a body that is not valid JSON (a route may answer it in its own protocol: `notJsonBody`). */
export class NotJsonBody extends ApiError {
  constructor() {
    super(400, "invalid_body", "the request body is not valid JSON");
  }
}

/** Read, bound and parse the JSON body of a request; throws ApiError 400 (NotJsonBody when it does not parse), 413 or 415. */
export async function readJsonBody(event: H3Event, limit: number): Promise<unknown> {
  const req = event.req;
  const declared = req.headers.get("content-length");
  const chunked = req.headers.get("transfer-encoding");
  if (!req.body || (declared !== null && Number(declared) === 0 && !chunked)) {
    throw new ApiError(400, "body_required", "this endpoint needs a JSON body (Content-Type: application/json)");
  }
  if (!isJsonContentType(req.headers.get("content-type"))) {
    throw new ApiError(415, "unsupported_media_type", "the request body must be JSON sent with Content-Type: application/json", {
      accepted: ["application/json"],
    });
  }
  let text: string;
  try {
    assertBodySize(event, limit);
    text = await event.req.text();
  } catch (err) {
    if (err instanceof HTTPError && err.status === 413) throw bodyTooLarge(limit);
    if (err instanceof HTTPError && err.status === 400) {
      throw new ApiError(400, "bad_request", "a request may not carry both Content-Length and Transfer-Encoding");
    }
    throw new ApiError(400, "body_unreadable", "the request body could not be read to its end");
  }
  if (text.trim() === "") throw new ApiError(400, "body_required", "this endpoint needs a JSON body (Content-Type: application/json)");
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError(400, "body_too_deep", `the JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, { max_depth: MAX_JSON_DEPTH });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new NotJsonBody();
  }
}
