/**
 * The software-supply verdicts: GET /api/premium/security/package-verdict, /api/premium/stack-safety-verdict and
 * /api/premium/stack-drift-verdict. Facts come from the `security-advisories` snapshot (cohort registry metadata,
 * OSV advisories, CISA KEV entries, protocol releases), the warehouse (package_versions_daily for releases over
 * time, model_prices for price moves) and the `model-deprecations` snapshot; the decisions are the pure verdicts
 * of api/verdicts/security/. Billing, the 402 challenge and receipts come from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot } from "../serve/read-snapshot.ts";
import { packageSafety, type PackageSafetyVerdict } from "../verdicts/security/package-safety.ts";
import { stackDrift, type ModelDrift, type PackageDrift, type ProtocolDrift, type StackDriftVerdict } from "../verdicts/security/stack-drift.ts";
import { advisoriesNaming, affects } from "../verdicts/security/advisory-match.ts";
import { findInCohort, stackSafety, type StackSafetyVerdict } from "../verdicts/security/stack-safety.ts";
import { addDays } from "../verdicts/history-range.ts";
import type { Ecosystem } from "../verdicts/versions/schemes.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { warehouseOf } from "./premium-model-reads.ts";
import { modelDeprecationsSnapshotSchema } from "../../pipelines/contract/snapshots/model-deprecations.ts";
import {
  ADVISORY_KINDS,
  ADVISORY_SEVERITIES,
  securityAdvisoriesSnapshotSchema,
  securityAdvisoriesSnapshotType,
  TRACKED_PROTOCOLS,
  type SecurityAdvisoriesSnapshot,
} from "../../pipelines/contract/snapshots/security-advisories.ts";
import { round } from "../verdicts/round.ts";

/** Packages one stack-safety call may list. */
export const MAX_STACK_PACKAGES = 10;
/** Subjects one stack-drift list may name, per kind. */
export const MAX_DRIFT_SUBJECTS = 20;
/** Longest stack-drift window, in days. */
export const MAX_SINCE_DAYS = 365;

const ECOSYSTEM_NAMES: Record<string, Ecosystem> = { npm: "npm", pypi: "PyPI" };
const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;
const VERSION = /^[\w.+!-]{1,80}$/;

/** One `name@version` of a list, with an optional `npm:` or `pypi:` prefix; a scoped npm name keeps its leading @. */
export interface PackageSpec {
  name: string;
  version: string | null;
  ecosystem: Ecosystem | null;
}

/** Parse `[npm:|pypi:]name[@version]`; null when it is not one. */
export function parsePackageSpec(raw: string): PackageSpec | null {
  let rest = raw.trim();
  let ecosystem: Ecosystem | null = null;
  const prefix = /^(npm|pypi):/i.exec(rest);
  if (prefix) {
    ecosystem = ECOSYSTEM_NAMES[prefix[1]!.toLowerCase()]!;
    rest = rest.slice(prefix[0].length);
  }
  const at = rest.lastIndexOf("@");
  const name = at > 0 ? rest.slice(0, at) : rest;
  const version = at > 0 ? rest.slice(at + 1) : null;
  if (!PACKAGE_NAME.test(name) || name.length > 214) return null;
  if (version !== null && !VERSION.test(version)) return null;
  return { name, version, ecosystem };
}

const ecosystemField = z
  .string()
  // The pattern clients see: the two names in any case.
  .regex(/^\s*([Pp][Yy][Pp][Ii]|[Nn][Pp][Mm])\s*$/, "ecosystem is PyPI or npm")
  .transform((s, ctx) => {
    const e = ECOSYSTEM_NAMES[s.trim().toLowerCase()];
    if (e === undefined) ctx.addIssue({ code: "custom", message: "ecosystem is PyPI or npm" });
    return e ?? z.NEVER;
  })
  .meta({ description: "PyPI or npm (case-insensitive)." });

/** Query of GET /api/premium/security/package-verdict. */
export const PackageVerdictQuery = z.strictObject({
  package: z.string().trim().min(1, "package is required").max(214).regex(PACKAGE_NAME, "package is a registry package name (npm names may be scoped: @scope/name)").meta({ description: "Package name as its registry spells it (PyPI names compare per PEP 503)." }),
  ecosystem: ecosystemField.optional().meta({ description: "PyPI or npm; omitted, the cohort is searched in npm, then PyPI, then the malicious-package advisories." }),
  version: z.string().trim().regex(VERSION, "version is 1-80 letters, digits or . + ! _ -").optional().meta({ description: "The version you pin; omitted, the registry's latest release is judged." }),
});

