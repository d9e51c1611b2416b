/** Builders of OSV-form advisories, cohort entries and KEV entries for the security verdicts' tests. */
import type { Advisory, CohortPackage, KevEntry } from "../../../pipelines/contract/snapshots/security-advisories.ts";

type Event = { introduced: string } | { fixed: string } | { last_affected: string } | { limit: string };

/** An advisory of one package; `ranges` are ECOSYSTEM ranges unless given as { type, events }. */
export function advisory(
  id: string,
  ecosystem: "npm" | "PyPI",
  name: string,
  options: {
    ranges?: (Event[] | { type: "ECOSYSTEM" | "SEMVER"; events: Event[] })[];
    versions?: string[];
    cve?: string;
    severity?: Advisory["severity"];
    kind?: Advisory["kind"];
    published?: string;
    withdrawn?: string;
  } = {},
): Advisory {
  return {
    id,
    aliases: options.cve ? [options.cve] : [],
    cve_ids: options.cve ? [options.cve] : [],
    kind: options.kind ?? (id.startsWith("MAL-") ? "malicious" : "vulnerability"),
    summary: `${id} summary`,
    severity: options.severity ?? "high",
    cvss_score: null,
    published: options.published ?? "2025-01-01T00:00:00.000Z",
    modified: options.published ?? "2025-01-01T00:00:00.000Z",
    withdrawn: options.withdrawn ?? null,
    source_url: `https://osv.dev/vulnerability/${id}`,
    affected: [
      {
        ecosystem,
        name,
        ranges: (options.ranges ?? []).map((r) => (Array.isArray(r) ? { type: "ECOSYSTEM" as const, events: r } : r)),
        versions: options.versions ?? [],
      },
    ],
  };
}

export function cohortPackage(ecosystem: "npm" | "PyPI", name: string, versions: string[], extra: Partial<CohortPackage> = {}): CohortPackage {
  return { ecosystem, name, category: "utility", latest_version: versions.at(-1) ?? null, versions, latest_deprecated: false, registry_url: `https://example.org/${name}`, ...extra };
}

export function kevEntry(cve: string): KevEntry {
  return { cve_id: cve, vendor_project: "Vendor", product: "Product", date_added: "2025-05-05", due_date: "2025-05-26", ransomware: false };
}
