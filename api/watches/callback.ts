/** The callback URL check made at registration (the address check at delivery lives in api/webhooks/). */
import { ApiError } from "../registry/types.ts";
import { checkCallbackUrl, type LookupAll } from "../webhooks/callback-check.ts";

/** Longest callback URL accepted (the watches table allows the same). */
export const CALLBACK_URL_MAX = 2048;

/**
 * The callback URL as it will be stored (WHATWG-normalized), or 400 invalid_callback_url: http or https only,
 * at most 2048 characters, a host, a port from 1 to 65535 when one is given, no user name or password.
 */
export function checkCallbackAtRegistration(url: string): string {
  const refuse = (why: string) => new ApiError(400, "invalid_callback_url", `callback_url ${why}; nothing was charged`);
  if (typeof url !== "string" || url.length === 0) throw refuse("is required");
  if (url.length > CALLBACK_URL_MAX) throw refuse(`is longer than ${CALLBACK_URL_MAX} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The parser refuses a port above 65535 too: say so rather than "not a URL".
    const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(url)?.[1];
    if (port !== undefined && Number(port) > 65535) throw refuse(`has port ${port.slice(0, 12)}, above 65535`);
    throw refuse("is not an absolute URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw refuse(`must be http or https, not ${parsed.protocol.replace(/:$/, "")}`);
  if (parsed.username !== "" || parsed.password !== "") throw refuse("must not carry a user name or password");
  if (parsed.hostname === "") throw refuse("has no host");
  if (parsed.port === "0") throw refuse("has port 0, which nothing can be delivered to");
  const normalized = parsed.href;
  if (normalized.length > CALLBACK_URL_MAX) throw refuse(`is longer than ${CALLBACK_URL_MAX} characters once normalized`);
  return normalized;
}

/**
 * The whole registration check: {@link checkCallbackAtRegistration}, then the address policy of delivery
 * (api/webhooks/callback-check.ts): a host that is or resolves to a loopback, private, link-local, metadata …
 * address is 400 callback_not_public unless WATCHES_ALLOW_PRIVATE_CALLBACKS is on. A name that does not
 * resolve now is accepted: DNS may not be live yet, and every delivery attempt checks the address again
 * before connecting (and retries), so nothing is ever sent to an address that was not checked.
 */
export async function checkCallbackForRegistration(url: string, options: { allowPrivate: boolean; lookup?: LookupAll }): Promise<string> {
  const normalized = checkCallbackAtRegistration(url);
  const checked = await checkCallbackUrl(normalized, options);
  if (!checked.ok && checked.error !== "callback_unresolvable") throw new ApiError(400, checked.error, `${checked.message}; nothing was charged`);
  return normalized;
}
