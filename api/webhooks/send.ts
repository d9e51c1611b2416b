/**
 * One delivery attempt: check the callback URL (resolving its host once), then POST to exactly the checked
 * address — the socket's lookup is pinned to it, so no second DNS lookup happens, while the Host header and
 * the TLS server name stay the URL's host. Redirects are not followed (a 3xx is a failed attempt), the whole
 * attempt is bounded by a time-out (5 s by default), and at most 64 KB of the response body is read, then
 * the connection is dropped.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolveCallback, type LookupAll } from "./callback-check.ts";

/** Attempt time-out. */
export const SEND_TIMEOUT_MS = 5000;
/** Bytes of response body read at most. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Keep-alive agents shared by all attempts. A pooled socket was opened to an address that passed the check when
 * it was opened (the pool is keyed by host name and port), so reuse never reaches an unchecked address, and every
 * attempt still re-checks the name before it sends.
 */
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000, scheduling: "lifo" }),
};

/** What one attempt came to. */
export interface SendOutcome {
  /** True on a 2xx answer. */
  delivered: boolean;
  /** The HTTP status, or null when no answer came. */
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed (not sanitized here), or null when delivered. */
  error: string | null;
  /** True when retrying cannot help (the URL itself is invalid). */
  permanent: boolean;
}

/** Options of one attempt. */
export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowPrivate: boolean;
  lookup?: LookupAll;
  timeoutMs?: number;
}

/** Send one webhook POST; never throws. */
export async function sendWebhook(options: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const target = await resolveCallback(options.url, { allowPrivate: options.allowPrivate, lookup: options.lookup, lookupTimeoutMs: timeoutMs });
  if (!target.ok) {
    return { delivered: false, statusCode: null, latencyMs: elapsed(), error: `${target.error}: ${target.message}`, permanent: target.error === "invalid_callback_url" };
  }
  const { url, address, family } = target;
  // Pinned lookup: whatever name the socket asks for, it gets the address that was checked.
  const pinned = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const remaining = Math.max(1, timeoutMs - elapsed());
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, "latencyMs" | "permanent">) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, latencyMs: elapsed(), permanent: false });
    };
    const request = (url.protocol === "https:" ? https : http).request(
      {
        method: "POST",
        protocol: url.protocol,
        hostname: target.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        lookup: pinned,
        agent: agents[url.protocol as "http:" | "https:"],
        ...(url.protocol === "https:" ? { servername: target.hostname } : {}),
        headers: {
          ...options.headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(options.body, "utf8")),
          "user-agent": "agentfeed-webhooks/1",
        },
      },
      (response) => {
        // The status decides the attempt; the body is then read (and dropped) up to 64 KB or the deadline.
        const statusCode = response.statusCode ?? null;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        finish({ delivered: ok, statusCode, error: ok ? null : describeStatus(statusCode) });
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_RESPONSE_BYTES) request.destroy();
        });
        // Read to the end (the socket then returns to the pool); errors only drop the socket.
        response.on("end", () => {
          ended = true;
          clearTimeout(timer);
        });
        response.on("error", () => request.destroy());
      },
    );
    // Until the response has ended, the socket is this attempt's alone; after, it may serve another.
    let ended = false;
    const timer = setTimeout(() => {
      finish({ delivered: false, statusCode: null, error: `timed out after ${timeoutMs} ms` });
      if (!ended) request.destroy();
    }, remaining);
    request.on("close", () => clearTimeout(timer));
    request.on("error", (error: NodeJS.ErrnoException) => finish({ delivered: false, statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message }));
    request.end(options.body, "utf8");
  });
}

function describeStatus(statusCode: number | null): string {
  if (statusCode !== null && statusCode >= 300 && statusCode < 400) return `HTTP ${statusCode}: redirects are not followed`;
  return `HTTP ${statusCode ?? "?"}`;
}
