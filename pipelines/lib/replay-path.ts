/**
 * Where a recorded upstream response lives for replay: `<dir>/<host>/<path>`.
 *
 * - The host keeps its port when it has one (`localhost_8080`).
 * - An empty path or one ending in `/` gets `index` appended.
 * - A query string is appended as `@<query>`, each character outside `A-Z a-z 0-9 . _ - = & ,` written as
 *   `%XX` (so `?q=cat:cs.AI&max=5` becomes `@q=cat%3Acs.AI&max=5`). Parameter order is kept as requested.
 * - An optional sidecar `<file>.meta.json` ({ status, headers, delayMs }) records a non-200 status, headers,
 *   or a slow answer.
 */
export function replayPathFor(url: string): string {
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
  return `${host}${path}${encodedQuery}`;
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
