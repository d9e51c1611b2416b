/**
 * Version schemes of the package ecosystems the security verdicts cover, each on the well-kept library of its
 * specification: npm versions and ranges are SemVer 2.0 as node-semver reads them (`semver`), PyPI versions and
 * specifiers are PEP 440 as `@renovatebot/pep440` reads them (epochs, pre-, post- and dev-releases, local
 * versions, `~=`, `===`). Pure: no I/O.
 */
import * as pep440 from "@renovatebot/pep440";
import semver from "semver";

/** The ecosystems covered, with OSV's names. */
export type Ecosystem = "npm" | "PyPI";

/** What the verdicts need of a version scheme. */
export interface VersionScheme {
  /** The version in canonical form, or null when it is not a version of this scheme. */
  parse(version: string): string | null;
  /** Negative, zero or positive as a sorts before, with or after b (both valid). */
  compare(a: string, b: string): number;
  /** Whether `version` satisfies a range or specifier of the ecosystem's own syntax (`^1.2.0`, `>=2.0,<2.31`, `~=1.4.2`); false when either is invalid. */
  satisfies(version: string, range: string): boolean;
  /** The major release line (npm: major; PyPI: first release segment, epoch-qualified when an epoch is set). */
  major(version: string): string;
}

const npmScheme: VersionScheme = {
  parse: (version) => semver.valid(version.trim().replace(/^v(?=\d)/, "")),
  compare: (a, b) => semver.compare(a, b),
  satisfies: (version, range) => {
    const v = npmScheme.parse(version);
    // A pre-release matches only ranges that name a pre-release of the same tuple (node-semver's rule, npm's too).
    return v !== null && semver.validRange(range) !== null && semver.satisfies(v, range);
  },
  major: (version) => String(semver.major(version)),
};

const pypiScheme: VersionScheme = {
  parse: (version) => {
    const v = version.trim();
    return pep440.valid(v) === null ? null : (pep440.clean(v) ?? v);
  },
  compare: (a, b) => pep440.compare(a, b),
  satisfies: (version, range) => pep440.valid(version) !== null && pep440.validRange(range) && pep440.satisfies(version, range),
  major: (version) => {
    const parsed = pep440.parse(version)!;
    return parsed.epoch ? `${parsed.epoch}!${parsed.release[0]}` : String(parsed.release[0]);
  },
};

/** The scheme of an ecosystem. */
export function schemeOf(ecosystem: Ecosystem): VersionScheme {
  return ecosystem === "npm" ? npmScheme : pypiScheme;
}
