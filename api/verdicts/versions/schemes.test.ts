import { describe, expect, it } from "vitest";
import { schemeOf } from "./schemes.ts";

const npm = schemeOf("npm");
const pypi = schemeOf("PyPI");

describe("npm versions (SemVer 2.0, node-semver)", () => {
  it("reads versions, a leading v included, and refuses what is not SemVer", () => {
    expect(npm.parse("v1.2.3")).toBe("1.2.3");
    expect(npm.parse("1.2.3-beta.2+build.7")).toBe("1.2.3-beta.2"); // build metadata does not take part in precedence
    expect(npm.parse("1.2")).toBeNull();
    expect(npm.parse("latest")).toBeNull();
  });

  it("orders pre-releases before their release, numerically by identifier, and ignores build metadata", () => {
    const sorted = ["1.0.0", "1.0.0-rc.1", "1.0.0-beta.11", "1.0.0-beta.2", "1.0.0-alpha", "0.9.9"].sort(npm.compare);
    expect(sorted).toEqual(["0.9.9", "1.0.0-alpha", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]);
    expect(npm.compare("1.0.0+a", "1.0.0+b")).toBe(0);
  });

  it("matches ranges as npm does: caret and tilde, hyphen ranges, and pre-releases only on their own tuple", () => {
    expect(npm.satisfies("1.9.0", "^1.2.0")).toBe(true);
    expect(npm.satisfies("2.0.0", "^1.2.0")).toBe(false);
    expect(npm.satisfies("0.2.5", "^0.2.3")).toBe(true);
    expect(npm.satisfies("0.3.0", "^0.2.3")).toBe(false);
    expect(npm.satisfies("1.2.9", "~1.2.3")).toBe(true);
    expect(npm.satisfies("1.3.0", "~1.2.3")).toBe(false);
    expect(npm.satisfies("2.3.4", "1.0.0 - 2.9.9")).toBe(true);
    expect(npm.satisfies("1.3.0-beta.1", ">=1.2.0")).toBe(false);
    expect(npm.satisfies("1.3.0-beta.2", ">=1.3.0-beta.1")).toBe(true);
    expect(npm.satisfies("1.0.0", "not a range")).toBe(false);
    expect(npm.major("4.17.21")).toBe("4");
  });
});

describe("PyPI versions (PEP 440, @renovatebot/pep440)", () => {
  it("reads and normalizes versions (case, separators, local segments) and refuses what is not PEP 440", () => {
    expect(pypi.parse("1.0-RC1")).toBe("1.0rc1");
    expect(pypi.parse("1.0+local.1")).not.toBeNull();
    expect(pypi.parse("not.a.version")).toBeNull();
  });

  it("orders dev < pre < release < post, and an epoch before everything else", () => {
    const sorted = ["1.0.post1", "1.0", "1.0rc1", "1.0b2", "1.0a1", "1.0.dev1", "1!0.1", "2.0"].sort(pypi.compare);
    expect(sorted).toEqual(["1.0.dev1", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0.post1", "2.0", "1!0.1"]);
  });

  it("matches specifiers: ~= compatible release, exclusions, pre-releases only when the specifier names one", () => {
    expect(pypi.satisfies("1.4.5", "~=1.4.2")).toBe(true);
    expect(pypi.satisfies("1.5.0", "~=1.4.2")).toBe(false);
    expect(pypi.satisfies("1.9", "~=1.4")).toBe(true);
    expect(pypi.satisfies("2.0", "~=1.4")).toBe(false);
    expect(pypi.satisfies("2.30.0", ">=2.0,<2.31")).toBe(true);
    expect(pypi.satisfies("2.31.0", ">=2.0,<2.31")).toBe(false);
    expect(pypi.satisfies("1.5.1", ">=1.0,!=1.5.*")).toBe(false);
    expect(pypi.satisfies("2.0a1", ">=1.0")).toBe(false);
    expect(pypi.satisfies("2.0a1", ">=2.0a0")).toBe(true);
    expect(pypi.satisfies("1.0", "garbage")).toBe(false);
  });

  it("names the major release line, epoch-qualified when an epoch is set", () => {
    expect(pypi.major("2.31.0")).toBe("2");
    expect(pypi.major("1!2.0.post1")).toBe("1!2");
  });
});
