import { describe, expect, it } from "vitest";
import { stackSafety } from "./stack-safety.ts";
import { rangeLabels, advisoriesNaming } from "./advisory-match.ts";
import { advisory, cohortPackage, kevEntry } from "./testing.ts";

const cohort = [
  cohortPackage("PyPI", "langflow", ["1.2.0", "1.3.0"], { category: "agent-framework" }),
  cohortPackage("PyPI", "ray", ["2.8.0", "2.51.1"], { category: "ml-serving" }),
  cohortPackage("npm", "express", ["4.19.1", "4.19.2"], { category: "web-framework" }),
  cohortPackage("PyPI", "numpy", ["2.3.5"]),
  cohortPackage("npm", "openai", ["5.23.2"]),
  cohortPackage("PyPI", "openai", ["2.8.1"]),
];
const advisories = [
  advisory("GHSA-rce", "PyPI", "langflow", { ranges: [[{ introduced: "0" }, { fixed: "1.3.0" }]], cve: "CVE-2025-3248", severity: "critical" }),
  advisory("GHSA-ray", "PyPI", "ray", { ranges: [[{ introduced: "0" }]], cve: "CVE-2023-48022", severity: "critical" }),
  advisory("GHSA-redirect", "npm", "express", { ranges: [[{ introduced: "0" }, { fixed: "4.19.2" }]], cve: "CVE-2024-29041", severity: "medium" }),
  advisory("MAL-2026-9", "PyPI", "transformerss", { ranges: [[{ introduced: "0" }]] }),
];
const run = (packages: { name: string; version: string | null; ecosystem: "npm" | "PyPI" | null }[], kev = [kevEntry("CVE-2025-3248")]) =>
  stackSafety({ packages, cohort, advisories, kev, capturedAt: "2026-11-24T05:47:00.000Z" });

describe("stackSafety()", () => {
  it("PASS for clean pins, gate GO; a package UNKNOWN outside the cohort holds the gate", () => {
    expect(run([{ name: "numpy", version: "2.3.5", ecosystem: null }]).gate).toBe("GO");
    expect(run([{ name: "left-pad", version: "1.3.0", ecosystem: null }]).gate).toBe("HOLD");
    const v = run([{ name: "numpy", version: "2.3.5", ecosystem: null }, { name: "left-pad", version: "1.3.0", ecosystem: null }]);
    expect(v.gate).toBe("HOLD");
    expect(v.counts).toEqual({ block: 0, hold: 0, pass: 1, unknown: 1 });
    expect(v.packages[0]).toMatchObject({ verdict: "PASS", in_cohort: true, ecosystem: "PyPI", matched_cves: [], exploited: false, fix_available: false });
    expect(v.packages[1]).toMatchObject({ verdict: "UNKNOWN", in_cohort: false, category: null });
  });

  it("HOLD for an exploited CVE with a fix: exploited, fix available, KEV-marked CVE with range and fix", () => {
    const v = run([{ name: "langflow", version: "1.2.0", ecosystem: "PyPI" }]);
    expect(v.gate).toBe("HOLD");
    expect(v.packages[0]).toMatchObject({ verdict: "HOLD", exploited: true, fix_available: true, category: "agent-framework" });
    expect(v.packages[0]!.matched_cves).toEqual([
      { cve_id: "CVE-2025-3248", on_kev: true, exploited_in_wild: true, severity_label: "critical", affected_version_ranges: ["<1.3.0"], fixed_versions: ["1.3.0"], source_url: "https://osv.dev/vulnerability/GHSA-rce" },
    ]);
  });

  it("PASS once the pin is past the fix, although the name has advisories", () => {
    const v = run([{ name: "langflow", version: "1.3.0", ecosystem: "PyPI" }]);
    expect(v.packages[0]).toMatchObject({ verdict: "PASS", matched_cves: [] });
    expect(v.packages[0]!.reason).toMatch(/none affects 1\.3\.0/);
  });

  it("BLOCK only when an exploited CVE has no fix; the same CVE unexploited is HOLD", () => {
    const exploited = run([{ name: "ray", version: "2.51.1", ecosystem: "PyPI" }], [kevEntry("CVE-2023-48022")]);
    expect(exploited.gate).toBe("BLOCK");
    expect(exploited.packages[0]).toMatchObject({ verdict: "BLOCK", exploited: true, fix_available: false });
    const notExploited = run([{ name: "ray", version: "2.51.1", ecosystem: "PyPI" }], []);
    expect(notExploited.packages[0]).toMatchObject({ verdict: "HOLD", exploited: false, fix_available: false });
  });

  it("HOLD when no version is pinned (or it is unreadable) and the package has advisories", () => {
    const v = run([{ name: "express", version: null, ecosystem: "npm" }, { name: "express", version: "four", ecosystem: "npm" }]);
    expect(v.packages.map((p) => p.verdict)).toEqual(["HOLD", "HOLD"]);
    expect(v.packages[0]!.reason).toMatch(/must be verified/);
    expect(v.packages[0]!.matched_cves.map((c) => c.cve_id)).toEqual(["CVE-2024-29041"]);
  });

  it("BLOCK for a known-malicious package, in the cohort or not; it wins over HOLD in the gate", () => {
    const v = run([{ name: "langflow", version: "1.2.0", ecosystem: "PyPI" }, { name: "transformerss", version: "4.0.0", ecosystem: null }]);
    expect(v.gate).toBe("BLOCK");
    expect(v.packages[1]).toMatchObject({ verdict: "BLOCK", in_cohort: false, ecosystem: "PyPI" });
    expect(v.packages[1]!.matched_cves[0]).toMatchObject({ cve_id: "MAL-2026-9", severity_label: "critical" });
  });

  it("without an ecosystem the cohort is searched in npm first", () => {
    expect(run([{ name: "openai", version: "5.23.2", ecosystem: null }]).packages[0]!.ecosystem).toBe("npm");
    expect(run([{ name: "openai", version: "2.8.1", ecosystem: "PyPI" }]).packages[0]!.ecosystem).toBe("PyPI");
  });
});

describe("rangeLabels()", () => {
  it("writes each range in words", () => {
    const a = advisory("A", "npm", "p", { ranges: [[{ introduced: "2.3.0" }, { fixed: "2.31.0" }], [{ introduced: "0" }, { last_affected: "1.0.0" }], [{ introduced: "3.0.0" }], [{ introduced: "4.0.0" }, { limit: "5.0.0" }]] });
    expect(rangeLabels(advisoriesNaming([a], "npm", "p")[0]!)).toEqual([">=2.3.0, <2.31.0", "<=1.0.0", ">=3.0.0", ">=4.0.0, <5.0.0"]);
    const listed = advisory("B", "npm", "p", { versions: ["1.0.0", "1.0.1"] });
    expect(rangeLabels(advisoriesNaming([listed], "npm", "p")[0]!)).toEqual(["=1.0.0", "=1.0.1"]);
  });
});
