/**
 * The one serialization every snapshot body goes through: keys sorted at every depth, 2-space indent, a
 * trailing newline. Two runs that produce the same content produce the same bytes, so "changed" is a string
 * comparison and `git log -p` on a snapshot reads as a changelog.
 */

/** Serialize `value` as pretty JSON with object keys sorted recursively and a trailing newline. */
export function stableStringify(value: unknown): string {
  const text = JSON.stringify(sortKeys(value), null, 2);
  if (text === undefined) throw new TypeError(`stableStringify: value of type ${typeof value} has no JSON form`);
  return text + "\n";
}

function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return sortKeys(withJson.toJSON());
  if (Array.isArray(value)) return value.map(sortKeys);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    out[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return out;
}
