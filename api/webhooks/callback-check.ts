/**
 * Checks a webhook callback URL: http(s) only, no credentials, a host that resolves, and (unless private
 * callbacks are allowed) every resolved address public by the address policy. Used at registration
 * (`checkCallbackUrl`) and again before every delivery attempt (`resolveCallback`, which also hands back the
 * checked address so the sender connects to exactly it, with no second lookup).
 *
 * Odd IPv4 spellings (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1, short 127.1) are normalized by the
 * WHATWG URL parser to dotted form before the check, so they are classified like any address.
 */
import { promises as dns } from "node:dns";
import ipaddr from "ipaddr.js";
import { classifyAddress, isLoopbackName, isMetadataAddress, isMetadataName } from "./address-policy.ts";

/** One resolved address of a host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (node:dns lookup by default; tests inject their own). */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

/** Options of a check. */
export interface CallbackCheckOptions {
  /** WATCHES_ALLOW_PRIVATE_CALLBACKS: allow loopback and private addresses (cloud metadata stays refused). */
  allowPrivate: boolean;
  lookup?: LookupAll;
  /** Bound on the DNS lookup (default 3 s). */
  lookupTimeoutMs?: number;
}

/** A failed check: an error code and a message safe to show the caller. */
export interface CallbackRefusal {
  ok: false;
  error: "invalid_callback_url" | "callback_not_public" | "callback_unresolvable";
  message: string;
}

/** A passed check: the parsed URL and the one address to connect to. */
export interface CallbackTarget {
  ok: true;
  url: URL;
  /** The host as written in the URL (no brackets), for the Host header and TLS server name. */
  hostname: string;
  address: string;
  family: 4 | 6;
}

const MAX_URL_LENGTH = 2048;

/** Resolve with node:dns, every address, in the resolver's order. */
export const systemLookup: LookupAll = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** Registration-time check: ok, or why the URL is refused. */
export async function checkCallbackUrl(url: string, options: CallbackCheckOptions): Promise<{ ok: true } | CallbackRefusal> {
  const result = await resolveCallback(url, options);
  return result.ok ? { ok: true } : result;
}

/** Parse, resolve and check a callback URL; on success, the address the sender must connect to. */
export async function resolveCallback(rawUrl: string, options: CallbackCheckOptions): Promise<CallbackTarget | CallbackRefusal> {
  const refuse = (error: CallbackRefusal["error"], message: string): CallbackRefusal => ({ ok: false, error, message });
  if (typeof rawUrl !== "string" || rawUrl.length === 0 || rawUrl.length > MAX_URL_LENGTH) {
    return refuse("invalid_callback_url", `callback_url must be an http(s) URL of at most ${MAX_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refuse("invalid_callback_url", "callback_url is not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse("invalid_callback_url", "callback_url must use http or https");
  if (url.username || url.password) return refuse("invalid_callback_url", "callback_url must not carry a user name or password");
  const hostname = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (!hostname) return refuse("invalid_callback_url", "callback_url has no host");

  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(hostname)) {
    const parsed = ipaddr.parse(hostname);
    addresses = [{ address: parsed.toString(), family: parsed.kind() === "ipv6" ? 6 : 4 }];
  } else {
    if (isMetadataName(hostname) || (!options.allowPrivate && isLoopbackName(hostname))) {
      return refuse("callback_not_public", `callback_url host ${hostname} is not a public address`);
    }
    try {
      addresses = await withTimeout((options.lookup ?? systemLookup)(hostname), options.lookupTimeoutMs ?? 3000);
    } catch (error) {
      return refuse("callback_unresolvable", `callback_url host ${hostname} does not resolve (${shortCause(error)})`);
    }
    if (addresses.length === 0) return refuse("callback_unresolvable", `callback_url host ${hostname} does not resolve`);
  }

  for (const { address } of addresses) {
    if (isMetadataAddress(address)) {
      return refuse("callback_not_public", `callback_url host ${hostname} resolves to a cloud metadata address`);
    }
    if (options.allowPrivate) continue;
    const verdict = classifyAddress(address);
    // Every address must be public: a name answering one public and one private address is refused.
    if (!verdict.public) return refuse("callback_not_public", `callback_url host ${hostname} resolves to a non-public address (${verdict.range})`);
  }
  const first = addresses[0]!;
  return { ok: true, url, hostname, address: first.address, family: first.family };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`lookup timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function shortCause(error: unknown): string {
  const text = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 80);
}
