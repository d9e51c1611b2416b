/**
 * The stack safety verdict: a pre-deploy gate over up to ten pinned packages — GO, HOLD or BLOCK — and per
 * package PASS, HOLD, BLOCK or UNKNOWN with the CVEs that match its pinned version, their KEV membership and
 * fixed versions. Pure.
 *
 * Per package (in the curated cohort; outside it, BLOCK when a malicious-package advisory covers it, else UNKNOWN):
 * - BLOCK: a malicious-package advisory affects the pinned version (or the whole package, or no version was
 *   pinned), or an exploited (KEV) CVE affects the pinned version and no fixed version exists for it.
 * - HOLD: any CVE affects the pinned version (upgrade to a fixed one), or the version is missing or unreadable
 *   while the package has advisories (the pinned version must be verified).
 * - PASS: no advisory affects the pinned version.
 * Gate: BLOCK when any package is BLOCK, else HOLD when any is HOLD or UNKNOWN (a package the cohort does not cover
 * is left for the caller to verify: the gate never says GO over a package it did not check), else GO.
 */
import type { Advisory, CohortPackage, KevEntry } from "../../../pipelines/contract/snapshots/security-advisories.ts";
import type { Ecosystem } from "../versions/schemes.ts";
import { advisoriesNaming, affects, bySeverity, fixesOf, maliciousCovering, onKev, rangeLabels, samePackage, validVersion, type NamedAdvisory } from "./advisory-match.ts";

export const GATES = ["GO", "HOLD", "BLOCK"] as const;
export const PACKAGE_GATE_VERDICTS = ["PASS", "HOLD", "BLOCK", "UNKNOWN"] as const;

export interface StackPackage {
  name: string;
  version: string | null;
  /** null when the caller did not say: the cohort is searched in npm, then PyPI. */
  ecosystem: Ecosystem | null;
}

export interface StackSafetyInput {
  packages: readonly StackPackage[];
  cohort: readonly CohortPackage[];
  advisories: readonly Advisory[];
  kev: readonly KevEntry[];
  capturedAt: string;
}

export interface MatchedCve {
  cve_id: string;
  on_kev: boolean;
  exploited_in_wild: boolean;
  severity_label: string;
  affected_version_ranges: string[];
  fixed_versions: string[];
  source_url: string;
}

export interface StackPackageVerdict {
  package: string;
  version: string | null;
  ecosystem: Ecosystem | null;
  verdict: (typeof PACKAGE_GATE_VERDICTS)[number];
  in_cohort: boolean;
  exploited: boolean;
  fix_available: boolean;
  category: string | null;
  matched_cves: MatchedCve[];
  reason: string;
}

export interface StackSafetyVerdict {
  ok: true;
  gate: (typeof GATES)[number];
  capturedAt: string;
  counts: { block: number; hold: number; pass: number; unknown: number };
  packages: StackPackageVerdict[];
}

/** The cohort entry of a package (npm first when the ecosystem is not given). */
export function findInCohort(cohort: readonly CohortPackage[], name: string, ecosystem: Ecosystem | null): CohortPackage | undefined {
  const order: Ecosystem[] = ecosystem === null ? ["npm", "PyPI"] : [ecosystem];
  for (const eco of order) {
    const hit = cohort.find((c) => c.ecosystem === eco && samePackage(eco, c.name, name));
    if (hit) return hit;
  }
  return undefined;
}

function matched(n: NamedAdvisory, ecosystem: Ecosystem, kev: readonly KevEntry[]): MatchedCve {
  const exploited = onKev(n.advisory, kev);
  return {
    cve_id: n.advisory.cve_ids[0] ?? n.advisory.id,
    on_kev: exploited,
    exploited_in_wild: exploited,
    severity_label: n.advisory.severity,
    affected_version_ranges: rangeLabels(n),
    fixed_versions: fixesOf(n, ecosystem),
    source_url: n.advisory.source_url,
  };
}

/** A malicious-package advisory as a matched entry: its own id when it has no CVE, always critical. */
function maliciousMatch(n: NamedAdvisory, ecosystem: Ecosystem, kev: readonly KevEntry[]): MatchedCve {
  return { ...matched(n, ecosystem, kev), severity_label: "critical" };
}