const listOf = (what: string, max: number, item: RegExp, itemMessage: string) =>
  z
    .string()
    .max(2000, `${what} is at most 2000 characters`)
    .transform((s) => [...new Set(s.split(",").map((p) => p.trim()).filter((p) => p !== ""))])
    .pipe(z.array(z.string().regex(item, itemMessage)).max(max, `${what} lists at most ${max} names`));

/** Query of GET /api/premium/stack-safety-verdict (also the preview's, with a lower cap). */
export const stackSafetyQuery = (max: number) =>
  z.strictObject({
    packages: z
      .string()
      .max(3000, "packages is at most 3000 characters")
      .transform((s, ctx) => {
        const items = s.split(",").map((p) => p.trim()).filter((p) => p !== "");
        const specs = items.map(parsePackageSpec);
        const bad = items.find((_, i) => specs[i] === null);
        if (bad !== undefined) ctx.addIssue({ code: "custom", message: `not a package: ${JSON.stringify(bad.slice(0, 60))} (write name@version, optionally npm: or pypi: first)` });
        if (items.length === 0) ctx.addIssue({ code: "custom", message: "packages needs at least one name@version" });
        if (items.length > max) ctx.addIssue({ code: "custom", message: `packages lists at most ${max}` });
        return specs as PackageSpec[];
      })
      .meta({ description: `Comma list of 1-${max} name@version (npm:express@4.19.2, pypi:requests@2.31.0, @scope/name@1.2.3; without a prefix the cohort is searched in npm, then PyPI).` }),
  });
export const StackSafetyQuery = stackSafetyQuery(MAX_STACK_PACKAGES);

