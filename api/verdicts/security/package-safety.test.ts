import { describe, expect, it } from "vitest";
import { packageSafety, riskBand, upgradeTarget } from "./package-safety.ts";
import { advisoriesNaming } from "./advisory-match.ts";
import { advisory, cohortPackage, kevEntry } from "./testing.ts";

const requests = cohortPackage("PyPI", "requests", ["2.3.0", "2.30.0", "2.31.0", "2.32.0", "2.32.4", "2.32.5"]);
const leak = advisory("GHSA-leak", "PyPI", "requests", { ranges: [[{ introduced: "2.3.0" }, { fixed: "2.31.0" }]], cve: "CVE-2023-32681", severity: "medium" });
const verify = advisory("GHSA-verify", "PyPI", "requests", { ranges: [[{ introduced: "0" }, { fixed: "2.32.0" }]], cve: "CVE-2024-35195", severity: "high" });
const langflow = cohortPackage("PyPI", "langflow", ["1.2.0", "1.3.0", "1.6.9"]);
const rce = advisory("GHSA-rce", "PyPI", "langflow", { ranges: [[{ introduced: "0" }, { fixed: "1.3.0" }]], cve: "CVE-2025-3248", severity: "critical" });
const kev = [kevEntry("CVE-2025-3248")];
const judge = (name: string, version: string | undefined, cohort = requests, advisories = [leak, verify], ecosystem: "npm" | "PyPI" = "PyPI") =>
  packageSafety({ ecosystem, name, ...(version === undefined ? {} : { version }), cohort, advisories, kev });

