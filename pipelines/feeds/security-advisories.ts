/**
 * The `security-advisories` snapshot, once a day:
 *
 * 1. Registry metadata of each cohort package (pipelines/catalog/security-cohort.ts): npm's abbreviated package
 *    document or PyPI's JSON API. A package whose registry fails keeps the previous snapshot's metadata (or none,
 *    with a notice); every registry failing fails the run.
 * 2. OSV: one querybatch POST for the whole cohort, then each advisory id's full record. A record that cannot be
 *    fetched is taken from the previous snapshot; without one the run fails (a missing advisory would turn a
 *    REVIEW into a GO). A record fetched but with neither a usable published nor modified time (sources/osv.ts)
 *    is also taken from the previous snapshot; without one it alone is skipped, with a notice.
 * 3. OSV malicious-package advisories: each ecosystem's modified_id.csv, the MAL- ids modified in the last
 *    MALICIOUS_WINDOW_DAYS (at most MALICIOUS_PER_RUN per ecosystem; those already held unchanged are reused),
 *    merged with the previous snapshot's, newest MAX_MALICIOUS kept. A listing that fails keeps the previous set.
 * 4. CISA KEV: the catalog; entries whose CVE an advisory names are kept. A failure keeps the previous block.
 * 5. Releases of the tracked protocol specifications (a failure keeps the previous releases).
 *
 * Records describing one vulnerability under several ids (PYSEC and GHSA with one CVE) are merged into one
 * advisory: the GitHub-reviewed record leads (it carries the severity label), aliases are united.
 *
 * Warehouse: `package_versions_daily` (latest version per cohort package) and `package_advisories_daily` (one
 * row per package and advisory naming it), keyed by date.
 */
