/**
 * OSV, the open-source vulnerability database (https://osv.dev, schema https://ossf.github.io/osv-schema/,
 * public, no key, no published rate limit):
 *
 * - `POST https://api.osv.dev/v1/querybatch` `{ queries: [{ package: { name, ecosystem } }] }` answers, per
 *   query in order, `{ vulns: [{ id, modified }] }` (ids only; `next_page_token` when a package has more than
 *   a page of them).
 * - `GET https://api.osv.dev/v1/vulns/<id>` answers one full record.
 * - The malicious-package advisories (ids `MAL-…`, from the OpenSSF malicious-packages project) are listed per
 *   ecosystem at `https://osv-vulnerabilities.storage.googleapis.com/<ecosystem>/modified_id.csv` (lines
 *   `<modified ISO time>,<id>`, newest first) and served there as `<ecosystem>/<id>.json`.
 *
 * `parseOsvRecord` reads a record tolerantly; `normalizeOsvRecord` keeps what the verdicts match on: the
 * affected npm and PyPI packages with their ECOSYSTEM and SEMVER ranges (GIT ranges name commits, not releases)
 * and listed versions, the CVE aliases, a severity label and the sanitized summary.
 */
import * as cvssModule from "ae-cvss-calculator";
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import { ADVISORY_SEVERITIES, advisorySchema, SECURITY_ECOSYSTEMS, type Advisory } from "../contract/snapshots/security-advisories.ts";

type OsvEvent = { introduced: string } | { fixed: string } | { last_affected: string } | { limit: string };

// A CommonJS package: under Node's ESM loader its classes sit on the default export, under a CJS transform on the namespace.
const cvss = (cvssModule as unknown as { default?: typeof cvssModule }).default ?? cvssModule;
const { Cvss2, Cvss3P0, Cvss3P1, Cvss4P0 } = cvss;

export const OSV_QUERYBATCH_URL = "https://api.osv.dev/v1/querybatch";
export const osvVulnUrl = (id: string) => `https://api.osv.dev/v1/vulns/${encodeURIComponent(id)}`;
export const osvPageUrl = (id: string) => `https://osv.dev/vulnerability/${encodeURIComponent(id)}`;
export const OSV_BUCKET = "https://osv-vulnerabilities.storage.googleapis.com";
export const osvModifiedIdsUrl = (ecosystem: string) => `${OSV_BUCKET}/${ecosystem}/modified_id.csv`;
export const osvBucketRecordUrl = (ecosystem: string, id: string) => `${OSV_BUCKET}/${ecosystem}/${encodeURIComponent(id)}.json`;

/** A body OSV would not send. */
export class OsvParseError extends Error {
  override name = "OsvParseError";
}

/** A record whose `published` and `modified` are both unusable times: it cannot be dated at all. */
export class OsvUndatedError extends Error {
  override name = "OsvUndatedError";
}

