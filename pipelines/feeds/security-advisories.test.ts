import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SECURITY_COHORT } from "../catalog/security-cohort.ts";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { KEV_URL } from "../sources/cisa-kev.ts";
import { npmPackumentUrl } from "../sources/npm-registry.ts";
import { osvModifiedIdsUrl, osvVulnUrl } from "../sources/osv.ts";
import { githubReleasesUrl } from "../sources/github-releases.ts";
import { mergeAliases, runSecurityAdvisories, securityAdvisoriesFeed, securityAdvisoriesRows, type SecurityAdvisoriesSnapshot } from "./security-advisories.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const NOW = new Date("2026-11-24T05:47:00Z");
const clients: ClosableHttpClient[] = [];
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function client(dir = FIXTURES): ClosableHttpClient {
  const c = createHttpClient({ replayDir: dir, retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
}
/** A copy of the fixtures with some files removed (a failing upstream answers 404 there). */
function without(urls: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "security-advisories-"));
  temps.push(dir);
  for (const host of ["api.osv.dev", "osv-vulnerabilities.storage.googleapis.com", "registry.npmjs.org", "pypi.org", "www.cisa.gov", "api.github.com"]) cpSync(join(FIXTURES, host), join(dir, host), { recursive: true });
  for (const url of urls) rmSync(join(dir, replayPathFor(url)));
  return dir;
}
async function run(dir = FIXTURES, previous?: SecurityAdvisoriesSnapshot) {
  const ctx = testFeedContext({ http: client(dir), now: NOW, latest: previous ? { "security-advisories": previous } : {} });
  return { out: await runSecurityAdvisories(ctx), notices: ctx.notices };
}

describe("security-advisories feed (replay)", () => {
  it("gathers the cohort's registry metadata, OSV advisories (aliases merged), recent malicious packages, matching KEV entries and protocol releases", async () => {
    const { out, notices } = await run();
    const d = out.data;
    expect(notices).toEqual([]);
    expect(d.packages).toHaveLength(SECURITY_COHORT.length);
    const express = d.packages.find((p) => p.ecosystem === "npm" && p.name === "express")!;
    expect(express.latest_version).toBe("5.1.0");
    expect(express.versions.indexOf("5.0.0-beta.3")).toBeLessThan(express.versions.indexOf("5.0.0"));
    // PYSEC-2023-74 and GHSA-j8r2-6x86-q33q are one vulnerability: the GitHub-reviewed record leads.
    const leak = d.advisories.filter((a) => a.cve_ids.includes("CVE-2023-32681"));
    expect(leak).toHaveLength(1);
    expect(leak[0]).toMatchObject({ id: "GHSA-j8r2-6x86-q33q", severity: "medium", aliases: ["CVE-2023-32681", "PYSEC-2023-74"] });
    expect(leak[0]!.affected[0]!.ranges.every((r) => r.type !== ("GIT" as string))).toBe(true);
    // Withdrawn advisories are kept, marked.
    expect(d.advisories.find((a) => a.id === "GHSA-27h2-hvpr-p74q")!.withdrawn).not.toBeNull();
    // Malicious-package advisories of both ecosystems, modified in the last 30 days only.
    const mal = d.advisories.filter((a) => a.kind === "malicious").map((a) => a.id);
    expect(mal.length).toBeGreaterThanOrEqual(4);
    expect(mal).not.toContain("MAL-2026-5120");
    expect(d.kev.entries.map((e) => e.cve_id)).toEqual(["CVE-2019-10758", "CVE-2020-11023", "CVE-2021-21315", "CVE-2025-3248", "CVE-2025-55182"]);
    expect(d.kev.count).toBeGreaterThan(d.kev.entries.length);
    expect(d.protocols.map((p) => p.id)).toEqual(["mcp", "x402", "openapi"]);
    expect(d.protocols.every((p) => p.releases.length > 0)).toBe(true);
    expect(d.summary).toEqual({ cohort_packages: SECURITY_COHORT.length, vulnerabilities: d.advisories.length - mal.length, malicious: mal.length, kev_matched: 5 });
    expect(out.sources?.every((s) => s.ok)).toBe(true);
  });

  it("writes one latest-version row per cohort package and one row per package and advisory", async () => {
    const { out } = await run();
    const [versions, advisories] = securityAdvisoriesRows(out.data, "2026-11-24");
    expect(versions!.rows).toHaveLength(SECURITY_COHORT.length);
    expect(versions!.rows.find((r) => r["package"] === "express")).toMatchObject({ latest_version: "5.1.0", latest_major: "5" });
    expect(versions!.rows.find((r) => r["package"] === "torch")).toMatchObject({ latest_major: "2" });
    const jq = advisories!.rows.filter((r) => r["package"] === "jquery");
    expect(jq.map((r) => r["advisory_id"]).sort()).toEqual(["GHSA-6c3j-c64m-qhgq", "GHSA-gxr4-xjj5-5px2", "GHSA-jpcq-cgw6-v4j6"]);
    expect(jq.find((r) => r["advisory_id"] === "GHSA-jpcq-cgw6-v4j6")).toMatchObject({ on_kev: true, cve_ids: "CVE-2020-11023" });
    expect(securityAdvisoriesFeed.historyRows!(out.data, { date: "2026-11-24", observedAt: NOW.toISOString() })).toEqual([versions, advisories]);
  });

  it("a failing registry keeps the previous metadata; an unreadable advisory with no earlier copy fails the run", async () => {
    const { out: first } = await run();
    const dir = without([npmPackumentUrl("express")]);
    const { out, notices } = await run(dir, first.data);
    expect(out.data.packages.find((p) => p.name === "express")!.latest_version).toBe("5.1.0");
    expect(notices.join("\n")).toMatch(/registry of npm:express failed/);
    expect(out.sources?.find((s) => s.id === "registries")?.ok).toBe(false);

    const noRecord = without([osvVulnUrl("GHSA-fv66-9v8q-g76r")]);
    await expect(run(noRecord)).rejects.toThrow(/GHSA-fv66-9v8q-g76r/);
    // With the previous snapshot's copy the run goes on and keeps it.
    const { out: kept } = await run(noRecord, first.data);
    expect(kept.data.advisories.some((a) => a.id === "GHSA-fv66-9v8q-g76r")).toBe(true);
  });

  it("an OSV record with one unusable time keeps its advisory; one with no usable time is skipped alone, or kept from before", async () => {
    const { out: first } = await run();
    const dir = without([]);
    const edit = (id: string, change: Record<string, unknown>) => {
      const path = join(dir, replayPathFor(osvVulnUrl(id)));
      writeFileSync(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>), ...change }));
    };
    edit("GHSA-fv66-9v8q-g76r", { published: "+010000-01-01T00:00:00Z", modified: "Fri, 31 Dec 9999 23:59:59 +0000" });
    edit("GHSA-6c3j-c64m-qhgq", { published: "+010000-01-01T00:00:00Z" });
    const { out, notices } = await run(dir);
    expect(out.data.advisories.map((a) => a.id)).toEqual(first.data.advisories.map((a) => a.id).filter((id) => id !== "GHSA-fv66-9v8q-g76r"));
    const dated = out.data.advisories.find((a) => a.id === "GHSA-6c3j-c64m-qhgq")!;
    expect(dated.published).toBe(dated.modified);
    expect(notices).toEqual(["security-advisories: 1 OSV record(s) without a usable published or modified time and not held before, skipped: GHSA-fv66-9v8q-g76r"]);
    const { out: kept, notices: none } = await run(dir, first.data);
    expect(kept.data.advisories.find((a) => a.id === "GHSA-fv66-9v8q-g76r")).toEqual(first.data.advisories.find((a) => a.id === "GHSA-fv66-9v8q-g76r"));
    expect(none).toEqual([]);
  });

  it("KEV, malicious listings and releases that fail keep what was held; KEV with nothing held fails the run", async () => {
    const { out: first } = await run();
    const dir = without([KEV_URL, osvModifiedIdsUrl("npm"), githubReleasesUrl("coinbase/x402")]);
    const { out, notices } = await run(dir, first.data);
    expect(out.data.kev.entries).toEqual(first.data.kev.entries);
    expect(out.data.advisories.filter((a) => a.kind === "malicious").map((a) => a.id).sort()).toEqual(first.data.advisories.filter((a) => a.kind === "malicious").map((a) => a.id).sort());
    expect(out.data.protocols.find((p) => p.id === "x402")!.releases).toEqual(first.data.protocols.find((p) => p.id === "x402")!.releases);
    expect(notices).toHaveLength(3);
    await expect(run(without([KEV_URL]))).rejects.toThrow(/KEV catalog unreadable/);
  });

  it("every registry failing fails the run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "security-advisories-"));
    temps.push(dir);
    writeFileSync(join(dir, "placeholder"), "");
    await expect(run(dir)).rejects.toThrow(/every registry request failed/);
  });
});

