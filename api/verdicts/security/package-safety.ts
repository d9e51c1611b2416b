/**
 * The package safety verdict: is one npm or PyPI package version safe to install — GO, REVIEW or BLOCK — from
 * the OSV advisories (malicious-package advisories included), the CISA KEV catalog and the cohort's registry
 * metadata. Pure.
 *
 * - Covered: the package is in the curated cohort, or a malicious-package advisory names it; otherwise
 *   out_of_coverage (verdict null; the route does not charge).
 * - BLOCK: a malicious-package advisory affects the evaluated version, names the whole package, or exists when no
 *   version can be evaluated.
 * - REVIEW: a critical or high vulnerability affects the version; an affecting vulnerability's CVE is on KEV; a
 *   malicious release exists in the package's history; the asked version is not valid, or not among the versions
 *   the registry published; or, with no version to evaluate, the package has critical or high advisories.
 * - GO: covered and none of the above (medium and low advisories are listed as reasons, the verdict stays GO).
 */
import type { Advisory, CohortPackage, KevEntry } from "../../../pipelines/contract/snapshots/security-advisories.ts";
import { schemeOf, type Ecosystem } from "../versions/schemes.ts";
import { advisoriesNaming, affects, bySeverity, fixesOf, maliciousCovering, onKev, validVersion, type NamedAdvisory, type Severity } from "./advisory-match.ts";

export const PACKAGE_VERDICTS = ["GO", "REVIEW", "BLOCK"] as const;
export const RISK_BANDS = ["low", "medium", "high", "critical"] as const;

/** Risk points per affecting vulnerability, by severity. */
export const SEVERITY_POINTS: Record<Severity, number> = { critical: 45, high: 30, medium: 12, low: 4, unknown: 8 };
/** Added once when an affecting vulnerability is exploited (KEV). */
export const KEV_POINTS = 25;
/** Added when the asked version is not valid or not published. */
export const UNPUBLISHED_POINTS = 20;
/** Added when a malicious release exists in the package's history but not in the evaluated version. */
export const MALICIOUS_HISTORY_POINTS = 15;

export interface PackageSafetyInput {
  ecosystem: Ecosystem;
  name: string;
  version?: string;
  /** The package's cohort entry; undefined when it is not in the cohort. */
  cohort: CohortPackage | undefined;
  advisories: readonly Advisory[];
  kev: readonly KevEntry[];
}

export interface Reason {
  signal: string;
  severity: "critical" | "high" | "medium" | "low" | "info";
  detail: string;
}

export interface PackageSafetyVerdict {
  ok: true;
  verdict_kind: "package_safety";
  package: string;
  ecosystem: Ecosystem | null;
  version: string | null;
  evaluated_version: string | null;
  coverage: "covered" | "out_of_coverage";
  verdict: (typeof PACKAGE_VERDICTS)[number] | null;
  risk_score: number;
  risk_band: (typeof RISK_BANDS)[number];
  reasons: Reason[];
  coverage_sources: string[];
  recommendation: string;
  advisories: { id: string; cve_ids: string[]; kind: Advisory["kind"]; severity: Severity; on_kev: boolean; fixed_versions: string[]; source_url: string }[];
}

/** The band of a risk score. */
export function riskBand(score: number): (typeof RISK_BANDS)[number] {
  return score < 25 ? "low" : score < 50 ? "medium" : score < 75 ? "high" : "critical";
}

const reasonSeverity = (s: Severity): Reason["severity"] => (s === "unknown" ? "medium" : s);
const label = (a: Advisory) => (a.cve_ids.length > 0 ? `${a.id} (${a.cve_ids.join(", ")})` : a.id);

/**
 * The lowest fixed version above `version` that is at or past a fix of every affecting advisory; else the
 * highest fixed version any of them names; null when none names one.
 */
