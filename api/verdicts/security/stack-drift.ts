/**
 * The stack drift verdict: what changed under a stack over the last days — STABLE, WATCH or ACTION_NEEDED — with
 * one finding per change and its break risk. Pure: the route gathers the facts (deprecations, prices at both ends
 * of the window, latest releases at both ends, advisories and protocol releases published in the window).
 *
 * Break risk:
 * - model: retired, or a sunset within IMMINENT_DAYS → high; deprecated or announced → medium; blended price up
 *   PRICE_JUMP_PCT or more → medium, up less → low, down → info.
 * - package: a malicious advisory → high; a critical or high advisory affecting the latest release → high, not
 *   affecting it → medium; a medium advisory → low; low or unknown → info; a new major release line → medium; a
 *   newer release in the same line → info.
 * - protocol: each new release of a tracked specification → medium.
 * Verdict: ACTION_NEEDED with any high finding, WATCH with any medium, else STABLE.
 */
import type { Advisory } from "../../../pipelines/contract/snapshots/security-advisories.ts";
import { daysBetween } from "../history-range.ts";
import { schemeOf, type Ecosystem } from "../versions/schemes.ts";
import { round } from "../round.ts";

export const DRIFT_VERDICTS = ["STABLE", "WATCH", "ACTION_NEEDED"] as const;
export const BREAK_RISKS = ["high", "medium", "low", "info"] as const;
export type BreakRisk = (typeof BREAK_RISKS)[number];

/** A sunset this close (days) counts as imminent. */
export const IMMINENT_DAYS = 30;
/** A blended price rise of this much (%) is a medium finding. */
export const PRICE_JUMP_PCT = 10;

export interface ModelDrift {
  asked: string;
  /** null when the model is not tracked. */
  id: string | null;
  deprecation: { status: string; sunset_date: string | null; replacement: string | null } | null;
  price: { from_blended: number; to_blended: number; from_date: string; to_date: string } | null;
}

export interface PackageDrift {
  asked: string;
  ecosystem: Ecosystem | null;
  name: string;
  tracked: boolean;
  /** Latest release at the start and at the end of the window. */
  latest_from: string | null;
  latest_to: string | null;
  /** Advisories published inside the window. */
  new_advisories: { id: string; cve_ids: string[]; kind: Advisory["kind"]; severity: Advisory["severity"]; published: string; affects_latest: boolean }[];
}

export interface ProtocolDrift {
  asked: string;
  /** null when the protocol is not tracked. */
  id: string | null;
  name: string;
  /** Releases published inside the window. */
  releases: { tag: string; published_at: string; url: string }[];
}

export interface StackDriftInput {
  now: Date;
  sinceDays: number;
  models: readonly ModelDrift[];
  packages: readonly PackageDrift[];
  protocols: readonly ProtocolDrift[];
}

export interface Finding {
  kind: "model" | "package" | "protocol";
  subject: string;
  signal: string;
  break_risk: BreakRisk;
  detail: string;
  recommended_action: string;
}

export interface StackDriftVerdict {
  ok: true;
  verdict_kind: "stack_drift";
  verdict: (typeof DRIFT_VERDICTS)[number];
  window: { since_days: number; from: string; to: string };
  findings: Finding[];
  counts: { high: number; medium: number; low: number; info: number; total: number; assessed: number };
  untracked: string[];
}

const DAY_MS = 86_400_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

function modelFindings(m: ModelDrift, now: Date): Finding[] {
  const out: Finding[] = [];
  const subject = m.id!;
  const dep = m.deprecation;
  if (dep) {
    // Calendar days from today (UTC) to the sunset date, as every verdict counts them: the same all day long.
    const daysLeft = dep.sunset_date === null ? null : daysBetween(day(now.getTime()), dep.sunset_date);
    const instead = dep.replacement ? ` Move to ${dep.replacement}.` : " Choose a successor.";
    if (dep.status === "retired" || (daysLeft !== null && daysLeft <= IMMINENT_DAYS)) {
      const when =
        daysLeft === null ? "is retired" : daysLeft < 0 ? `was shut down on ${dep.sunset_date}` : daysLeft === 0 ? `shuts down today (${dep.sunset_date})` : `shuts down on ${dep.sunset_date} (${daysLeft} day${daysLeft === 1 ? "" : "s"})`;
      out.push({ kind: "model", subject, signal: "deprecation_imminent", break_risk: "high", detail: `${subject} ${when}.`, recommended_action: `Migrate now.${instead}` });
    } else {
      out.push({ kind: "model", subject, signal: "deprecated", break_risk: "medium", detail: `${subject} is ${dep.status}${dep.sunset_date ? `; sunset ${dep.sunset_date}` : ", no sunset date yet"}.`, recommended_action: `Plan the migration.${instead}` });
    }
  }
  const p = m.price;
  if (p && p.from_blended > 0 && p.to_blended !== p.from_blended) {
    const pct = round(((p.to_blended - p.from_blended) / p.from_blended) * 100, 1);
    const detail = `Blended price (3:1) ${p.from_blended} → ${p.to_blended} USD per 1M tokens (${pct > 0 ? "+" : ""}${pct}%) between ${p.from_date} and ${p.to_date}.`;
    if (pct >= PRICE_JUMP_PCT) out.push({ kind: "model", subject, signal: "price_increase", break_risk: "medium", detail, recommended_action: "Re-check the budget; compare with /api/premium/models/frontier." });
    else if (pct > 0) out.push({ kind: "model", subject, signal: "price_increase", break_risk: "low", detail, recommended_action: "Note the higher cost." });
    else out.push({ kind: "model", subject, signal: "price_decrease", break_risk: "info", detail, recommended_action: "None: the model got cheaper." });
  }
  return out;
}

