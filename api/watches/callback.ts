/** The callback URL check made at registration (the address check at delivery lives in api/webhooks/). */
import { ApiError } from "../registry/types.ts";

/** Longest callback URL accepted (the watches table allows the same). */
export const CALLBACK_URL_MAX = 2048;

/**
 * The callback URL as it will be stored (WHATWG-normalized), or 400 invalid_callback_url: http or https only,
 * at most 2048 characters, a host, no user name or password.
 */
export function checkCallbackAtRegistration(url: string): string {
  const refuse = (why: string) => new ApiError(400, "invalid_callback_url", `callback_url ${why}; nothing was charged`);
  if (typeof url !== "string" || url.length === 0) throw refuse("is required");
  if (url.length > CALLBACK_URL_MAX) throw refuse(`is longer than ${CALLBACK_URL_MAX} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse("is not an absolute URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw refuse(`must be http or https, not ${parsed.protocol.replace(/:$/, "")}`);
  if (parsed.username !== "" || parsed.password !== "") throw refuse("must not carry a user name or password");
  if (parsed.hostname === "") throw refuse("has no host");
  const normalized = parsed.href;
  if (normalized.length > CALLBACK_URL_MAX) throw refuse(`is longer than ${CALLBACK_URL_MAX} characters once normalized`);
  return normalized;
}
