/**
 * Protections at the Node http layer, before any routing: security headers on every response, a 413 (and a
 * closed connection) for a declared body larger than any route accepts, JSON answers for CONNECT, for an
 * Expect other than 100-continue and for requests Node's parser refuses, and the header/body deadlines (10 s each) that end slow-loris clients with
 * 408. Policy is documented in api/security.md.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { CORS_HEADERS } from "./cors.ts";
import { JSON_TYPE } from "./respond.ts";

/** Headers every response carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  // JSON needs none of these sources; HTML pages (/docs, the dashboard at /) load their scripts, stylesheets and
  // images from this origin only, and the dashboard's script reads the API of this origin (connect-src).
  "Content-Security-Policy": "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

/** Time a client has to send all its headers, and the whole request. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 10_000;

/** Server options that make Node enforce the deadlines promptly (its default check runs every 30 s). */
// Node's own check of the Host header answers with an empty 400; refuseWithoutHost does the same check with JSON.
export const SERVER_OPTIONS = { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1000, requireHostHeader: false } as const;

/** An HTTP/1.1 request without a Host header gets a JSON 400 (RFC 9112 §3.2); true when it was answered here. */
export function refuseWithoutHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return false;
  refuse(res, 400, errorJson("bad_request", "an HTTP/1.1 request needs a Host header"));
  return true;
}

function errorJson(code: string, message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...extra, ok: false, error: code, message });
}

/** Write a JSON error on a response and close the connection after it. */
function refuse(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...CORS_HEADERS, ...headers, "Content-Type": JSON_TYPE, "Cache-Control": "no-store", Connection: "close" });
  res.end(body);
}

/**
 * Per request, before routing: set the security headers, and answer a declared body above `maxBodyBytes`
 * with 413 without reading it. Returns true when the request was answered here.
 */
export function guardRequest(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number): boolean {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  const declared = req.headers["content-length"];
  if (declared !== undefined && (!/^\d{1,15}$/.test(declared) || Number(declared) > maxBodyBytes)) {
    const valid = /^\d{1,15}$/.test(declared);
    refuse(
      res,
      valid ? 413 : 400,
      valid
        ? errorJson("body_too_large", `the request body is larger than any endpoint accepts (${maxBodyBytes} bytes)`, { limit_bytes: maxBodyBytes })
        : errorJson("bad_request", "Content-Length is not a number"),
    );
    return true;
  }
  return false;
}

/** A raw HTTP/1.1 JSON answer written on a socket that has no ServerResponse (CONNECT, parser errors). */
function rawAnswer(socket: Duplex, status: number, reason: string, body: string, extra = ""): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const headers =
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-store\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nAccess-Control-Allow-Origin: *\r\n${extra}\r\n`;
  socket.end(headers + body);
}

/** Attach the CONNECT and parser-error answers to a server (timeouts come from SERVER_OPTIONS). */
export function hardenServer(server: Server): void {
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    rawAnswer(socket, 405, "Method Not Allowed", errorJson("method_not_allowed", "CONNECT is not served here; this is an HTTP API, not a proxy"), "Allow: GET, HEAD, POST, OPTIONS\r\n");
  });
  // An Expect other than 100-continue: Node's own 417 has no body and no security or CORS headers.
  server.on("checkExpectation", (_req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    refuse(res, 417, errorJson("expectation_failed", "the Expect header asks for something other than 100-continue, the only expectation served; send the request without it"));
  });
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      rawAnswer(socket, 408, "Request Timeout", errorJson("request_timeout", `the request did not arrive within ${REQUEST_TIMEOUT_MS / 1000} s`));
    } else if (err.code === "HPE_HEADER_OVERFLOW") {
      rawAnswer(socket, 431, "Request Header Fields Too Large", errorJson("headers_too_large", "the request headers are too large"));
    } else if (err.code === "HPE_INVALID_METHOD") {
      rawAnswer(socket, 405, "Method Not Allowed", errorJson("method_not_allowed", "unknown HTTP method; use GET, HEAD, POST or OPTIONS"), "Allow: GET, HEAD, POST, OPTIONS\r\n");
    } else {
      rawAnswer(socket, 400, "Bad Request", errorJson("bad_request", "the request is not valid HTTP/1.1"));
    }
  });
}