/** Judge one pinned package. */
export function judgePackage(pkg: StackPackage, input: Omit<StackSafetyInput, "packages" | "capturedAt">): StackPackageVerdict {
  const entry = findInCohort(input.cohort, pkg.name, pkg.ecosystem);
  const base = { package: pkg.name, version: pkg.version };
  if (!entry) {
    // Outside the cohort only the malicious-package advisories speak: a known-malicious package is BLOCK, not UNKNOWN.
    for (const eco of pkg.ecosystem === null ? (["npm", "PyPI"] as const) : [pkg.ecosystem]) {
      const malicious = maliciousCovering(advisoriesNaming(input.advisories, eco, pkg.name), eco, pkg.version);
      if (malicious.length > 0) {
        const at = pkg.version !== null && validVersion(eco, pkg.version) ? `${pkg.name}@${pkg.version}` : pkg.name;
        return { ...base, ecosystem: eco, verdict: "BLOCK", in_cohort: false, exploited: false, fix_available: false, category: null, matched_cves: malicious.map((n) => maliciousMatch(n, eco, input.kev)), reason: `${malicious[0]!.advisory.id} marks ${at} (${eco}) as malicious: remove it.` };
      }
    }
    return { ...base, ecosystem: pkg.ecosystem, verdict: "UNKNOWN", in_cohort: false, exploited: false, fix_available: false, category: null, matched_cves: [], reason: `${pkg.name} is outside the curated cohort: not judged.` };
  }
  const eco = entry.ecosystem;
  const named = advisoriesNaming(input.advisories, eco, entry.name);
  const valid = pkg.version !== null && validVersion(eco, pkg.version);
  const hits = (n: NamedAdvisory) => !valid || affects(n, eco, pkg.version!);
  const malicious = maliciousCovering(named, eco, pkg.version);
  const vulns = named.filter((n) => n.advisory.kind === "vulnerability" && hits(n)).sort((a, b) => bySeverity(a.advisory, b.advisory));
  const cves = [...malicious.map((n) => maliciousMatch(n, eco, input.kev)), ...vulns.map((n) => matched(n, eco, input.kev))];
  const exploited = vulns.some((n) => onKev(n.advisory, input.kev));
  const fixAvailable = vulns.length > 0 && vulns.every((n) => fixesOf(n, eco).length > 0);
  const common = { ...base, ecosystem: eco, in_cohort: true, exploited, fix_available: fixAvailable, category: entry.category, matched_cves: cves };
  const at = valid ? `${entry.name}@${pkg.version}` : entry.name;

  if (malicious.length > 0) return { ...common, verdict: "BLOCK", reason: `${malicious[0]!.advisory.id} marks ${at} as malicious: remove it.` };
  const unfixedExploited = vulns.filter((n) => onKev(n.advisory, input.kev) && fixesOf(n, eco).length === 0);
  if (valid && unfixedExploited.length > 0) {
    return { ...common, verdict: "BLOCK", reason: `${unfixedExploited[0]!.advisory.cve_ids[0] ?? unfixedExploited[0]!.advisory.id} is exploited in the wild (CISA KEV) and no fixed version exists: do not deploy ${at}.` };
  }
  if (!valid && named.length > 0) {
    const why = pkg.version === null ? "no version is pinned" : `${pkg.version} is not a valid version`;
    return { ...common, verdict: "HOLD", reason: `${why}, and ${named.length} advisories name ${entry.name}: the pinned version must be verified.` };
  }
  if (vulns.length > 0) {
    const targets = [...new Set(vulns.flatMap((n) => fixesOf(n, eco)))];
    return { ...common, verdict: "HOLD", reason: `${vulns.length} advisories affect ${at}${exploited ? ", one exploited in the wild (CISA KEV)" : ""}; upgrade to a fixed version${targets.length > 0 ? ` (${targets.join(", ")})` : ""}.` };
  }
  return { ...common, verdict: "PASS", reason: named.length > 0 ? `${named.length} advisories name ${entry.name}; none affects ${pkg.version ?? "the pinned version"}.` : `No advisory names ${entry.name}.` };
}

/** Judge the stack. */
export function stackSafety(input: StackSafetyInput): StackSafetyVerdict {
  const packages = input.packages.map((p) => judgePackage(p, input));
  const count = (v: StackPackageVerdict["verdict"]) => packages.filter((p) => p.verdict === v).length;
  const counts = { block: count("BLOCK"), hold: count("HOLD"), pass: count("PASS"), unknown: count("UNKNOWN") };
  const gate = counts.block > 0 ? "BLOCK" : counts.hold > 0 || counts.unknown > 0 ? "HOLD" : "GO";
  return { ok: true, gate, capturedAt: input.capturedAt, counts, packages };
}
