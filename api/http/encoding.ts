/** Content negotiation and validators for cached bodies: Accept-Encoding choice and If-None-Match matching. */
import { createHash } from "node:crypto";

/** Encodings the server can send, best first. */
export type Encoding = "br" | "gzip";

/** Recent Accept-Encoding values and their choice: clients send a handful of distinct values. */
const picked = new Map<string, Encoding | null>();
const PICKED_MAX = 256;

/** The best encoding the client accepts (q > 0), or null for identity. */
export function pickEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const known = picked.get(acceptEncoding);
  if (known !== undefined) return known;
  const choice = negotiate(acceptEncoding);
  if (picked.size >= PICKED_MAX) picked.clear();
  if (acceptEncoding.length <= 200) picked.set(acceptEncoding, choice);
  return choice;
}

function negotiate(acceptEncoding: string): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q=([\d.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    accepted.set(name.trim(), Number.isFinite(q) ? q : 0);
  }
  const star = accepted.get("*");
  for (const enc of ["br", "gzip"] as const) {
    const q = accepted.get(enc) ?? star;
    if (q !== undefined && q > 0) return enc;
  }
  return null;
}

/** Strong ETag of a body: a quoted base64url SHA-1 prefix. */
export function etagOf(bytes: Uint8Array): string {
  return `"${createHash("sha1").update(bytes).digest("base64url").slice(0, 22)}"`;
}

/** The ETag of an encoded variant (a different representation gets a different strong validator). */
export function variantEtag(etag: string, encoding: Encoding | null): string {
  return encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag;
}

/** True when If-None-Match names any variant of `etag` (weak comparison, as RFC 9110 asks for GET). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const base = etag.slice(1, -1);
  for (const raw of header.split(",")) {
    const tag = raw.trim().replace(/^W\//, "");
    if (!tag.startsWith('"') || !tag.endsWith('"')) continue;
    const inner = tag.slice(1, -1).replace(/-(br|gzip)$/, "");
    if (inner === base) return true;
  }
  return false;
}