const event = z.looseObject({ introduced: z.string().nullish(), fixed: z.string().nullish(), last_affected: z.string().nullish(), limit: z.string().nullish() });
const record = z.looseObject({
  id: z.string().min(1).max(80),
  modified: z.string(),
  published: z.string().nullish(),
  withdrawn: z.string().nullish(),
  aliases: z.array(z.string()).nullish(),
  summary: z.string().nullish(),
  details: z.string().nullish(),
  severity: z.array(z.looseObject({ type: z.string(), score: z.string() })).nullish(),
  affected: z
    .array(
      z.looseObject({
        package: z.looseObject({ ecosystem: z.string(), name: z.string() }).nullish(),
        ranges: z.array(z.looseObject({ type: z.string(), events: z.array(event).nullish() })).nullish(),
        versions: z.array(z.string()).nullish(),
        database_specific: z.looseObject({ severity: z.string().nullish() }).nullish(),
        ecosystem_specific: z.looseObject({ severity: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
  database_specific: z.looseObject({ severity: z.string().nullish() }).nullish(),
});
export type OsvRecord = z.infer<typeof record>;

/** Read one OSV record (a JSON body); throws OsvParseError on anything else. */
export function parseOsvRecord(body: string): OsvRecord {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new OsvParseError(`OSV record is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = record.safeParse(json);
  if (!parsed.success) throw new OsvParseError(`not an OSV record: ${parsed.error.issues[0]?.message ?? "invalid"} at ${parsed.error.issues[0]?.path.join(".") ?? ""}`);
  return parsed.data;
}

const batch = z.looseObject({
  results: z.array(z.looseObject({ vulns: z.array(z.looseObject({ id: z.string().min(1).max(80) })).nullish(), next_page_token: z.string().nullish() })),
});

/** The ids each query of a querybatch answer names, in query order; `more` when a package has a further page. */
export function parseQueryBatch(body: string, queries: number): { ids: string[][]; more: boolean[] } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new OsvParseError("OSV querybatch answer is not JSON");
  }
  const parsed = batch.safeParse(json);
  if (!parsed.success) throw new OsvParseError("OSV querybatch answer has no results array");
  if (parsed.data.results.length !== queries) throw new OsvParseError(`OSV querybatch answered ${parsed.data.results.length} results for ${queries} queries`);
  return {
    ids: parsed.data.results.map((r) => (r.vulns ?? []).map((v) => v.id)),
    more: parsed.data.results.map((r) => typeof r.next_page_token === "string" && r.next_page_token !== ""),
  };
}

/** The `MAL-` entries of a modified_id.csv listing modified at or after `since`, newest first, at most `max`, with their modification time (ms). */
export function recentMaliciousIds(csv: string, since: Date, max: number): { id: string; modified: number }[] {
  const out: { id: string; modified: number }[] = [];
  for (const line of csv.split(/\r?\n/)) {
    const comma = line.indexOf(",");
    if (comma < 0) continue;
    const modified = Date.parse(line.slice(0, comma));
    const id = line.slice(comma + 1).trim();
    if (Number.isNaN(modified) || !/^MAL-\d{4}-\d+$/.test(id)) continue;
    if (modified < since.getTime()) continue;
    out.push({ id, modified });
    if (out.length >= max) break;
  }
  return out;
}

type Severity = (typeof ADVISORY_SEVERITIES)[number];

/** CVSS base score of a vector (v2, v3.0, v3.1, v4.0), or null when it cannot be read. */
export function cvssBaseScore(vector: string): number | null {
  try {
    const v = vector.trim();
    const calc = v.startsWith("CVSS:4.0/") ? new Cvss4P0(v) : v.startsWith("CVSS:3.1/") ? new Cvss3P1(v) : v.startsWith("CVSS:3.0/") ? new Cvss3P0(v) : /^AV:[LAN]\//.test(v) ? new Cvss2(v) : null;
    const base = calc?.calculateScores().base;
    return typeof base === "number" && Number.isFinite(base) ? base : null;
  } catch {
    return null;
  }
}

/** The qualitative rating of a CVSS base score (the CVSS v3/v4 bands; 0 is none, kept as low). */
export function severityOfScore(score: number): Severity {
  return score >= 9 ? "critical" : score >= 7 ? "high" : score >= 4 ? "medium" : "low";
}

const LABELS: Record<string, Severity> = { critical: "critical", high: "high", moderate: "medium", medium: "medium", low: "low" };

function ecosystemOf(name: string): (typeof SECURITY_ECOSYSTEMS)[number] | null {
  return (SECURITY_ECOSYSTEMS as readonly string[]).includes(name) ? (name as (typeof SECURITY_ECOSYSTEMS)[number]) : null;
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/**
 * Package names as each registry allows them; verdicts match on the name exactly, so one outside these rules
 * (markup, control characters, an over-long string) names no package we could ever match and is not stored.
 * - npm (validate-npm-package-name's rules for existing packages): an optional `@scope/`, then URL-safe
 *   characters, not starting with `.` or `_`; at most 214 characters in all. Capitals are allowed: packages
 *   published before npm required lower case (Haraka, JSONStream) are still installed and still get advisories.
 * - PyPI (PEP 508 names): ASCII letters and digits, with `.`, `_`, `-` inside; PyPI sets no length limit, 200
 *   is far above any real name.
 */
const PACKAGE_NAME: Record<(typeof SECURITY_ECOSYSTEMS)[number], { pattern: RegExp; max: number }> = {
  npm: { pattern: /^(?:@[A-Za-z0-9~-][A-Za-z0-9._~-]*\/)?[A-Za-z0-9~-][A-Za-z0-9._~-]*$/, max: 214 },
  PyPI: { pattern: /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/, max: 200 },
};

/** Whether `name` is a valid package name in `ecosystem`. */
export function isPackageName(ecosystem: (typeof SECURITY_ECOSYSTEMS)[number], name: string): boolean {
  const rule = PACKAGE_NAME[ecosystem];
  return name.length <= rule.max && rule.pattern.test(name);
}

/**
 * The advisory a record fetched at `now` stands for, or null when it affects no npm or PyPI package (or names
 * nothing we can match on, e.g. only package names outside the registry's rules). Severity: the record's own
 * label (database_specific or an affected entry's), else the highest CVSS base score among its vectors, else
 * `unknown`.
 * Times (pipelines/lib/time.ts) are usable between 1990 and a day after `now`. `published` falls back on
 * `modified` and `modified` on `published`, so one bad time never loses the advisory; with neither usable it
 * throws OsvUndatedError (the feed keeps the copy it held, else skips that record alone with a notice). An
 * unusable `withdrawn` is null: the advisory keeps counting, the safe side for a verdict.
 */
export function normalizeOsvRecord(r: OsvRecord, now: Date): Advisory | null {
  const affected = (r.affected ?? []).flatMap((a) => {
    const eco = a.package ? ecosystemOf(a.package.ecosystem) : null;
    // An entry of another ecosystem, or with a name its registry would not allow, is dropped like one without
    // a package; a record left with no entry is null, as one naming no npm or PyPI package.
    const name = a.package?.name.trim() ?? "";
    if (!a.package || eco === null || !isPackageName(eco, name)) return [];
    const ranges = (a.ranges ?? [])
      .filter((range) => range.type === "ECOSYSTEM" || range.type === "SEMVER")
      .map((range) => ({
        type: range.type as "ECOSYSTEM" | "SEMVER",
        events: (range.events ?? []).slice(0, 64).flatMap((e): OsvEvent[] => {
          if (e.introduced) return [{ introduced: clip(e.introduced, 80) }];
          if (e.fixed) return [{ fixed: clip(e.fixed, 80) }];
          if (e.last_affected) return [{ last_affected: clip(e.last_affected, 80) }];
          if (e.limit) return [{ limit: clip(e.limit, 80) }];
          return [];
        }),
      }))
      .filter((range) => range.events.length > 0)
      .slice(0, 32);
    const versions = (a.versions ?? []).filter((v) => v.length > 0 && v.length <= 80).slice(-1000);
    return [{ ecosystem: eco, name, ranges, versions }];
  }).slice(0, 64);
  if (affected.length === 0) return null;

  const ids = [r.id, ...(r.aliases ?? [])];
  const cveIds = [...new Set(ids.filter((id) => /^CVE-\d{4}-\d{4,}$/.test(id)))].sort().slice(0, 16);
  const aliases = [...new Set((r.aliases ?? []).filter((a) => a !== r.id && a.length <= 80))].sort().slice(0, 32);
  const labels = [r.database_specific?.severity, ...(r.affected ?? []).flatMap((a) => [a.database_specific?.severity, a.ecosystem_specific?.severity])]
    .map((l) => (typeof l === "string" ? LABELS[l.trim().toLowerCase()] : undefined))
    .filter((l): l is Severity => l !== undefined);
  const scores = (r.severity ?? []).map((s) => cvssBaseScore(s.score)).filter((s): s is number => s !== null);
  const cvss = scores.length > 0 ? Math.max(...scores) : null;
  const order = ADVISORY_SEVERITIES;
  const severity: Severity = labels.length > 0 ? labels.sort((a, b) => order.indexOf(a) - order.indexOf(b))[0]! : cvss !== null ? severityOfScore(cvss) : "unknown";
  const malicious = r.id.startsWith("MAL-");
  const text = r.summary?.trim() || (r.details ?? "").trim().split(/\n\s*\n/)[0] || "";
  const published = pastTime(r.published, now) ?? pastTime(r.modified, now);
  const modified = pastTime(r.modified, now) ?? published;
  if (published === null || modified === null) throw new OsvUndatedError(`OSV record ${r.id} has neither a usable published nor modified time`);

  return advisorySchema.parse({
    id: r.id,
    aliases,
    cve_ids: cveIds,
    kind: malicious ? "malicious" : "vulnerability",
    summary: sanitize(text, { maxLength: 300, format: "plain" }),
    severity: malicious ? "critical" : severity,
    cvss_score: cvss,
    published,
    modified,
    withdrawn: pastTime(r.withdrawn, now),
    source_url: osvPageUrl(r.id),
    affected,
  });
}

