import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KevParseError, parseKev } from "./cisa-kev.ts";
import { parseReleases } from "./github-releases.ts";
import { npmPackumentUrl, NpmRegistryParseError, parseNpmPackument } from "./npm-registry.ts";
import { parsePypiProject, PypiParseError } from "./pypi.ts";

const fixture = (path: string) => readFileSync(join(import.meta.dirname, "..", "fixtures", path), "utf8");
const NOW = new Date("2026-11-24T05:47:00Z");
const KEV_FIXTURE = "www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json";

describe("npm package documents", () => {
  it("latest from dist-tags, versions in SemVer order (pre-releases before their release), deprecation of the latest", () => {
    const r = parseNpmPackument(fixture("registry.npmjs.org/express"));
    expect(r.latest_version).toBe("5.1.0");
    expect(r.versions.slice(-4)).toEqual(["5.0.0-beta.3", "5.0.0", "5.0.1", "5.1.0"]);
    expect(r.latest_deprecated).toBe(false);
    const doc = { name: "p", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { deprecated: "use q" }, "0.9.0": {}, "not-a-version": {} } };
    expect(parseNpmPackument(JSON.stringify(doc))).toEqual({ latest_version: "1.0.0", versions: ["0.9.0", "1.0.0"], latest_deprecated: true });
    expect(() => parseNpmPackument("{}")).toThrow(NpmRegistryParseError);
  });
  it("a scoped name keeps its @ and encodes its slash", () => {
    expect(npmPackumentUrl("@anthropic-ai/sdk")).toBe("https://registry.npmjs.org/@anthropic-ai%2Fsdk");
  });
});

describe("PyPI project documents", () => {
  it("latest from info.version, versions in PEP 440 order, a yanked latest", () => {
    const r = parsePypiProject(fixture("pypi.org/pypi/transformers/json"));
    expect(r.latest_version).toBe("4.57.1");
    expect(r.versions.at(-1)).toBe("5.0.0rc0");
    const doc = { info: { name: "p", version: "2.0" }, releases: { "2.0": [{ yanked: true }], "2.0rc1": [], "1!0.5": [], "10.0.dev1": [], bogus: [] } };
    expect(parsePypiProject(JSON.stringify(doc))).toEqual({ latest_version: "2.0", versions: ["2.0rc1", "2.0", "10.0.dev1", "1!0.5"], latest_deprecated: true });
    expect(() => parsePypiProject('{"info":{}}')).toThrow(PypiParseError);
  });
});

describe("CISA KEV catalog", () => {
  it("reads entries; Known ransomware use is true; unreadable entries are skipped and counted", () => {
    const kev = parseKev(fixture(KEV_FIXTURE), NOW);
    expect(kev.catalog_version).toBe("2026.11.21");
    expect(kev.entries.find((e) => e.cve_id === "CVE-2021-44228")).toMatchObject({ ransomware: true, date_added: "2021-12-10" });
    expect(kev.entries.find((e) => e.cve_id === "CVE-2025-3248")).toMatchObject({ ransomware: false, product: "Langflow" });
    const body = JSON.stringify({ catalogVersion: "1", dateReleased: "2026-01-01T00:00:00Z", vulnerabilities: [{ cveID: "nope", dateAdded: "2026-01-01" }, { cveID: "CVE-2026-0001", dateAdded: "2026-01-02" }] });
    expect(parseKev(body, NOW)).toMatchObject({ count: 2, skipped: 1, entries: [{ cve_id: "CVE-2026-0001", due_date: null }] });
    expect(() => parseKev("[]", NOW)).toThrow(KevParseError);
  });

  it("keeps the recorded catalog's entries whose dateAdded is not a real past day, with date_added null; a bad dueDate is null", () => {
    const recorded = JSON.parse(fixture(KEV_FIXTURE)) as { vulnerabilities: Record<string, unknown>[] };
    const before = parseKev(JSON.stringify(recorded), NOW);
    const [a, b, c, d] = recorded.vulnerabilities;
    a!["dateAdded"] = "2026-02-30";
    b!["dateAdded"] = "9999-12-31";
    c!["dueDate"] = "+010000-01-01";
    d!["dueDate"] = "2031-01-01";
    const after = parseKev(JSON.stringify(recorded), NOW);
    // A CVE the catalog lists as exploited stays listed whatever its date says: only its date is unknown.
    expect(after.skipped).toBe(before.skipped);
    expect(after.entries.map((e) => e.cve_id)).toEqual(before.entries.map((e) => e.cve_id));
    expect(after.entries.find((e) => e.cve_id === a!["cveID"])?.date_added).toBeNull();
    expect(after.entries.find((e) => e.cve_id === b!["cveID"])?.date_added).toBeNull();
    expect(after.entries.find((e) => e.cve_id === c!["cveID"])?.due_date).toBeNull();
    expect(after.entries.find((e) => e.cve_id === d!["cveID"])?.due_date).toBe("2031-01-01");
    expect(() => parseKev(JSON.stringify({ ...recorded, dateReleased: "+010000-01-01T00:00:00Z" }), NOW)).toThrow(KevParseError);
  });
});

describe("code-host releases", () => {
  it("published non-draft releases, newest first", () => {
    const rel = parseReleases(fixture("api.github.com/repos/OAI/OpenAPI-Specification/releases@per_page=20"), NOW);
    expect(rel.map((r) => r.tag)).toEqual(["3.2.0", "3.1.1", "3.0.4"]);
    const body = JSON.stringify([{ tag_name: "d", html_url: "https://x.test/d", draft: true, published_at: "2026-01-01T00:00:00Z" }, { tag_name: "a", html_url: "https://x.test/a", published_at: null }, { tag_name: "b", name: "B", html_url: "https://x.test/b", published_at: "2026-01-02T00:00:00Z" }]);
    expect(parseReleases(body, NOW)).toEqual([{ tag: "b", name: "B", published_at: "2026-01-02T00:00:00.000Z", url: "https://x.test/b" }]);
  });

  it("leaves out only the recorded listing's release published in year 10000 or more than a day ahead", () => {
    const path = "api.github.com/repos/modelcontextprotocol/modelcontextprotocol/releases@per_page=20";
    const recorded = JSON.parse(fixture(path)) as Record<string, unknown>[];
    const before = parseReleases(JSON.stringify(recorded), NOW);
    expect(before.length).toBeGreaterThanOrEqual(3);
    const byTag = (tag: string) => recorded.find((r) => r["tag_name"] === tag)!;
    byTag(before[1]!.tag)["published_at"] = "+010000-01-01T00:00:00Z";
    byTag(before[2]!.tag)["published_at"] = "9999-12-31T23:59:59Z";
    const after = parseReleases(JSON.stringify(recorded), NOW);
    expect(after).toEqual(before.filter((_, i) => i !== 1 && i !== 2));
  });
});