describe("mergeAliases()", () => {
  const base = { cve_ids: [], kind: "vulnerability" as const, summary: "", cvss_score: null, withdrawn: null, source_url: "https://osv.dev/x", affected: [{ ecosystem: "PyPI" as const, name: "p", ranges: [], versions: ["1.0"] }] };
  it("unites records linked through any alias, keeps the highest known severity and the earliest publication", () => {
    const merged = mergeAliases([
      { ...base, id: "PYSEC-1", aliases: ["CVE-2024-0001"], severity: "unknown", published: "2024-01-02T00:00:00.000Z", modified: "2024-01-05T00:00:00.000Z" },
      { ...base, id: "GHSA-aaaa-bbbb-cccc", aliases: ["CVE-2024-0001"], cve_ids: ["CVE-2024-0001"], severity: "high", published: "2024-01-01T00:00:00.000Z", modified: "2024-01-03T00:00:00.000Z" },
      { ...base, id: "PYSEC-2", aliases: [], severity: "low", published: "2024-02-01T00:00:00.000Z", modified: "2024-02-01T00:00:00.000Z", withdrawn: "2024-03-01T00:00:00.000Z" },
    ]);
    expect(merged.map((m) => [m.id, m.aliases, m.severity, m.published, m.modified, m.withdrawn])).toEqual([
      ["GHSA-aaaa-bbbb-cccc", ["CVE-2024-0001", "PYSEC-1"], "high", "2024-01-01T00:00:00.000Z", "2024-01-05T00:00:00.000Z", null],
      ["PYSEC-2", [], "low", "2024-02-01T00:00:00.000Z", "2024-02-01T00:00:00.000Z", "2024-03-01T00:00:00.000Z"],
    ]);
  });
});