import PQueue from "p-queue";
import * as pep440 from "@renovatebot/pep440";
import semver from "semver";
import { SECURITY_COHORT, TRACKED_PROTOCOL_REPOS, type CohortEntry, type ProtocolEntry } from "../catalog/security-cohort.ts";
import type { Feed, FeedContext, FeedOutput, HistoryMoment, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { KEV_URL, parseKev, type KevCatalog } from "../sources/cisa-kev.ts";
import { githubReleasesUrl, parseReleases } from "../sources/github-releases.ts";
import { NPM_ABBREVIATED, npmPackageUrl, npmPackumentUrl, parseNpmPackument, type RegistryRelease } from "../sources/npm-registry.ts";
import { normalizeOsvRecord, OSV_QUERYBATCH_URL, OsvUndatedError, osvBucketRecordUrl, osvModifiedIdsUrl, osvVulnUrl, parseOsvRecord, parseQueryBatch, recentMaliciousIds } from "../sources/osv.ts";
import { parsePypiProject, pypiPageUrl, pypiProjectUrl } from "../sources/pypi.ts";
import {
  ADVISORY_SEVERITIES,
  SECURITY_COHORT_SOURCE,
  SECURITY_ECOSYSTEMS,
  securityAdvisoriesSnapshotSchema,
  securityAdvisoriesSnapshotType,
  type Advisory,
  type CohortPackage,
  type SecurityAdvisoriesSnapshot,
  type TrackedProtocol,
} from "../contract/snapshots/security-advisories.ts";

export { securityAdvisoriesSnapshotSchema, type SecurityAdvisoriesSnapshot } from "../contract/snapshots/security-advisories.ts";

/** Malicious-package advisories modified this many days back are read from the listings. */
export const MALICIOUS_WINDOW_DAYS = 30;
/** New malicious-package records fetched per ecosystem and run at most. */
export const MALICIOUS_PER_RUN = 300;
/** Malicious-package advisories kept across runs at most (the most recently modified). */
export const MAX_MALICIOUS = 5000;
/** Vulnerability records fetched per run at most. */
export const MAX_VULNS = 800;
/** Concurrent registry and record requests (the client also limits each host to 2). */
const CONCURRENCY = 6;
/** modified_id.csv lists every advisory of an ecosystem; npm's is tens of megabytes. */
const LISTING_MAX_BYTES = 64 * 1024 * 1024;
/** Some package documents are large (many versions). */
const PACKUMENT_MAX_BYTES = 24 * 1024 * 1024;

/** A run that cannot produce a trustworthy snapshot. */
export class SecurityFeedError extends Error {
  override name = "SecurityFeedError";
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** The querybatch body for the cohort (fixed order: the replay fixture is keyed by it). */
export function queryBatchBody(cohort: readonly CohortEntry[]): string {
  return JSON.stringify({ queries: cohort.map((c) => ({ package: { name: c.name, ecosystem: c.ecosystem } })) });
}

async function readRegistry(ctx: FeedContext, entry: CohortEntry): Promise<RegistryRelease> {
  if (entry.ecosystem === "npm") {
    const res = await ctx.http.getText(npmPackumentUrl(entry.name), { headers: { accept: NPM_ABBREVIATED }, expectContentType: ["json"], maxBytes: PACKUMENT_MAX_BYTES });
    return parseNpmPackument(res.body);
  }
  const res = await ctx.http.getText(pypiProjectUrl(entry.name), { headers: { accept: "application/json" }, expectContentType: ["json"], maxBytes: PACKUMENT_MAX_BYTES });
  return parsePypiProject(res.body);
}

async function readCohort(ctx: FeedContext, cohort: readonly CohortEntry[], previous: SecurityAdvisoriesSnapshot | undefined, sources: SourceHealth[]): Promise<CohortPackage[]> {
  const queue = new PQueue({ concurrency: CONCURRENCY });
  let failures = 0;
  const out = await Promise.all(
    cohort.map((entry) =>
      queue.add(async (): Promise<CohortPackage> => {
        const registry_url = entry.ecosystem === "npm" ? npmPackageUrl(entry.name) : pypiPageUrl(entry.name);
        try {
          const release = await readRegistry(ctx, entry);
          return { ecosystem: entry.ecosystem, name: entry.name, category: entry.category, ...release, registry_url };
        } catch (error) {
          failures += 1;
          ctx.notice(`security-advisories: registry of ${entry.ecosystem}:${entry.name} failed (${message(error)}); previous metadata kept`);
          const before = previous?.packages.find((p) => p.ecosystem === entry.ecosystem && p.name === entry.name);
          return before ? { ...before, category: entry.category } : { ecosystem: entry.ecosystem, name: entry.name, category: entry.category, latest_version: null, versions: [], latest_deprecated: false, registry_url };
        }
      }),
    ),
  );
  if (cohort.length > 0 && failures === cohort.length) throw new SecurityFeedError(`security-advisories: every registry request failed (${failures})`);
  sources.push({ id: "registries", ok: failures === 0, ...(failures > 0 ? { error: `${failures} of ${cohort.length} package documents failed` } : {}) });
  return out;
}

/** Fetch records by URL, falling back on the previous snapshot's copy; throws when neither is there and `required`. */
async function readRecords(ctx: FeedContext, wanted: { id: string; url: string }[], held: Map<string, Advisory>, required: boolean): Promise<{ advisories: Advisory[]; failed: string[] }> {
  const queue = new PQueue({ concurrency: CONCURRENCY });
  const failed: string[] = [];
  const undated: string[] = [];
  const advisories = await Promise.all(
    wanted.map(({ id, url }) =>
      queue.add(async (): Promise<Advisory | null> => {
        try {
          const res = await ctx.http.getText(url, { headers: { accept: "application/json" }, expectContentType: ["json"] });
          return normalizeOsvRecord(parseOsvRecord(res.body), ctx.now);
        } catch (error) {
          const before = held.get(id);
          if (before) return before;
          if (error instanceof OsvUndatedError) undated.push(id);
          else failed.push(`${id}: ${message(error)}`);
          return null;
        }
      }),
    ),
  );
  if (undated.length > 0) ctx.notice(`security-advisories: ${undated.length} OSV record(s) without a usable published or modified time and not held before, skipped: ${undated.sort().slice(0, 5).join(", ")}`);
  if (required && failed.length > 0) throw new SecurityFeedError(`security-advisories: ${failed.length} OSV record(s) unreadable and not held before; first: ${failed[0]}`);
  return { advisories: advisories.filter((a): a is Advisory => a !== null), failed };
}

async function readVulnerabilities(ctx: FeedContext, cohort: readonly CohortEntry[], held: Map<string, Advisory>, sources: SourceHealth[]): Promise<Advisory[]> {
  const res = await ctx.http.getText(OSV_QUERYBATCH_URL, { jsonBody: queryBatchBody(cohort), expectContentType: ["json"] });
  const batch = parseQueryBatch(res.body, cohort.length);
  batch.more.forEach((more, i) => {
    if (more) ctx.notice(`security-advisories: OSV has more advisories of ${cohort[i]!.ecosystem}:${cohort[i]!.name} than one page; the first page is used`);
  });
  let ids = [...new Set(batch.ids.flat())].sort();
  if (ids.length > MAX_VULNS) {
    ctx.notice(`security-advisories: ${ids.length} advisory ids, the first ${MAX_VULNS} read`);
    ids = ids.slice(0, MAX_VULNS);
  }
  const { advisories } = await readRecords(ctx, ids.map((id) => ({ id, url: osvVulnUrl(id) })), held, true);
  sources.push({ id: "osv", ok: true });
  return advisories;
}

async function readMalicious(ctx: FeedContext, previous: SecurityAdvisoriesSnapshot | undefined, sources: SourceHealth[]): Promise<Advisory[]> {
  const held = new Map((previous?.advisories ?? []).filter((a) => a.kind === "malicious").map((a) => [a.id, a]));
  const since = new Date(ctx.now.getTime() - MALICIOUS_WINDOW_DAYS * 86_400_000);
  const fresh: Advisory[] = [];
  for (const ecosystem of SECURITY_ECOSYSTEMS) {
    let csv: string;
    try {
      csv = (await ctx.http.getText(osvModifiedIdsUrl(ecosystem), { maxBytes: LISTING_MAX_BYTES, expectContentType: ["text", "csv", "octet-stream"] })).body;
    } catch (error) {
      ctx.notice(`security-advisories: OSV ${ecosystem} listing failed (${message(error)}); malicious-package advisories held before are kept`);
      sources.push({ id: `osv-malicious-${ecosystem.toLowerCase()}`, ok: false, error: message(error) });
      continue;
    }
    // Fetched only when new, or modified since the copy held.
    const stale = recentMaliciousIds(csv, since, MALICIOUS_PER_RUN)
      .filter(({ id, modified }) => {
        const before = held.get(id);
        return before === undefined || Date.parse(before.modified) < modified;
      })
      .map(({ id }) => id);
    const { advisories, failed } = await readRecords(ctx, stale.map((id) => ({ id, url: osvBucketRecordUrl(ecosystem, id) })), held, false);
    if (failed.length > 0) ctx.notice(`security-advisories: ${failed.length} malicious-package record(s) of ${ecosystem} unreadable; first: ${failed[0]}`);
    fresh.push(...advisories.filter((a) => a.kind === "malicious"));
    sources.push({ id: `osv-malicious-${ecosystem.toLowerCase()}`, ok: failed.length === 0, ...(failed.length > 0 ? { error: `${failed.length} records unreadable` } : {}) });
  }
  const merged = new Map(held);
  for (const a of fresh) merged.set(a.id, a);
  return [...merged.values()].sort((a, b) => (a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : a.id.localeCompare(b.id))).slice(0, MAX_MALICIOUS);
}

async function readKev(ctx: FeedContext, previous: SecurityAdvisoriesSnapshot | undefined, sources: SourceHealth[]): Promise<KevCatalog | null> {
  try {
    const res = await ctx.http.getText(KEV_URL, { expectContentType: ["json"], maxBytes: 16 * 1024 * 1024 });
    const kev = parseKev(res.body, ctx.now);
    if (kev.skipped > 0) ctx.notice(`security-advisories: ${kev.skipped} KEV entries without a readable CVE id or date skipped`);
    sources.push({ id: "cisa-kev", ok: true });
    return kev;
  } catch (error) {
    sources.push({ id: "cisa-kev", ok: false, error: message(error) });
    if (!previous) throw new SecurityFeedError(`security-advisories: KEV catalog unreadable and none held before: ${message(error)}`);
    ctx.notice(`security-advisories: KEV catalog failed (${message(error)}); the previous one is kept`);
    return null;
  }
}

async function readProtocols(ctx: FeedContext, protocols: readonly ProtocolEntry[], previous: SecurityAdvisoriesSnapshot | undefined, sources: SourceHealth[]): Promise<TrackedProtocol[]> {
  const out: TrackedProtocol[] = [];
  for (const p of protocols) {
    try {
      const res = await ctx.http.getText(githubReleasesUrl(p.repository), { headers: { accept: "application/vnd.github+json" }, expectContentType: ["json"] });
      out.push({ id: p.id, name: p.name, repository: p.repository, releases: parseReleases(res.body, ctx.now) });
      sources.push({ id: `releases-${p.id}`, ok: true });
    } catch (error) {
      ctx.notice(`security-advisories: releases of ${p.repository} failed (${message(error)}); previous releases kept`);
      sources.push({ id: `releases-${p.id}`, ok: false, error: message(error) });
      out.push({ id: p.id, name: p.name, repository: p.repository, releases: previous?.protocols.find((q) => q.id === p.id)?.releases ?? [] });
    }
  }
  return out;
}

const SEVERITY_ORDER = ADVISORY_SEVERITIES;

/**
 * One advisory per vulnerability: records sharing an id or alias are merged (the GHSA record leads, else the
 * first by id); aliases and CVE ids united, the highest known severity and CVSS score, the earliest publication
 * and latest modification; withdrawn only when every record is.
 */
export function mergeAliases(records: readonly Advisory[]): Advisory[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(rb, ra);
  };
  for (const r of records) {
    parent.set(r.id, parent.get(r.id) ?? r.id);
    for (const alias of r.aliases) {
      if (!parent.has(alias)) parent.set(alias, alias);
      union(r.id, alias);
    }
  }
  const groups = new Map<string, Advisory[]>();
  for (const r of records) {
    const root = find(r.id);
    groups.set(root, [...(groups.get(root) ?? []), r]);
  }
  const merged: Advisory[] = [];
  for (const group of groups.values()) {
    const sorted = [...group].sort((a, b) => Number(b.id.startsWith("GHSA-")) - Number(a.id.startsWith("GHSA-")) || a.id.localeCompare(b.id));
    const lead = sorted[0]!;
    const ids = new Set(group.flatMap((r) => [r.id, ...r.aliases]));
    ids.delete(lead.id);
    const known = group.map((r) => r.severity).filter((s) => s !== "unknown");
    const scores = group.map((r) => r.cvss_score).filter((s): s is number => s !== null);
    merged.push({
      ...lead,
      aliases: [...ids].sort().slice(0, 32),
      cve_ids: [...new Set(group.flatMap((r) => r.cve_ids))].sort().slice(0, 16),
      severity: known.length > 0 ? known.sort((a, b) => SEVERITY_ORDER.indexOf(a) - SEVERITY_ORDER.indexOf(b))[0]! : "unknown",
      cvss_score: scores.length > 0 ? Math.max(...scores) : null,
      published: group.map((r) => r.published).sort()[0]!,
      modified: group.map((r) => r.modified).sort().at(-1)!,
      withdrawn: group.every((r) => r.withdrawn !== null) ? group.map((r) => r.withdrawn!).sort().at(-1)! : null,
    });
  }
  return merged.sort((a, b) => a.id.localeCompare(b.id));
}

/** The latest major release line of a version (npm: SemVer major; PyPI: first release segment). */
function majorOf(ecosystem: CohortPackage["ecosystem"], version: string | null): string | null {
  if (version === null) return null;
  if (ecosystem === "npm") return semver.valid(version) ? String(semver.major(version)) : null;
  const parsed = pep440.parse(version);
  return parsed ? (parsed.epoch ? `${parsed.epoch}!${parsed.release[0]}` : String(parsed.release[0])) : null;
}

/** The warehouse rows of a snapshot body on one UTC day. */
export function securityAdvisoriesRows(data: SecurityAdvisoriesSnapshot, date: string): WarehouseBatch[] {
  const kev = new Set(data.kev.entries.map((e) => e.cve_id));
  return [
    {
      table: "package_versions_daily",
      key: ["date", "ecosystem", "package"],
      rows: data.packages.map((p) => ({ date, ecosystem: p.ecosystem, package: p.name, latest_version: p.latest_version, latest_major: majorOf(p.ecosystem, p.latest_version), versions: p.versions.length, latest_deprecated: p.latest_deprecated })),
    },
    {
      table: "package_advisories_daily",
      key: ["date", "ecosystem", "package", "advisory_id"],
      rows: [
        ...new Map(
          data.advisories.flatMap((a) =>
            a.affected.map((af) => [
              `${af.ecosystem}\u0000${af.name}\u0000${a.id}`,
              { date, ecosystem: af.ecosystem, package: af.name, advisory_id: a.id, kind: a.kind, severity: a.severity, cve_ids: a.cve_ids.join(","), on_kev: a.cve_ids.some((c) => kev.has(c)), published: a.published, withdrawn: a.withdrawn !== null },
            ] as const),
          ),
        ).values(),
      ],
    },
  ];
}

/** Build the snapshot. `cohort` and `protocols` default to the catalog. */
export async function runSecurityAdvisories(ctx: FeedContext, cohort: readonly CohortEntry[] = SECURITY_COHORT, protocols: readonly ProtocolEntry[] = TRACKED_PROTOCOL_REPOS): Promise<FeedOutput<SecurityAdvisoriesSnapshot>> {
  const raw = await ctx.previous<unknown>("security-advisories");
  const prior = raw === undefined ? undefined : securityAdvisoriesSnapshotSchema.safeParse(raw);
  if (prior && !prior.success) ctx.notice("security-advisories: the previous snapshot does not match the contract; nothing is carried over");
  const previous = prior?.success ? prior.data : undefined;
  const held = new Map<string, Advisory>();
  for (const a of previous?.advisories ?? []) for (const id of [a.id, ...a.aliases]) held.set(id, a);

  const sources: SourceHealth[] = [];
  const packages = await readCohort(ctx, cohort, previous, sources);
  const vulnerabilities = await readVulnerabilities(ctx, cohort, held, sources);
  const malicious = await readMalicious(ctx, previous, sources);
  const kev = await readKev(ctx, previous, sources);
  const protocolReleases = await readProtocols(ctx, protocols, previous, sources);

  const vulnIds = new Set(vulnerabilities.map((a) => a.id));
  const advisories = mergeAliases([...vulnerabilities, ...malicious.filter((m) => !vulnIds.has(m.id))]);
  const cves = new Set(advisories.flatMap((a) => a.cve_ids));
  const kevBlock = kev
    ? { catalog_version: kev.catalog_version, date_released: kev.date_released, count: kev.count, entries: kev.entries.filter((e) => cves.has(e.cve_id)).sort((a, b) => a.cve_id.localeCompare(b.cve_id)) }
    : { ...previous!.kev, entries: previous!.kev.entries.filter((e) => cves.has(e.cve_id)) };

  const data = securityAdvisoriesSnapshotSchema.parse({
    cohort_source: SECURITY_COHORT_SOURCE,
    packages,
    advisories,
    kev: kevBlock,
    protocols: protocolReleases,
    summary: {
      cohort_packages: packages.length,
      vulnerabilities: advisories.filter((a) => a.kind === "vulnerability").length,
      malicious: advisories.filter((a) => a.kind === "malicious").length,
      kev_matched: kevBlock.entries.length,
    },
  });
  return { data, rows: data.advisories.length + data.packages.length, sources, warehouse: securityAdvisoriesRows(data, ctx.now.toISOString().slice(0, 10)) };
}

/** The `security-advisories` snapshot type (API: the package, stack-safety and stack-drift verdicts). */
export const securityAdvisoriesFeed: Feed<SecurityAdvisoriesSnapshot> = {
  ...securityAdvisoriesSnapshotType,
  urls: () => [
    ...SECURITY_COHORT.map((c) => (c.ecosystem === "npm" ? npmPackumentUrl(c.name) : pypiProjectUrl(c.name))),
    OSV_QUERYBATCH_URL,
    ...SECURITY_ECOSYSTEMS.map(osvModifiedIdsUrl),
    KEV_URL,
    ...TRACKED_PROTOCOL_REPOS.map((p) => githubReleasesUrl(p.repository)),
  ],
  run: (ctx) => runSecurityAdvisories(ctx),
  historyRows: (data: SecurityAdvisoriesSnapshot, at: HistoryMoment) => securityAdvisoriesRows(data, at.date),
};