describe("packageSafety()", () => {
  it("GO for a version no advisory affects, with the cohort's sources", () => {
    const v = judge("requests", "2.32.5");
    expect(v).toMatchObject({ coverage: "covered", verdict: "GO", risk_score: 0, risk_band: "low", evaluated_version: "2.32.5", advisories: [] });
    expect(v.coverage_sources).toEqual(["osv", "registry:pypi", "cisa-kev"]);
    expect(v.recommendation).toMatch(/No known advisory/);
  });

  it("GO when only medium advisories affect the version; they are listed as reasons", () => {
    const v = judge("requests", "2.31.0", requests, [leak, advisory("GHSA-med", "PyPI", "requests", { ranges: [[{ introduced: "0" }, { fixed: "2.32.4" }]], severity: "medium" })]);
    expect(v.verdict).toBe("GO");
    expect(v.risk_score).toBe(12);
    expect(v.reasons.map((r) => r.signal)).toEqual(["open_advisory"]);
  });

  it("REVIEW when a high advisory affects the version; the upgrade clears every affecting advisory", () => {
    const v = judge("requests", "2.30.0");
    expect(v.verdict).toBe("REVIEW");
    expect(v.advisories.map((a) => a.id)).toEqual(["GHSA-verify", "GHSA-leak"]);
    expect(v.risk_score).toBe(30 + 12);
    expect(v.risk_band).toBe("medium");
    expect(v.recommendation).toMatch(/Upgrade requests to 2\.32\.0 or later/);
  });

  it("REVIEW with the KEV bonus when an affecting CVE is exploited; band from the score", () => {
    const v = judge("langflow", "1.2.0", langflow, [rce]);
    expect(v).toMatchObject({ verdict: "REVIEW", risk_score: 45 + 25, risk_band: "high" });
    expect(v.advisories[0]).toMatchObject({ on_kev: true, fixed_versions: ["1.3.0"] });
    expect(v.reasons[0]!.signal).toBe("exploited_vulnerability");
    expect(v.recommendation).toMatch(/exploited in the wild/);
  });

  it("without a version the registry's latest is judged", () => {
    expect(judge("langflow", undefined, langflow, [rce])).toMatchObject({ version: null, evaluated_version: "1.6.9", verdict: "GO" });
  });

  it("REVIEW for a version the registry never published, or one that is not a version", () => {
    expect(judge("requests", "2.32.9")).toMatchObject({ verdict: "REVIEW", risk_score: 20 });
    expect(judge("requests", "2.31.5")).toMatchObject({ verdict: "REVIEW", risk_score: 30 + 20 });
    expect(judge("requests", "2.32.9").reasons[0]!.signal).toBe("unpublished_version");
    const bad = judge("requests", "not.a.version!");
    expect(bad.verdict).toBe("REVIEW");
    expect(bad.reasons.map((r) => r.signal)).toContain("invalid_version");
  });

  it("PEP 440: 2.31 equals 2.31.0, and names compare per PEP 503", () => {
    expect(judge("Requests", "2.31").verdict).toBe("REVIEW");
    expect(judge("Requests", "2.31").advisories.map((a) => a.id)).toEqual(["GHSA-verify"]);
    expect(advisoriesNaming([advisory("X", "PyPI", "Zope.Interface", { versions: ["1.0"] })], "PyPI", "zope-interface")).toHaveLength(1);
    expect(advisoriesNaming([advisory("X", "npm", "Left-Pad", { versions: ["1.0.0"] })], "npm", "left-pad")).toHaveLength(0);
  });

  it("BLOCK on a malicious advisory covering the version, even outside the cohort; 100, critical", () => {
    const mal = advisory("MAL-2026-1", "PyPI", "requestss", { versions: ["0.1.0", "0.2.0"] });
    const v = packageSafety({ ecosystem: "PyPI", name: "requestss", version: "0.2.0", cohort: undefined, advisories: [mal], kev: [] });
    expect(v).toMatchObject({ coverage: "covered", verdict: "BLOCK", risk_score: 100, risk_band: "critical", coverage_sources: ["osv"] });
    expect(v.advisories[0]!.kind).toBe("malicious");
    // A malicious advisory with no version information covers the whole package; so does asking without a version.
    const whole = advisory("MAL-2026-2", "npm", "evil", {});
    expect(packageSafety({ ecosystem: "npm", name: "evil", version: "9.9.9", cohort: undefined, advisories: [whole], kev: [] }).verdict).toBe("BLOCK");
    expect(packageSafety({ ecosystem: "PyPI", name: "requestss", cohort: undefined, advisories: [mal], kev: [] }).verdict).toBe("BLOCK");
  });

  it("REVIEW when a malicious release exists in the history but not in this version", () => {
    const mal = advisory("MAL-2026-3", "npm", "ua-parser-js", { versions: ["0.7.29", "0.8.0"] });
    const v = packageSafety({ ecosystem: "npm", name: "ua-parser-js", version: "0.7.30", cohort: cohortPackage("npm", "ua-parser-js", ["0.7.28", "0.7.29", "0.7.30"]), advisories: [mal], kev: [] });
    expect(v).toMatchObject({ verdict: "REVIEW", risk_score: 15 });
    expect(v.reasons[0]!.signal).toBe("malicious_release_in_history");
  });

  it("withdrawn advisories do not count", () => {
    const gone = advisory("GHSA-gone", "PyPI", "requests", { ranges: [[{ introduced: "0" }]], severity: "critical", withdrawn: "2025-02-01T00:00:00.000Z" });
    expect(judge("requests", "2.32.5", requests, [gone]).verdict).toBe("GO");
  });

  it("out_of_coverage: no verdict, nothing scored, no sources", () => {
    const v = packageSafety({ ecosystem: "npm", name: "left-pad", version: "1.3.0", cohort: undefined, advisories: [leak], kev });
    expect(v).toMatchObject({ coverage: "out_of_coverage", verdict: null, risk_score: 0, reasons: [], coverage_sources: [], advisories: [] });
  });

  it("a deprecated latest release adds a low reason without changing GO", () => {
    const v = judge("requests", "2.32.5", { ...requests, latest_deprecated: true });
    expect(v.verdict).toBe("GO");
    expect(v.reasons).toEqual([expect.objectContaining({ signal: "latest_deprecated", severity: "low" })]);
  });

  it("npm SemVer ranges: pre-releases, several ranges, last_affected and limit events", () => {
    const express = cohortPackage("npm", "express", ["4.19.1", "4.19.2", "5.0.0-beta.1", "5.0.0-beta.3", "5.0.0"]);
    const redirect = advisory("GHSA-redirect", "npm", "express", { ranges: [[{ introduced: "0" }, { fixed: "4.19.2" }], [{ introduced: "5.0.0-alpha.1" }, { fixed: "5.0.0-beta.3" }]], severity: "high" });
    const j = (v: string) => packageSafety({ ecosystem: "npm", name: "express", version: v, cohort: express, advisories: [redirect], kev: [] }).verdict;
    expect([j("4.19.1"), j("4.19.2"), j("5.0.0-beta.1"), j("5.0.0-beta.3"), j("5.0.0")]).toEqual(["REVIEW", "GO", "REVIEW", "GO", "GO"]);
    const zod = cohortPackage("npm", "zod", ["3.22.2", "3.22.3"]);
    const dos = advisory("GHSA-dos", "npm", "zod", { ranges: [{ type: "SEMVER", events: [{ introduced: "0" }, { last_affected: "3.22.2" }] }], severity: "critical" });
    expect(packageSafety({ ecosystem: "npm", name: "zod", version: "3.22.2", cohort: zod, advisories: [dos], kev: [] }).verdict).toBe("REVIEW");
    expect(packageSafety({ ecosystem: "npm", name: "zod", version: "3.22.3", cohort: zod, advisories: [dos], kev: [] }).verdict).toBe("GO");
  });

  it("upgradeTarget: the lowest fix above the version that clears all; else the highest fix named", () => {
    const named = advisoriesNaming([leak, verify], "PyPI", "requests");
    expect(upgradeTarget("PyPI", "2.30.0", named)).toBe("2.32.0");
    expect(upgradeTarget("PyPI", "2.33.0", named)).toBe("2.32.0");
    expect(upgradeTarget("PyPI", null, advisoriesNaming([advisory("N", "PyPI", "p", { ranges: [[{ introduced: "0" }]] })], "PyPI", "p"))).toBeNull();
    expect([0, 24, 25, 49, 50, 74, 75, 100].map(riskBand)).toEqual(["low", "low", "medium", "medium", "high", "high", "critical", "critical"]);
  });
});
