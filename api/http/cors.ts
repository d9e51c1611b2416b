/** CORS for the public API: any origin, no credentials, the caching and rate-limit headers exposed. */
import { respond } from "./respond.ts";

const EXPOSE = [
  "ETag",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
  "Content-Encoding",
  // Byte-range downloads (warehouse files): what a reader in a browser needs to see.
  "Content-Range",
  "Content-Length",
  "Accept-Ranges",
  "Last-Modified",
].join(", ");

/** The CORS headers every response carries. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSE,
};

/** Set the CORS headers every response carries. */
export function setCorsHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
}

/** A 204 answer to an OPTIONS preflight for a path that allows `methods`. */
export function preflightResponse(methods: readonly string[], requestHeaders: string | null): Response {
  const headers = new Headers();
  setCorsHeaders(headers);
  headers.set("Access-Control-Allow-Methods", [...methods, "OPTIONS"].join(", "));
  headers.set(
    "Access-Control-Allow-Headers",
    requestHeaders && /^[\w\-, ]{1,500}$/.test(requestHeaders)
      ? requestHeaders
      : "Authorization, Content-Type, If-None-Match, Idempotency-Key, X-Payment-Tx, X-Payment-Quote, PAYMENT-SIGNATURE",
  );
  headers.set("Access-Control-Max-Age", "86400");
  headers.set("Allow", [...methods, "OPTIONS"].join(", "));
  return respond(null, 204, headers);
}
