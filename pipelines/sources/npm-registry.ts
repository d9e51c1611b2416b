/**
 * The npm registry's package document, `GET https://registry.npmjs.org/<name>` with
 * `Accept: application/vnd.npm.install-v1+json` (the abbreviated "corgi" form: `name`, `modified`,
 * `dist-tags`, `versions: { <version>: { deprecated?, … } }`; public, no key). A scoped name keeps its `@` and
 * has its `/` written `%2F`.
 *
 * `parseNpmPackument` reads it tolerantly and returns the latest version, every version (SemVer order, newest
 * kept when capped) and whether the latest one is deprecated.
 */
import semver from "semver";
import { z } from "zod";

export const NPM_ABBREVIATED = "application/vnd.npm.install-v1+json";
export const npmPackumentUrl = (name: string) => `https://registry.npmjs.org/${name.startsWith("@") ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name)}`;
export const npmPackageUrl = (name: string) => `https://www.npmjs.com/package/${name}`;

/** A body that is not a package document. */
export class NpmRegistryParseError extends Error {
  override name = "NpmRegistryParseError";
}

const packument = z.looseObject({
  name: z.string(),
  "dist-tags": z.record(z.string(), z.string()).nullish(),
  versions: z.record(z.string(), z.looseObject({ deprecated: z.union([z.string(), z.boolean()]).nullish() })),
});

/** What the security feed keeps of a package. */
export interface RegistryRelease {
  latest_version: string | null;
  versions: string[];
  latest_deprecated: boolean;
}

/** Versions kept per package at most (the newest). */
export const MAX_VERSIONS = 3000;

export function parseNpmPackument(body: string): RegistryRelease {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new NpmRegistryParseError("npm package document is not JSON");
  }
  const parsed = packument.safeParse(json);
  if (!parsed.success) throw new NpmRegistryParseError(`not an npm package document: ${parsed.error.issues[0]?.path.join(".") ?? ""}`);
  const versions = Object.keys(parsed.data.versions).filter((v) => v.length <= 80 && semver.valid(v) !== null).sort(semver.compare).slice(-MAX_VERSIONS);
  const tagged = parsed.data["dist-tags"]?.["latest"];
  const latest = tagged !== undefined && versions.includes(tagged) ? tagged : (versions.at(-1) ?? null);
  const deprecated = latest === null ? undefined : parsed.data.versions[latest]?.deprecated;
  return { latest_version: latest, versions, latest_deprecated: typeof deprecated === "string" ? deprecated.length > 0 : deprecated === true };
}
