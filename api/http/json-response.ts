/** JSON answers built for one request (errors, premium answers): never cached, readable from any origin. */
import { setCorsHeaders } from "./cors.ts";
import { JSON_TYPE, respond } from "./respond.ts";

/**
 * `text` as a JSON answer with `extra` headers, the CORS headers every response carries (`exposeHeaders`
 * replaces the default Access-Control-Expose-Headers), the JSON type and `Cache-Control: no-store`.
 */
export function respondJson(text: string, status: number, extra: Record<string, string> = {}, exposeHeaders?: string): Response {
  const headers = new Headers(extra);
  setCorsHeaders(headers);
  if (exposeHeaders !== undefined) headers.set("Access-Control-Expose-Headers", exposeHeaders);
  headers.set("Content-Type", JSON_TYPE);
  headers.set("Cache-Control", "no-store");
  return respond(text, status, headers);
}
