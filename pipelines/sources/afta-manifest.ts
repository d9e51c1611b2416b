/**
 * The agent fair-trade (AFTA) manifest a publisher serves at `https://<domain>/.well-known/agent-fair-trade.json`.
 * No central registry or rate limit: one small request per listed domain per daily run.
 *
 * A manifest is `valid` when it is a JSON object with (extra fields always allowed):
 * - `standard`: non-empty string naming the standard;
 * - `version`: string or number (served as a string);
 * - `publisher`: object with a non-empty `name` and an http(s) `url`;
 * - `no_charge_guarantees` (or `guarantees`): a non-empty array of strings or objects with a string `id`.
 * Anything else that parses is `invalid`, with the first problems named in `reason`.
 */
import { z } from "zod";

const REASON_MAX = 300;

const guarantee = z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]);

/**
 * Tolerant schema of a manifest: the required fields only; everything else passes through. One of
 * `no_charge_guarantees` / `guarantees` must be present (checked by classifyManifest, so every missing field is
 * reported at once).
 */
export const aftaManifestSchema = z.looseObject({
  standard: z.string().trim().min(1),
  version: z.union([z.string().trim().min(1), z.number()]),
  publisher: z.looseObject({ name: z.string().trim().min(1), url: z.url({ protocol: /^https?$/ }) }),
  no_charge_guarantees: z.array(guarantee).min(1).optional(),
  guarantees: z.array(guarantee).min(1).optional(),
});

/** What a fetched manifest body says. */
export type ManifestCheck = { status: "valid"; version: string } | { status: "invalid"; reason: string };

/** Classify a manifest body: valid (with its version) or invalid (with the reason). */
export function classifyManifest(body: string): ManifestCheck {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return { status: "invalid", reason: clip(`body is not JSON (${(error as Error).message})`) };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    return { status: "invalid", reason: `manifest is not a JSON object (got ${Array.isArray(json) ? "array" : json === null ? "null" : typeof json})` };
  }
  const result = aftaManifestSchema.safeParse(json);
  const problems = result.success ? [] : result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  if (!("no_charge_guarantees" in json) && !("guarantees" in json)) problems.push("no_charge_guarantees: required (or guarantees)");
  if (!result.success || problems.length > 0) {
    return { status: "invalid", reason: clip(`missing or malformed fields: ${problems.slice(0, 4).join("; ")}`) };
  }
  return { status: "valid", version: String(result.data.version) };
}

function clip(s: string): string {
  return s.length <= REASON_MAX ? s : `${s.slice(0, REASON_MAX - 1)}…`;
}
