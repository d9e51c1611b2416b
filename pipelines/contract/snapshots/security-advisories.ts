/**
 * The `security-advisories` snapshot: what the security verdicts judge packages against, gathered once a day.
 *
 * - `packages`: the curated cohort (pipelines/catalog/security-cohort.ts) with each package's release metadata
 *   from its registry (npm, PyPI): latest version, published versions, deprecation or yanking of the latest.
 * - `advisories`: OSV records (vulnerabilities of the cohort, plus the OSV malicious-package advisories of npm
 *   and PyPI seen recently), with their affected ranges kept in the OSV form so versions are matched exactly.
 * - `kev`: the CISA Known Exploited Vulnerabilities entries whose CVE an advisory names, and the catalog's version.
 * - `protocols`: releases of the protocol specifications the service tracks (MCP, x402, OpenAPI).
 */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Package ecosystems covered, with OSV's spelling. */
export const SECURITY_ECOSYSTEMS = ["npm", "PyPI"] as const;
/** Severity labels (from the advisory's own label, else its CVSS base score; `unknown` without either). */
export const ADVISORY_SEVERITIES = ["critical", "high", "medium", "low", "unknown"] as const;
/** `malicious`: an OSV MAL- record (the package or some of its versions are malware); else a vulnerability. */
export const ADVISORY_KINDS = ["vulnerability", "malicious"] as const;
/** The protocol specifications whose releases the drift verdict watches. */
export const TRACKED_PROTOCOLS = ["mcp", "x402", "openapi"] as const;
/** Where the cohort comes from (pipelines/catalog/security-cohort.ts names each entry's source). */
export const SECURITY_COHORT_SOURCE =
  "AI-agent stack packages hand-picked from the npm and PyPI download rankings and the CISA KEV catalog's open-source entries (2026-11-24)";

const ecosystem = z.enum(SECURITY_ECOSYSTEMS);
const isoTime = z.iso.datetime({ offset: true });

/** One OSV range, events kept as published (`introduced`, `fixed`, `last_affected`, `limit`). */
export const osvRangeSchema = z.strictObject({
  type: z.enum(["ECOSYSTEM", "SEMVER"]),
  events: z.array(
    z.union([
      z.strictObject({ introduced: z.string().min(1).max(80) }),
      z.strictObject({ fixed: z.string().min(1).max(80) }),
      z.strictObject({ last_affected: z.string().min(1).max(80) }),
      z.strictObject({ limit: z.string().min(1).max(80) }),
    ]),
  ).max(64),
});

/** One affected package of an advisory. */
export const affectedPackageSchema = z.strictObject({
  ecosystem,
  name: z.string().min(1).max(214),
  ranges: z.array(osvRangeSchema).max(32),
  /** Explicitly listed affected versions (capped at 1000). */
  versions: z.array(z.string().min(1).max(80)).max(1000),
});

/** One advisory (an OSV record, merged with its aliases when the same vulnerability came under several ids). */
export const advisorySchema = z.strictObject({
  id: z.string().min(1).max(80),
  /** Other ids of the same vulnerability (CVE, GHSA, PYSEC …), sorted. */
  aliases: z.array(z.string().min(1).max(80)).max(32),
  /** The CVE ids among id and aliases. */
  cve_ids: z.array(z.string().regex(/^CVE-\d{4}-\d{4,}$/)).max(16),
  kind: z.enum(ADVISORY_KINDS),
  /** Sanitized summary (at most 300 characters). */
  summary: z.string().max(300),
  severity: z.enum(ADVISORY_SEVERITIES),
  /** CVSS base score when a vector was published (0-10), else null. */
  cvss_score: z.number().min(0).max(10).nullable(),
  published: isoTime,
  modified: isoTime,
  /** When the advisory was withdrawn (then it no longer counts), else null. */
  withdrawn: isoTime.nullable(),
  /** The advisory's page (OSV). */
  source_url: httpUrl,
  affected: z.array(affectedPackageSchema).min(1).max(64),
});
export type Advisory = z.infer<typeof advisorySchema>;

/** One package of the curated cohort with its registry metadata. */
export const cohortPackageSchema = z.strictObject({
  ecosystem,
  name: z.string().min(1).max(214),
  /** What the package is in an AI-agent stack (llm-sdk, agent-framework, web-framework …). */
  category: z.string().min(1).max(40),
  /** The registry's latest release (npm dist-tags.latest, PyPI info.version); null when the registry failed. */
  latest_version: z.string().min(1).max(80).nullable(),
  /** Every published version, in the ecosystem's order (at most 3000, the newest kept). */
  versions: z.array(z.string().min(1).max(80)).max(3000),
  /** Whether the latest release is deprecated (npm) or yanked (PyPI). */
  latest_deprecated: z.boolean(),
  registry_url: httpUrl,
});
export type CohortPackage = z.infer<typeof cohortPackageSchema>;

/** One CISA KEV entry (only those an advisory names). */
export const kevEntrySchema = z.strictObject({
  cve_id: z.string().regex(/^CVE-\d{4}-\d{4,}$/),
  vendor_project: z.string().max(120),
  product: z.string().max(120),
  /** The day CISA added it; null when the catalog's date is unreadable or out of range (the entry still counts). */
  date_added: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
  due_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
  /** knownRansomwareCampaignUse: true for Known, false for Unknown. */
  ransomware: z.boolean(),
});
export type KevEntry = z.infer<typeof kevEntrySchema>;

/** One release of a tracked protocol specification. */
export const protocolReleaseSchema = z.strictObject({
  tag: z.string().min(1).max(80),
  name: z.string().max(200),
  published_at: isoTime,
  url: httpUrl,
});

export const trackedProtocolSchema = z.strictObject({
  id: z.enum(TRACKED_PROTOCOLS),
  name: z.string().min(1).max(80),
  /** The repository whose releases are the protocol's versions. */
  repository: z.string().min(1).max(120),
  /** Newest first, at most 20; empty when the release listing failed. */
  releases: z.array(protocolReleaseSchema).max(20),
});
export type TrackedProtocol = z.infer<typeof trackedProtocolSchema>;

/** The `security-advisories` snapshot body. */
export const securityAdvisoriesSnapshotSchema = z.strictObject({
  cohort_source: z.string(),
  packages: z.array(cohortPackageSchema),
  advisories: z.array(advisorySchema),
  kev: z.strictObject({
    catalog_version: z.string().max(40),
    date_released: isoTime,
    /** Entries in the whole catalog. */
    count: z.int().nonnegative(),
    entries: z.array(kevEntrySchema),
  }),
  protocols: z.array(trackedProtocolSchema),
  summary: z.strictObject({
    cohort_packages: z.int().nonnegative(),
    vulnerabilities: z.int().nonnegative(),
    malicious: z.int().nonnegative(),
    kev_matched: z.int().nonnegative(),
  }),
});
export type SecurityAdvisoriesSnapshot = z.infer<typeof securityAdvisoriesSnapshotSchema>;

/** The `security-advisories` snapshot type: daily, SLA 2 days. */
export const securityAdvisoriesSnapshotType = {
  type: "security-advisories",
  title: "Package advisories (OSV, including malicious packages), CISA KEV, registry releases of a curated cohort, protocol releases",
  cron: "47 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: securityAdvisoriesSnapshotSchema,
} satisfies SnapshotType<SecurityAdvisoriesSnapshot>;
