/**
 * PyPI's JSON API, `GET https://pypi.org/pypi/<name>/json` (public, no key; https://docs.pypi.org/api/json/):
 * `info.version` is the latest release, `releases: { <version>: [files { upload_time_iso_8601, yanked }] }`.
 *
 * `parsePypiProject` reads it tolerantly: versions that PEP 440 cannot read are dropped, the rest sorted by
 * PEP 440; the latest counts as yanked when every file of it is.
 */
import * as pep440 from "@renovatebot/pep440";
import { z } from "zod";
import { MAX_VERSIONS, type RegistryRelease } from "./npm-registry.ts";

export const pypiProjectUrl = (name: string) => `https://pypi.org/pypi/${encodeURIComponent(name)}/json`;
export const pypiPageUrl = (name: string) => `https://pypi.org/project/${name}/`;

/** A body that is not a project document. */
export class PypiParseError extends Error {
  override name = "PypiParseError";
}

const project = z.looseObject({
  info: z.looseObject({ name: z.string(), version: z.string() }),
  releases: z.record(z.string(), z.array(z.looseObject({ yanked: z.boolean().nullish() }))).nullish(),
});

export function parsePypiProject(body: string): RegistryRelease {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new PypiParseError("PyPI project document is not JSON");
  }
  const parsed = project.safeParse(json);
  if (!parsed.success) throw new PypiParseError(`not a PyPI project document: ${parsed.error.issues[0]?.path.join(".") ?? ""}`);
  const releases = parsed.data.releases ?? {};
  const versions = Object.keys(releases).filter((v) => v.length <= 80 && pep440.valid(v) !== null).sort(pep440.compare).slice(-MAX_VERSIONS);
  const info = parsed.data.info.version.trim();
  const latest = pep440.valid(info) !== null ? info : (versions.at(-1) ?? null);
  const files = latest === null ? [] : (releases[latest] ?? []);
  return { latest_version: latest, versions, latest_deprecated: files.length > 0 && files.every((f) => f.yanked === true) };
}
