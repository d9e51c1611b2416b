import { createHash } from "node:crypto";

/**
 * Where a recorded upstream response lives for replay: `<dir>/<host>/<path>`.
 *
 * - The host keeps its port when it has one (`localhost_8080`).
 * - An empty path or one ending in `/` gets `index` appended.
 * - A query string is appended as `@<query>`, each character outside `A-Z a-z 0-9 . _ - = & ,` written as
 *   `%XX` (so `?q=cat:cs.AI&max=5` becomes `@q=cat%3Acs.AI&max=5`). Parameter order is kept as requested.
 * - A POST with a JSON body (an upstream query API) appends `#post-<digest>`, the first 16 hex characters of
 *   the SHA-256 of the body as sent (`bodyDigest`), so a changed query never replays an old answer.
 * - An optional sidecar `<file>.meta.json` ({ status, headers, delayMs }) records a non-200 status, headers,
 *   or a slow answer.
 */
export function replayPathFor(url: string, postDigest?: string): string {
  const u = new URL(url);
  const host = u.port ? `${u.hostname}_${u.port}` : u.hostname;
  let path = decodeURIComponent(u.pathname);
  if (path === "" || path.endsWith("/")) path += "index";
  const query = u.search.startsWith("?") ? u.search.slice(1) : "";
  const encodedQuery = query
    ? "@" +
      [...decodeQuery(query)]
        .map((ch) => (/[A-Za-z0-9._\-=&,]/.test(ch) ? ch : encodeChar(ch)))
        .join("")
    : "";
  const post = postDigest === undefined ? "" : `#post-${postDigest.replace(/[^0-9a-f]/g, "").slice(0, 16)}`;
  return `${host}${path}${encodedQuery}${post}`;
}

/** The digest a POST body's fixture is keyed by: the first 16 hex characters of its SHA-256. */
export function bodyDigest(body: string): string {
  return createHash("sha256").update(body, "utf8").digest("hex").slice(0, 16);
}

function decodeQuery(query: string): string {
  // Keep `&` and `=` structure; decode escapes so the same URL written two ways maps to one file.
  return query
    .split("&")
    .map((pair) =>
      pair
        .split("=")
        .map((part) => safeDecode(part.replace(/\+/g, " ")))
        .join("="),
    )
    .join("&");
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function encodeChar(ch: string): string {
  return [...Buffer.from(ch, "utf8")].map((b) => "%" + b.toString(16).toUpperCase().padStart(2, "0")).join("");
}
