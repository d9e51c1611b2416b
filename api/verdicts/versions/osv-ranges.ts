/**
 * Whether a version is affected by an OSV advisory's `affected` entry, per the OSV schema: an explicit `versions`
 * list, and `ranges` of type ECOSYSTEM (compared with the ecosystem's own scheme) or SEMVER (SemVer 2.0) whose
 * `events` are `introduced`, `fixed`, `last_affected` and `limit`. Within a range the events are sorted by
 * version ("0" first) and walked: at or past an `introduced` the version is affected, at or past a `fixed` it is
 * not, past a `last_affected` it is not; a version at or past every `limit` is outside the range. GIT ranges
 * (commits) cannot be evaluated on a release version and are ignored. Pure.
 */
import semver from "semver";
import { schemeOf, type Ecosystem, type VersionScheme } from "./schemes.ts";

/** One OSV range event (exactly one key set). */
export type OsvEvent = { introduced: string } | { fixed: string } | { last_affected: string } | { limit: string };

/** One OSV range. */
export interface OsvRange {
  type: "ECOSYSTEM" | "SEMVER" | "GIT";
  events: readonly OsvEvent[];
}

/** The part of an OSV `affected` entry the matching reads. */
export interface OsvAffected {
  ranges?: readonly OsvRange[];
  versions?: readonly string[];
}

const semverScheme: Pick<VersionScheme, "parse" | "compare"> = {
  parse: (v) => semver.valid(v.trim().replace(/^v(?=\d)/, "")),
  compare: (a, b) => semver.compare(a, b),
};

type Step = { kind: "introduced" | "fixed" | "last_affected" | "limit"; version: string | null };

function stepOf(event: OsvEvent, scheme: Pick<VersionScheme, "parse">): Step | undefined {
  const [kind, raw] = Object.entries(event)[0] as [Step["kind"], string];
  if (kind === "introduced" && raw === "0") return { kind, version: null };
  const version = scheme.parse(raw);
  return version === null ? undefined : { kind, version };
}

/** Whether `version` (valid in the scheme) falls in one range. */
function inRange(version: string, range: OsvRange, scheme: Pick<VersionScheme, "parse" | "compare">): boolean {
  const steps = range.events.map((e) => stepOf(e, scheme));
  // An event this scheme cannot read makes the range unreadable: never guess, treat it as not matching.
  if (steps.some((s) => s === undefined)) return false;
  const limits = (steps as Step[]).filter((s) => s.kind === "limit");
  if (limits.length > 0 && limits.every((l) => scheme.compare(version, l.version!) >= 0)) return false;
  const ordered = (steps as Step[])
    .filter((s) => s.kind !== "limit")
    .sort((a, b) => (a.version === null ? -1 : b.version === null ? 1 : scheme.compare(a.version, b.version)));
  let affected = false;
  for (const step of ordered) {
    const cmp = step.version === null ? 1 : scheme.compare(version, step.version);
    if (step.kind === "introduced" && cmp >= 0) affected = true;
    else if (step.kind === "fixed" && cmp >= 0) affected = false;
    else if (step.kind === "last_affected" && cmp > 0) affected = false;
  }
  return affected;
}

/** Whether `version` of a package of `ecosystem` is affected by the entry; false for a version the scheme cannot read. */
export function isAffected(ecosystem: Ecosystem, version: string, affected: OsvAffected): boolean {
  const scheme = schemeOf(ecosystem);
  const v = scheme.parse(version);
  if (v === null) return false;
  if ((affected.versions ?? []).some((listed) => { const p = scheme.parse(listed); return p !== null && scheme.compare(p, v) === 0; })) return true;
  return (affected.ranges ?? []).some((range) => {
    if (range.type === "ECOSYSTEM") return inRange(v, range, scheme);
    if (range.type === "SEMVER") {
      const sv = semverScheme.parse(version);
      return sv !== null && inRange(sv, range, semverScheme);
    }
    return false;
  });
}

/** The `fixed` versions an entry names, in the scheme's order (the upgrade targets a verdict can recommend). */
export function fixedVersions(ecosystem: Ecosystem, affected: OsvAffected): string[] {
  const scheme = schemeOf(ecosystem);
  const out = new Set<string>();
  for (const range of affected.ranges ?? []) {
    if (range.type === "GIT") continue;
    for (const e of range.events) if ("fixed" in e && scheme.parse(e.fixed) !== null) out.add(scheme.parse(e.fixed)!);
  }
  return [...out].sort((a, b) => scheme.compare(a, b));
}