/** Whether `to` opens a newer major release line than `from`. */
export function newMajor(ecosystem: Ecosystem, from: string, to: string): boolean {
  const scheme = schemeOf(ecosystem);
  if (scheme.parse(from) === null || scheme.parse(to) === null) return false;
  const a = scheme.major(scheme.parse(from)!);
  const b = scheme.major(scheme.parse(to)!);
  if (a === b) return false;
  const na = Number(a);
  const nb = Number(b);
  return Number.isFinite(na) && Number.isFinite(nb) ? nb > na : scheme.compare(scheme.parse(to)!, scheme.parse(from)!) > 0;
}

function packageFindings(p: PackageDrift): Finding[] {
  const out: Finding[] = [];
  const eco = p.ecosystem!;
  const subject = `${eco === "npm" ? "npm" : "pypi"}:${p.name}`;
  for (const a of p.new_advisories) {
    const ids = a.cve_ids.length > 0 ? `${a.id} (${a.cve_ids.join(", ")})` : a.id;
    let risk: BreakRisk;
    if (a.kind === "malicious") risk = "high";
    else if (a.severity === "critical" || a.severity === "high") risk = a.affects_latest ? "high" : "medium";
    else if (a.severity === "medium") risk = "low";
    else risk = "info";
    out.push({
      kind: "package",
      subject,
      signal: a.kind === "malicious" ? "malicious_advisory" : "new_advisory",
      break_risk: risk,
      detail: `${ids}, ${a.kind === "malicious" ? "malicious package" : `${a.severity} severity`}, published ${a.published.slice(0, 10)}${a.kind === "vulnerability" ? (a.affects_latest ? "; affects the latest release" : "; the latest release is not affected") : ""}.`,
      recommended_action: a.kind === "malicious" ? "Check your lockfile for the affected releases and remove them." : "Ask /api/premium/security/package-verdict for your pinned version.",
    });
  }
  if (p.latest_from !== null && p.latest_to !== null && p.latest_from !== p.latest_to) {
    const scheme = schemeOf(eco);
    const a = scheme.parse(p.latest_from);
    const b = scheme.parse(p.latest_to);
    if (a !== null && b !== null && scheme.compare(b, a) > 0) {
      if (newMajor(eco, a, b)) out.push({ kind: "package", subject, signal: "new_major_release", break_risk: "medium", detail: `Latest release moved from ${p.latest_from} to ${p.latest_to}: a new major line.`, recommended_action: "Read the changelog before upgrading; pin the current major until then." });
      else out.push({ kind: "package", subject, signal: "new_release", break_risk: "info", detail: `Latest release moved from ${p.latest_from} to ${p.latest_to}.`, recommended_action: "None required." });
    }
  }
  return out;
}

function protocolFindings(p: ProtocolDrift): Finding[] {
  return [...p.releases]
    .sort((a, b) => (a.published_at < b.published_at ? 1 : a.published_at > b.published_at ? -1 : 0))
    .map((r) => ({ kind: "protocol" as const, subject: p.id!, signal: "new_protocol_release", break_risk: "medium" as const, detail: `${p.name} ${r.tag} released ${r.published_at.slice(0, 10)} (${r.url}).`, recommended_action: "Check your client and server against the new version." }));
}

const RISK_ORDER: Record<BreakRisk, number> = { high: 0, medium: 1, low: 2, info: 3 };
const KIND_ORDER = { model: 0, package: 1, protocol: 2 } as const;

/** Judge the drift of a stack over the window. */
export function stackDrift(input: StackDriftInput): StackDriftVerdict {
  const to = day(input.now.getTime());
  const from = day(Date.parse(`${to}T00:00:00Z`) - input.sinceDays * DAY_MS);
  const trackedModels = input.models.filter((m) => m.id !== null);
  const trackedPackages = input.packages.filter((p) => p.tracked && p.ecosystem !== null);
  const trackedProtocols = input.protocols.filter((p) => p.id !== null);
  const findings = [
    ...trackedModels.flatMap((m) => modelFindings(m, input.now)),
    ...trackedPackages.flatMap(packageFindings),
    ...trackedProtocols.flatMap(protocolFindings),
  ].sort((a, b) => RISK_ORDER[a.break_risk] - RISK_ORDER[b.break_risk] || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.subject.localeCompare(b.subject));
  const count = (r: BreakRisk) => findings.filter((f) => f.break_risk === r).length;
  const counts = { high: count("high"), medium: count("medium"), low: count("low"), info: count("info"), total: findings.length, assessed: trackedModels.length + trackedPackages.length + trackedProtocols.length };
  const verdict = counts.high > 0 ? "ACTION_NEEDED" : counts.medium > 0 ? "WATCH" : "STABLE";
  const untracked = [...input.models.filter((m) => m.id === null), ...input.packages.filter((p) => !p.tracked || p.ecosystem === null), ...input.protocols.filter((p) => p.id === null)].map((x) => x.asked);
  return { ok: true, verdict_kind: "stack_drift", verdict, window: { since_days: input.sinceDays, from, to }, findings, counts, untracked };
}
