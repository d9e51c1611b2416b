/**
 * What the security verdicts share: which advisories name a package (PyPI names compared per PEP 503, npm names
 * exactly), which of them affect a version, KEV membership, severity order and the human form of OSV ranges.
 * Pure.
 */
import type { Advisory, KevEntry } from "../../../pipelines/contract/snapshots/security-advisories.ts";
import { fixedVersions, isAffected } from "../versions/osv-ranges.ts";
import { schemeOf, type Ecosystem } from "../versions/schemes.ts";

/** Severity labels, worst first. */
export const SEVERITY_ORDER = ["critical", "high", "medium", "low", "unknown"] as const;
export type Severity = (typeof SEVERITY_ORDER)[number];

/** PEP 503: lower case, runs of `-`, `_` and `.` become one `-`. */
export const pep503 = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, "-");

/** Whether two names are the same package in an ecosystem. */
export function samePackage(ecosystem: Ecosystem, a: string, b: string): boolean {
  return ecosystem === "PyPI" ? pep503(a) === pep503(b) : a === b;
}

/** One advisory with the `affected` entries that name the package. */
export interface NamedAdvisory {
  advisory: Advisory;
  entries: Advisory["affected"];
}

/** The non-withdrawn advisories naming a package, with the entries that name it. */
export function advisoriesNaming(advisories: readonly Advisory[], ecosystem: Ecosystem, name: string): NamedAdvisory[] {
  const out: NamedAdvisory[] = [];
  for (const advisory of advisories) {
    if (advisory.withdrawn !== null) continue;
    const entries = advisory.affected.filter((a) => a.ecosystem === ecosystem && samePackage(ecosystem, a.name, name));
    if (entries.length > 0) out.push({ advisory, entries });
  }
  return out;
}

/** Whether `version` is affected by any of the entries. */
export function affects(named: NamedAdvisory, ecosystem: Ecosystem, version: string): boolean {
  return named.entries.some((e) => isAffected(ecosystem, version, e));
}

/** Whether an entry states no version information at all (the whole package is affected). */
export function wholePackage(named: NamedAdvisory): boolean {
  return named.entries.some((e) => e.ranges.length === 0 && e.versions.length === 0);
}

/**
 * The malicious-package advisories among `named` that cover `version`: those naming the whole package, every one
 * when the version is missing or not valid in the scheme (nothing can clear it), else those whose ranges or
 * lists include it.
 */
export function maliciousCovering(named: readonly NamedAdvisory[], ecosystem: Ecosystem, version: string | null): NamedAdvisory[] {
  const valid = version !== null && validVersion(ecosystem, version);
  return named.filter((n) => n.advisory.kind === "malicious" && (wholePackage(n) || !valid || affects(n, ecosystem, version!)));
}

/** The fixed versions the entries name, in the scheme's order. */
export function fixesOf(named: NamedAdvisory, ecosystem: Ecosystem): string[] {
  const scheme = schemeOf(ecosystem);
  const all = new Set(named.entries.flatMap((e) => fixedVersions(ecosystem, e)));
  return [...all].sort((a, b) => scheme.compare(a, b));
}

/** Whether a CVE of the advisory is in the KEV catalog. */
export function onKev(advisory: Advisory, kev: readonly KevEntry[]): boolean {
  return advisory.cve_ids.some((c) => kev.some((k) => k.cve_id === c));
}

/** Worst severity first, then id. */
export function bySeverity(a: Advisory, b: Advisory): number {
  return SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.id.localeCompare(b.id);
}

/** Each range of the entries in words: `>=2.3.0, <2.31.0`, `<=3.22.2`, `>=19.0.0, <19.0.1`; listed versions as `=v` when no range. */
export function rangeLabels(named: NamedAdvisory): string[] {
  const out: string[] = [];
  for (const entry of named.entries) {
    for (const range of entry.ranges) {
      let lower: string | null = null;
      for (const event of range.events) {
        if ("introduced" in event) lower = event.introduced;
        else {
          const from = lower === null || lower === "0" ? "" : `>=${lower}, `;
          if ("fixed" in event) out.push(`${from}<${event.fixed}`);
          else if ("last_affected" in event) out.push(`${from}<=${event.last_affected}`);
          else out.push(`${from}<${event.limit}`);
          lower = null;
        }
      }
      if (lower !== null) out.push(lower === "0" ? "all versions" : `>=${lower}`);
    }
    if (entry.ranges.length === 0) out.push(...(entry.versions.length > 0 ? entry.versions.slice(0, 20).map((v) => `=${v}`) : ["all versions"]));
  }
  return [...new Set(out)];
}

/** Whether a version string is valid in the ecosystem's scheme. */
export function validVersion(ecosystem: Ecosystem, version: string): boolean {
  return schemeOf(ecosystem).parse(version) !== null;
}