/** Query of GET /api/premium/stack-drift-verdict. */
export const StackDriftQuery = z
  .strictObject({
    models: listOf("models", MAX_DRIFT_SUBJECTS, /^[A-Za-z0-9][\w.:/@+-]{0,199}$/, "each model is an id as in /api/models").optional().meta({ description: "Comma list of model ids (as in /api/models)." }),
    packages: listOf("packages", MAX_DRIFT_SUBJECTS, /^((npm|pypi):)?(@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/i, "each package is a name, optionally npm: or pypi: first").optional().meta({ description: "Comma list of package names (npm:name or pypi:name to pick the ecosystem)." }),
    protocols: listOf("protocols", TRACKED_PROTOCOLS.length + 10, /^[A-Za-z0-9-]{1,40}$/, "each protocol is a name such as mcp, x402 or openapi").optional().meta({ description: `Comma list of protocols (tracked: ${TRACKED_PROTOCOLS.join(", ")}).` }),
    since_days: z.coerce.number().int("since_days is a whole number").min(1).max(MAX_SINCE_DAYS).default(14).meta({ description: `Look-back window in days (1-${MAX_SINCE_DAYS}, default 14).` }),
  })
  .refine((q) => (q.models?.length ?? 0) + (q.packages?.length ?? 0) + (q.protocols?.length ?? 0) > 0, "name at least one of models, packages or protocols");

const severity = z.enum(["critical", "high", "medium", "low", "info"]);
const reason = z.strictObject({ signal: z.string(), severity, detail: z.string() });

/** Body of GET /api/premium/security/package-verdict (the billing wrapper adds billing and receipt). */
export const PackageVerdictResponse = z.strictObject({
  ok: z.literal(true),
  verdict_kind: z.literal("package_safety"),
  package: z.string(),
  ecosystem: z.enum(["npm", "PyPI"]).nullable(),
  version: z.string().nullable().meta({ description: "The version asked, or null." }),
  evaluated_version: z.string().nullable().meta({ description: "The version judged: the one asked, else the registry's latest; null when neither is known." }),
  coverage: z.enum(["covered", "out_of_coverage"]),
  verdict: z.enum(["GO", "REVIEW", "BLOCK"]).nullable().meta({ description: "null when out_of_coverage." }),
  risk_score: z.int().min(0).max(100),
  risk_band: z.enum(["low", "medium", "high", "critical"]),
  reasons: z.array(reason),
  coverage_sources: z.array(z.string()),
  recommendation: z.string(),
  advisories: z.array(
    z.strictObject({ id: z.string(), cve_ids: z.array(z.string()), kind: z.enum(ADVISORY_KINDS), severity: z.enum(ADVISORY_SEVERITIES), on_kev: z.boolean(), fixed_versions: z.array(z.string()), source_url: z.string() }),
  ).meta({ description: "Advisories affecting the evaluated version: malicious first, then by severity." }),
  capturedAt: z.string().meta({ description: "When the advisory snapshot was gathered." }),
});

const matchedCve = z.strictObject({
  cve_id: z.string().meta({ description: "The CVE id, else the advisory's own id." }),
  on_kev: z.boolean(),
  exploited_in_wild: z.boolean(),
  severity_label: z.string(),
  affected_version_ranges: z.array(z.string()),
  fixed_versions: z.array(z.string()),
  source_url: z.string(),
});

/** Body of GET /api/premium/stack-safety-verdict. */
export const StackSafetyResponse = z.strictObject({
  ok: z.literal(true),
  gate: z.enum(["GO", "HOLD", "BLOCK"]),
  capturedAt: z.string(),
  counts: z.strictObject({ block: z.int(), hold: z.int(), pass: z.int(), unknown: z.int() }),
  packages: z.array(
    z.strictObject({
      package: z.string(),
      version: z.string().nullable(),
      ecosystem: z.enum(["npm", "PyPI"]).nullable(),
      verdict: z.enum(["PASS", "HOLD", "BLOCK", "UNKNOWN"]),
      in_cohort: z.boolean(),
      exploited: z.boolean(),
      fix_available: z.boolean(),
      category: z.string().nullable(),
      matched_cves: z.array(matchedCve),
      reason: z.string(),
    }),
  ),
});

/** Body of GET /api/premium/stack-drift-verdict. */
export const StackDriftResponse = z.strictObject({
  ok: z.literal(true),
  verdict_kind: z.literal("stack_drift"),
  verdict: z.enum(["STABLE", "WATCH", "ACTION_NEEDED"]),
  window: z.strictObject({ since_days: z.int(), from: z.string(), to: z.string() }),
  findings: z.array(
    z.strictObject({
      kind: z.enum(["model", "package", "protocol"]),
      subject: z.string(),
      signal: z.string(),
      break_risk: z.enum(["high", "medium", "low", "info"]),
      detail: z.string(),
      recommended_action: z.string(),
    }),
  ),
  counts: z.strictObject({ high: z.int(), medium: z.int(), low: z.int(), info: z.int(), total: z.int(), assessed: z.int() }),
  untracked: z.array(z.string()).meta({ description: "Names of the query that this service does not track (not judged)." }),
});

function advisories(ctx: RenderContext): { data: SecurityAdvisoriesSnapshot; capturedAt: string } {
  const snapshot = readSnapshot(ctx.snapshots, "security-advisories", securityAdvisoriesSnapshotSchema);
  return { data: snapshot.data, capturedAt: lastSuccessOf(snapshot) };
}

/** The ecosystem a name without one belongs to: the cohort's (npm first), else a malicious advisory's, else null. */
function resolveEcosystem(data: SecurityAdvisoriesSnapshot, name: string): Ecosystem | null {
  const inCohort = findInCohort(data.packages, name, null);
  if (inCohort) return inCohort.ecosystem;
  for (const eco of ["npm", "PyPI"] as const) if (advisoriesNaming(data.advisories, eco, name).some((n) => n.advisory.kind === "malicious")) return eco;
  return null;
}

/** Render GET /api/premium/security/package-verdict. */
export function renderPackageVerdict(ctx: RenderContext, query: z.infer<typeof PackageVerdictQuery>): PackageSafetyVerdict & { capturedAt: string } {
  const { data, capturedAt } = advisories(ctx);
  const ecosystem = query.ecosystem ?? resolveEcosystem(data, query.package) ?? "npm";
  const cohort = findInCohort(data.packages, query.package, ecosystem);
  const verdict = packageSafety({ ecosystem, name: query.package, ...(query.version === undefined ? {} : { version: query.version }), cohort, advisories: data.advisories, kev: data.kev.entries });
  return { ...verdict, ...(query.ecosystem === undefined && verdict.coverage === "out_of_coverage" ? { ecosystem: null } : {}), capturedAt } as PackageSafetyVerdict & { capturedAt: string };
}

/** Render GET /api/premium/stack-safety-verdict. */
export function renderStackSafety(ctx: RenderContext, query: { packages: PackageSpec[] }): StackSafetyVerdict {
  const { data, capturedAt } = advisories(ctx);
  return stackSafety({ packages: query.packages, cohort: data.packages, advisories: data.advisories, kev: data.kev.entries, capturedAt });
}

/** The first and the last captured day of a table inside [from, to], or null when the window holds none. */
export function windowEnds(warehouse: WarehouseReader, table: string, from: string, to: string): { first: string; last: string } | null {
  const days = warehouse.dates(table).filter((d) => d >= from && d <= to);
  return days.length === 0 ? null : { first: days[0]!, last: days.at(-1)! };
}

/** Latest release of each cohort package on the window's first and last captured day (package_versions_daily). */
const RELEASES_SQL = `SELECT ecosystem, package, arg_min(latest_version, date) AS latest_from, arg_max(latest_version, date) AS latest_to
FROM package_versions_daily WHERE date IN (CAST(? AS DATE), CAST(? AS DATE)) AND latest_version IS NOT NULL
GROUP BY ecosystem, package`;

/** Blended price of each asked model on the window's first and last captured day (model_prices; two day files read). */
const PRICES_SQL = (n: number) => `WITH p AS (
  SELECT date, lower(model_id) AS id, (3 * input_per_1m + output_per_1m) / 4 AS b FROM model_prices
  WHERE date IN (CAST(? AS DATE), CAST(? AS DATE)) AND input_per_1m IS NOT NULL AND output_per_1m IS NOT NULL
    AND lower(model_id) IN (${Array.from({ length: n }, () => "?").join(", ")})
  QUALIFY row_number() OVER (PARTITION BY date, model_id ORDER BY observed_at DESC NULLS LAST, CASE source WHEN 'curated' THEN 0 ELSE 1 END) = 1)
SELECT id, CAST(min(date) AS VARCHAR) AS from_date, CAST(max(date) AS VARCHAR) AS to_date, arg_min(b, date) AS from_b, arg_max(b, date) AS to_b FROM p GROUP BY id`;

/** Render GET /api/premium/stack-drift-verdict. */
type DriftWindow = { warehouse: WarehouseReader; from: string; to: string; fromTime: number };

/** Deprecation and price facts of the asked models (model-deprecations snapshot, model_prices on the window's ends). */
async function readModelDrift(ctx: RenderContext, asked: readonly string[], w: DriftWindow): Promise<ModelDrift[]> {
  if (asked.length === 0) return [];
  const deprecations = readSnapshot(ctx.snapshots, "model-deprecations", modelDeprecationsSnapshotSchema).data.providers.flatMap((p) => p.entries);
  const ends = windowEnds(w.warehouse, "model_prices", w.from, w.to);
  const rows = ends === null ? [] : await w.warehouse.query<Record<string, string | number | null>>(PRICES_SQL(asked.length), [ends.first, ends.last, ...asked.map((m) => m.toLowerCase())]);
  const prices = new Map(rows.map((r) => [String(r["id"]), r]));
  return asked.map((m) => {
    const key = m.toLowerCase();
    const dep = deprecations.find((d) => d.model === key) ?? null;
    const p = prices.get(key);
    return {
      asked: m,
      id: dep !== null || p !== undefined ? key : null,
      deprecation: dep ? { status: dep.status, sunset_date: dep.sunset_date, replacement: dep.replacement } : null,
      price: p && p["from_date"] !== p["to_date"] ? { from_blended: round(Number(p["from_b"]), 6), to_blended: round(Number(p["to_b"]), 6), from_date: String(p["from_date"]), to_date: String(p["to_date"]) } : null,
    };
  });
}

/** Release and advisory facts of the asked packages (package_versions_daily on the window's ends, the snapshot's advisories). */
async function readPackageDrift(data: SecurityAdvisoriesSnapshot, asked: readonly string[], w: DriftWindow): Promise<PackageDrift[]> {
  if (asked.length === 0) return [];
  const ends = windowEnds(w.warehouse, "package_versions_daily", w.from, w.to);
  const rows = ends === null ? [] : await w.warehouse.query<Record<string, string | null>>(RELEASES_SQL, [ends.first, ends.last]);
  return asked.map((raw): PackageDrift => {
    const spec = parsePackageSpec(raw)!;
    const ecosystem = spec.ecosystem ?? resolveEcosystem(data, spec.name);
    const cohort = ecosystem === null ? undefined : findInCohort(data.packages, spec.name, ecosystem);
    if (!cohort || ecosystem === null) return { asked: raw, ecosystem, name: spec.name, tracked: false, latest_from: null, latest_to: null, new_advisories: [] };
    const row = rows.find((r) => r["ecosystem"] === ecosystem && r["package"] === cohort.name);
    const latestTo = row?.["latest_to"] ?? cohort.latest_version;
    const fresh = advisoriesNaming(data.advisories, ecosystem, cohort.name).filter((n) => Date.parse(n.advisory.published) >= w.fromTime);
    return {
      asked: raw,
      ecosystem,
      name: cohort.name,
      tracked: true,
      latest_from: row?.["latest_from"] ?? cohort.latest_version,
      latest_to: latestTo,
      new_advisories: fresh.map((n) => ({ id: n.advisory.id, cve_ids: n.advisory.cve_ids, kind: n.advisory.kind, severity: n.advisory.severity, published: n.advisory.published, affects_latest: latestTo !== null && affects(n, ecosystem, latestTo) })),
    };
  });
}

/** Render GET /api/premium/stack-drift-verdict. */
export async function renderStackDrift(ctx: RenderContext, query: z.infer<typeof StackDriftQuery>): Promise<StackDriftVerdict> {
  const { data } = advisories(ctx);
  const now = ctx.now;
  const to = now.toISOString().slice(0, 10);
  const from = addDays(to, -query.since_days);
  const w: DriftWindow = { warehouse: warehouseOf(ctx), from, to, fromTime: Date.parse(`${from}T00:00:00Z`) };
  // The two warehouse reads run side by side (the reader spreads queries over its connections).
  const [models, packages] = await Promise.all([readModelDrift(ctx, query.models ?? [], w), readPackageDrift(data, query.packages ?? [], w)]);
  const protocols: ProtocolDrift[] = (query.protocols ?? []).map((asked) => {
    const p = data.protocols.find((q) => q.id === asked.toLowerCase());
    return p
      ? { asked, id: p.id, name: p.name, releases: p.releases.filter((r) => Date.parse(r.published_at) >= w.fromTime).map((r) => ({ tag: r.tag, published_at: r.published_at, url: r.url })) }
      : { asked, id: null, name: asked, releases: [] };
  });
  return stackDrift({ now, sinceDays: query.since_days, models, packages, protocols });
}


const freshness = { cadence: securityAdvisoriesSnapshotType.cadence, slaSeconds: securityAdvisoriesSnapshotType.slaSeconds };
const SOURCES = "OSV (including its malicious-package advisories), the CISA KEV catalog, and npm and PyPI release metadata of a curated cohort (pipelines/catalog/security-cohort.ts)";

/** The three software-supply routes. */
export const premiumSecurityRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/security/package-verdict",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Is one npm or PyPI package version safe to install: GO, REVIEW or BLOCK, with a risk score, the reasons and the advisories that affect it.",
    description: [
      `Sources: ${SOURCES}. A package is covered when it is in the cohort, or when an OSV malicious-package advisory names it; any other package is answered with coverage out_of_coverage, verdict null, and not charged.`,
      "Versions are matched exactly: npm SemVer (node-semver), PyPI PEP 440 (pre-, post- and dev-releases, epochs), OSV ECOSYSTEM and SEMVER range events (introduced, fixed, last_affected, limit) and listed versions. Withdrawn advisories do not count.",
      "BLOCK: a malicious-package advisory affects the version (or names the whole package). REVIEW: a critical or high advisory affects it, an affecting advisory's CVE is on the KEV list, a malicious release exists in the package's history, or the version is not one the registry published (or not a valid version). GO: covered and none of these (medium and low advisories are listed as reasons).",
      "risk_score 0-100 (100 for malicious; else critical 45, high 30, medium 12, low 4, unknown 8 per affecting advisory, +25 when one is exploited, +20 for an unpublished version, +15 for a malicious release in history; capped at 99); band low < 25 ≤ medium < 50 ≤ high < 75 ≤ critical.",
      "Without version, the registry's latest release is judged. Freshness SLA 2 days on the advisory snapshot: older data is served and not charged.",
    ].join(" "),
    tags: ["premium", "security"],
    query: PackageVerdictQuery,
    response: PackageVerdictResponse,
    snapshots: ["security-advisories"],
    freshness,
    example: "/api/premium/security/package-verdict?package=requests&ecosystem=PyPI&version=2.31.0",
    noCharge: {
      outcomes: { out_of_coverage: "the package is in no covered feed (not in the cohort, named by no malicious-package advisory)" },
      check: (body) => (body.coverage === "out_of_coverage" ? "out_of_coverage" : null),
    },
    render: (ctx, { query }) => renderPackageVerdict(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/stack-safety-verdict",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: `A pre-deploy gate for up to ${MAX_STACK_PACKAGES} pinned packages: GO, HOLD or BLOCK, and per package PASS, HOLD, BLOCK or UNKNOWN with the matched CVEs, KEV membership, exploitation and fixed versions.`,
    description: [
      `Sources: ${SOURCES}. The cohort is the curated set of 36 AI-agent stack packages (LLM SDKs, agent frameworks, MCP SDKs, web, HTTP, validation and ML libraries, and every npm or PyPI package the KEV catalog names); a package outside it is UNKNOWN, unless a malicious-package advisory covers it (then BLOCK: a gate never waves known malware through).`,
      "Per package: BLOCK when a malicious-package advisory affects it, or when an exploited (KEV) CVE affects the pinned version and no fixed version exists; HOLD when any CVE affects the pinned version (upgrade to a fixed version), or when the version is missing or unreadable and the package has advisories (the pinned version must be verified); PASS when no advisory affects it; UNKNOWN outside the cohort.",
      "gate: BLOCK when any package is BLOCK, else HOLD when any is HOLD or UNKNOWN (a package outside the cohort is for you to verify: the gate never says GO over a package it did not check), else GO. A call where every package is UNKNOWN is answered and not charged (no_package_in_cohort).",
      "Freshness SLA 2 days on the advisory snapshot: older data is served and not charged.",
    ].join(" "),
    tags: ["premium", "security"],
    query: StackSafetyQuery,
    response: StackSafetyResponse,
    snapshots: ["security-advisories"],
    freshness,
    example: "/api/premium/stack-safety-verdict?packages=pypi:langflow@1.2.0,npm:express@4.19.2,pypi:requests@2.32.5",
    noCharge: {
      outcomes: { no_package_in_cohort: "no listed package is in the curated cohort (every verdict UNKNOWN)" },
      check: (body) => (body.packages.every((p) => p.verdict === "UNKNOWN") ? "no_package_in_cohort" : null),
    },
    render: (ctx, { query }) => renderStackSafety(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/stack-drift-verdict",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "What changed under your stack in the last days: model deprecations and price moves, new major releases and advisories of your packages, new releases of the protocols you speak — STABLE, WATCH or ACTION_NEEDED.",
    description: [
      "Models (ids as in /api/models): the deprecation calendar (/api/model-deprecations) and the blended price (3:1) on the first and last captured day of the window in the warehouse's model_prices. Retired, or a sunset within 30 days: high; deprecated or announced: medium; price up 10% or more: medium, up less: low, down: info.",
      `Packages (cohort of the security verdicts; npm:name or pypi:name): a new major release between the window's first and last day of package_versions_daily (medium) or a newer non-major latest (info); advisories published in the window — malicious: high; critical or high affecting the latest release: high, not affecting it: medium; medium: low; low or unknown: info.`,
      `Protocols (tracked: ${TRACKED_PROTOCOLS.join(", ")}; MCP through modelcontextprotocol/modelcontextprotocol, x402 through coinbase/x402, OpenAPI through OAI/OpenAPI-Specification releases): each release published in the window is medium.`,
      "verdict: ACTION_NEEDED with any high finding, WATCH with any medium, else STABLE. At least one of models, packages, protocols is required; since_days defaults to 14 (1-365). Names not tracked are listed in untracked; a call in which nothing is tracked is answered and not charged (nothing_tracked).",
      "Freshness SLA 2 days on the advisory snapshot: older data is served and not charged.",
    ].join(" "),
    tags: ["premium", "security", "models"],
    query: StackDriftQuery,
    response: StackDriftResponse,
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["security-advisories", "model-deprecations"],
    freshness,
    example: "/api/premium/stack-drift-verdict?models=gpt-4o&packages=pypi:langflow,npm:express&protocols=mcp,x402&since_days=30",
    noCharge: {
      outcomes: { nothing_tracked: "none of the listed models, packages or protocols is tracked" },
      check: (body) => (body.counts.assessed === 0 ? "nothing_tracked" : null),
    },
    render: (ctx, { query }) => renderStackDrift(ctx, query),
  }),
];
