import { describe, expect, it } from "vitest";
import { premiumResearchRoutes } from "./premium-research.ts";
import { premiumSecurityRoutes, parsePackageSpec } from "./premium-security.ts";

const route = (path: string) => [...premiumResearchRoutes, ...premiumSecurityRoutes].find((r) => r.path === path)!;
const check = (path: string, body: unknown) => (route(path).noCharge!.check as (b: unknown) => string | null)(body);

describe("no-charge rules of the research and security routes", () => {
  it("research: an empty window or range is not charged", () => {
    expect(check("/api/premium/research/milestones", { total: 0 })).toBe("no_milestones");
    expect(check("/api/premium/research/milestones", { total: 3 })).toBeNull();
    expect(check("/api/premium/research/emerging-keywords", { recent_papers: 0 })).toBe("no_preprints_in_window");
    expect(check("/api/premium/research/emerging-keywords", { recent_papers: 12 })).toBeNull();
    expect(check("/api/premium/research/topic-search", { has_data: false })).toBe("no_data_in_range");
    expect(check("/api/premium/research/lab-productivity", { has_data: false })).toBe("no_data_in_range");
    expect(check("/api/premium/research/lab-productivity", { has_data: true })).toBeNull();
  });

  it("security: out of coverage, no package in the cohort, nothing tracked", () => {
    expect(check("/api/premium/security/package-verdict", { coverage: "out_of_coverage" })).toBe("out_of_coverage");
    expect(check("/api/premium/security/package-verdict", { coverage: "covered" })).toBeNull();
    expect(check("/api/premium/stack-safety-verdict", { packages: [{ verdict: "UNKNOWN" }] })).toBe("no_package_in_cohort");
    expect(check("/api/premium/stack-safety-verdict", { packages: [{ verdict: "UNKNOWN" }, { verdict: "PASS" }] })).toBeNull();
    expect(check("/api/premium/stack-drift-verdict", { counts: { assessed: 0 } })).toBe("nothing_tracked");
  });
});

describe("parsePackageSpec()", () => {
  it("reads an ecosystem prefix, a scoped npm name and a version after the last @", () => {
    expect(parsePackageSpec("npm:@anthropic-ai/sdk@0.68.0")).toEqual({ name: "@anthropic-ai/sdk", version: "0.68.0", ecosystem: "npm" });
    expect(parsePackageSpec("PyPI:requests@2.31.0")).toEqual({ name: "requests", version: "2.31.0", ecosystem: "PyPI" });
    expect(parsePackageSpec("langflow")).toEqual({ name: "langflow", version: null, ecosystem: null });
    expect(parsePackageSpec("torch@1!2.0.0")).toEqual({ name: "torch", version: "1!2.0.0", ecosystem: null });
    expect(parsePackageSpec("bad name@1")).toBeNull();
    expect(parsePackageSpec("x@1 2")).toBeNull();
  });
});