export function upgradeTarget(ecosystem: Ecosystem, version: string | null, affecting: readonly NamedAdvisory[]): string | null {
  const scheme = schemeOf(ecosystem);
  const fixes = affecting.map((n) => fixesOf(n, ecosystem));
  const candidates = [...new Set(fixes.flat())].sort((a, b) => scheme.compare(a, b));
  if (candidates.length === 0) return null;
  const above = version === null || scheme.parse(version) === null ? candidates : candidates.filter((c) => scheme.compare(c, scheme.parse(version)!) > 0);
  const clearsAll = above.find((c) => affecting.every((n) => !affects(n, ecosystem, c)));
  return clearsAll ?? candidates.at(-1)!;
}

/** Whether `version` (valid) is one of the published versions (compared in the scheme: 1.0 equals 1.0.0 on PyPI). */
function published(ecosystem: Ecosystem, versions: readonly string[], version: string): boolean {
  const scheme = schemeOf(ecosystem);
  const wanted = scheme.parse(version)!;
  return versions.some((v) => {
    const p = scheme.parse(v);
    return p !== null && scheme.compare(p, wanted) === 0;
  });
}

/** Judge one package version. */
export function packageSafety(input: PackageSafetyInput): PackageSafetyVerdict {
  const { ecosystem, name, cohort, kev } = input;
  const asked = input.version ?? null;
  const named = advisoriesNaming(input.advisories, ecosystem, name);
  const malicious = named.filter((n) => n.advisory.kind === "malicious");
  const base = { ok: true as const, verdict_kind: "package_safety" as const, package: name, ecosystem, version: asked };

  if (cohort === undefined && malicious.length === 0) {
    return {
      ...base,
      evaluated_version: null,
      coverage: "out_of_coverage",
      verdict: null,
      risk_score: 0,
      risk_band: "low",
      reasons: [],
      coverage_sources: [],
      recommendation: `${name} (${ecosystem}) is outside the covered feeds: not in the curated cohort and named by no malicious-package advisory, so no verdict is given (and the call is not charged).`,
      advisories: [],
    };
  }

  const coverage_sources = cohort === undefined ? ["osv"] : ["osv", ecosystem === "npm" ? "registry:npm" : "registry:pypi", "cisa-kev"];
  const evaluated = asked ?? cohort?.latest_version ?? null;
  const valid = evaluated !== null && validVersion(ecosystem, evaluated);
  const reasons: Reason[] = [];
  let score = 0;

  // Malicious-package advisories.
  const maliciousHere = maliciousCovering(malicious, ecosystem, evaluated);
  const maliciousElsewhere = malicious.filter((n) => !maliciousHere.includes(n));
  for (const n of maliciousHere) reasons.push({ signal: "known_malicious", severity: "critical", detail: `${n.advisory.id}: ${n.advisory.summary || "malicious code"}${valid ? ` (affects ${evaluated})` : ""}` });
  for (const n of maliciousElsewhere) reasons.push({ signal: "malicious_release_in_history", severity: "high", detail: `${n.advisory.id} marks other releases of ${name} as malicious; ${evaluated} is not among them` });

  // Vulnerabilities affecting the evaluated version (all of them when no version can be evaluated).
  const vulns = named.filter((n) => n.advisory.kind === "vulnerability");
  const affecting = valid ? vulns.filter((n) => affects(n, ecosystem, evaluated!)) : [];
  const exploited = affecting.filter((n) => onKev(n.advisory, kev));
  for (const n of [...affecting].sort((a, b) => bySeverity(a.advisory, b.advisory))) {
    const fixes = fixesOf(n, ecosystem);
    reasons.push({ signal: onKev(n.advisory, kev) ? "exploited_vulnerability" : "open_advisory", severity: reasonSeverity(n.advisory.severity), detail: `${label(n.advisory)} ${n.advisory.severity}: ${n.advisory.summary}${fixes.length > 0 ? ` — fixed in ${fixes.join(", ")}` : " — no fixed version"}` });
    score += SEVERITY_POINTS[n.advisory.severity];
  }
  if (exploited.length > 0) score += KEV_POINTS;

  let unverifiable = false;
  if (asked !== null && !valid) {
    unverifiable = true;
    reasons.push({ signal: "invalid_version", severity: "medium", detail: `${asked} is not a valid ${ecosystem === "npm" ? "SemVer" : "PEP 440"} version, so no advisory range can be checked` });
  } else if (asked !== null && cohort !== undefined && cohort.versions.length > 0 && !published(ecosystem, cohort.versions, asked)) {
    unverifiable = true;
    reasons.push({ signal: "unpublished_version", severity: "medium", detail: `${asked} is not a version the ${ecosystem} registry lists for ${name} (latest ${cohort.latest_version ?? "unknown"})` });
  }
  if (unverifiable) score += UNPUBLISHED_POINTS;

  const severeUnevaluated = !valid && vulns.some((n) => n.advisory.severity === "critical" || n.advisory.severity === "high");
  if (evaluated === null && vulns.length > 0) reasons.push({ signal: "version_unknown", severity: severeUnevaluated ? "high" : "medium", detail: `no version given and the registry's latest is unknown; ${vulns.length} advisories name ${name}` });
  if (cohort?.latest_deprecated) reasons.push({ signal: "latest_deprecated", severity: "low", detail: `the latest release ${cohort.latest_version} is ${ecosystem === "npm" ? "deprecated" : "yanked"}` });
  if (maliciousElsewhere.length > 0) score += MALICIOUS_HISTORY_POINTS;

  const severe = affecting.some((n) => n.advisory.severity === "critical" || n.advisory.severity === "high");
  let verdict: PackageSafetyVerdict["verdict"];
  if (maliciousHere.length > 0) verdict = "BLOCK";
  else if (severe || exploited.length > 0 || maliciousElsewhere.length > 0 || unverifiable || severeUnevaluated) verdict = "REVIEW";
  else verdict = "GO";
  const risk_score = verdict === "BLOCK" ? 100 : Math.min(99, score);

  const shown = [...maliciousHere, ...[...affecting].sort((a, b) => bySeverity(a.advisory, b.advisory))];
  let recommendation: string;
  if (verdict === "BLOCK") recommendation = `Do not install ${name}${valid ? `@${evaluated}` : ""}: a malicious-package advisory covers it. Remove it, replace it with the package it imitates if it is a typosquat, and rotate any credentials the machine held.`;
  else if (verdict === "REVIEW") {
    const target = upgradeTarget(ecosystem, valid ? evaluated : null, affecting);
    recommendation = target !== null && affecting.length > 0
      ? `Upgrade ${name} to ${target} or later${exploited.length > 0 ? " now: an advisory affecting this version is exploited in the wild (CISA KEV)" : ""}.`
      : unverifiable
        ? `Pin a version the registry published${cohort?.latest_version ? ` (latest ${cohort.latest_version})` : ""} and ask again.`
        : maliciousElsewhere.length > 0
          ? `Pin exactly ${evaluated} and verify its integrity hash: other releases of ${name} were malicious.`
          : `Review the advisories of ${name} before pinning a version.`;
  } else recommendation = affecting.length > 0 ? `No critical or high advisory affects ${name}@${evaluated}; ${affecting.length} lower-severity advisories do (see reasons).` : `No known advisory affects ${name}@${evaluated}.`;

  return {
    ...base,
    evaluated_version: evaluated,
    coverage: "covered",
    verdict,
    risk_score,
    risk_band: riskBand(risk_score),
    reasons,
    coverage_sources,
    recommendation,
    advisories: shown.map((n) => ({ id: n.advisory.id, cve_ids: n.advisory.cve_ids, kind: n.advisory.kind, severity: n.advisory.severity, on_kev: onKev(n.advisory, kev), fixed_versions: fixesOf(n, ecosystem), source_url: n.advisory.source_url })),
  };
}
