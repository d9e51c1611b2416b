/**
 * The URL a 402 names as the resource to pay for (x402 `resource.url`, and the retry step of the quote flow).
 * It goes out in the body and, base64-encoded, in the PAYMENT-REQUIRED header, so it is built from what the
 * route reads, never from the request as sent: the path, and only the query parameters the route declares.
 * Node's clients refuse response headers past 16 KB, so a URL longer than MAX_RESOURCE_URL drops its query,
 * then names the route's path template.
 */
import { declaredQueryNames } from "../registry/query-names.ts";
import type { AnyRoute } from "../registry/types.ts";

/** Longest resource URL a 402 names, in characters. */
export const MAX_RESOURCE_URL = 2048;

/** `baseUrl` + the call's path + its declared query parameters, shortened as above when too long. */
export function resourceUrl(baseUrl: string, route: AnyRoute, url: URL): string {
  const known = declaredQueryNames(route);
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams) if (known.has(name)) kept.append(name, value);
  const query = kept.size > 0 ? `?${kept.toString()}` : "";
  const full = `${baseUrl}${url.pathname}${query}`;
  if (full.length <= MAX_RESOURCE_URL) return full;
  const path = `${baseUrl}${url.pathname}`;
  return path.length <= MAX_RESOURCE_URL ? path : `${baseUrl}${route.path}`;
}
