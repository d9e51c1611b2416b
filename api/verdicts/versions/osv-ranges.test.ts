import { describe, expect, it } from "vitest";
import { fixedVersions, isAffected, type OsvAffected } from "./osv-ranges.ts";

describe("OSV affected ranges", () => {
  it("introduced 0 and fixed: every version before the fix, none from it on", () => {
    const entry: OsvAffected = { ranges: [{ type: "SEMVER", events: [{ introduced: "0" }, { fixed: "4.17.21" }] }] };
    expect(isAffected("npm", "4.17.20", entry)).toBe(true);
    expect(isAffected("npm", "0.0.1", entry)).toBe(true);
    expect(isAffected("npm", "4.17.21", entry)).toBe(false);
    expect(isAffected("npm", "5.0.0", entry)).toBe(false);
  });

  it("last_affected includes that version and excludes the next; fixed excludes itself", () => {
    const last: OsvAffected = { ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "2.0" }, { last_affected: "2.3.1" }] }] };
    expect(isAffected("PyPI", "2.3.1", last)).toBe(true);
    expect(isAffected("PyPI", "2.3.1.post1", last)).toBe(false);
    expect(isAffected("PyPI", "1.9", last)).toBe(false);
  });

  it("several introduced/fixed pairs in one range, given in any order: only the windows between them", () => {
    const entry: OsvAffected = { ranges: [{ type: "ECOSYSTEM", events: [{ fixed: "1.2.5" }, { introduced: "2.0.0" }, { introduced: "1.0.0" }, { fixed: "2.1.3" }] }] };
    expect(isAffected("npm", "1.1.0", entry)).toBe(true);
    expect(isAffected("npm", "1.5.0", entry)).toBe(false);
    expect(isAffected("npm", "2.1.0", entry)).toBe(true);
    expect(isAffected("npm", "2.1.3", entry)).toBe(false);
    expect(fixedVersions("npm", entry)).toEqual(["1.2.5", "2.1.3"]);
  });

  it("compares PyPI ranges with PEP 440: a pre-release of the fix is still affected, a post-release of it is not", () => {
    const entry: OsvAffected = { ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }, { fixed: "2.31.0" }] }] };
    expect(isAffected("PyPI", "2.31.0rc1", entry)).toBe(true);
    expect(isAffected("PyPI", "2.31.0", entry)).toBe(false);
    expect(isAffected("PyPI", "2.31.0.post1", entry)).toBe(false);
    expect(isAffected("PyPI", "1!0.1", entry)).toBe(false);
  });

  it("limit bounds a range from above; an explicit versions list matches by version equality", () => {
    const limited: OsvAffected = { ranges: [{ type: "SEMVER", events: [{ introduced: "1.0.0" }, { limit: "1.5.0" }] }] };
    expect(isAffected("npm", "1.4.9", limited)).toBe(true);
    expect(isAffected("npm", "1.5.0", limited)).toBe(false);
    const listed: OsvAffected = { versions: ["1.0", "1.0.1"] };
    expect(isAffected("PyPI", "1.0.0", listed)).toBe(true);
    expect(isAffected("PyPI", "1.0.2", listed)).toBe(false);
  });

  it("never guesses: GIT ranges, unreadable events and unreadable versions match nothing", () => {
    expect(isAffected("npm", "1.0.0", { ranges: [{ type: "GIT", events: [{ introduced: "0" }] }] })).toBe(false);
    expect(isAffected("npm", "1.0.0", { ranges: [{ type: "SEMVER", events: [{ introduced: "0" }, { fixed: "next" }] }] })).toBe(false);
    expect(isAffected("npm", "latest", { ranges: [{ type: "SEMVER", events: [{ introduced: "0" }] }] })).toBe(false);
  });
});
