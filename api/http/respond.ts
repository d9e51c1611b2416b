/**
 * A Response for h3 to send on Node: srvx's `FastResponse` (the response class h3 itself uses there) keeps a
 * string or bytes body as it is and writes it with one `end()` and a Content-Length, where the platform's
 * `Response` would wrap it in a web stream and send it chunked. The status line carries its standard reason
 * phrase ("400 Bad Request"), not an empty one.
 */
import { STATUS_CODES } from "node:http";
import { FastResponse } from "srvx";

/** The media type of every JSON answer. */
export const JSON_TYPE = "application/json; charset=utf-8";

/** A Response with `body`, `status` and `headers`. */
export function respond(body: string | Uint8Array | null, status: number, headers: Headers | Record<string, string>): Response {
  return new FastResponse(body as ConstructorParameters<typeof Response>[0], { status, statusText: STATUS_CODES[status], headers });
}
