/**
 * The dependency concentration verdict: how exposed a stack is that calls the listed AI providers, from
 * each one's current status, its reliability score (api/verdicts/provider-reliability.ts) and its recent
 * status-page incidents; the weakest link; and the tracked providers to diversify to, best first. Pure.
 */

/** Below this reliability score (0-100) a listed provider makes the stack EXPOSED. */
export const RELIABILITY_FLOOR = 80;
/** At or above this many status-page incident hours over the history window a listed provider makes the stack EXPOSED. */
export const INCIDENT_HOURS_LIMIT = 24;
/** Diversification suggestions at most. */
export const MAX_SUGGESTIONS = 3;

export const VERDICTS = ["RESILIENT", "EXPOSED", "CRITICAL"] as const;
export type ConcentrationLevel = (typeof VERDICTS)[number];

/** What is known of one tracked provider. */
export interface TrackedProvider {
  provider: string;
  /** Newest status-page status: operational, degraded, down or unknown (unknown also when not on a status page). */
  current_status: string;
  /** From the reliability ranking; null when the provider is not ranked. */
  reliability_score: number | null;
  /** Rank in the reliability ranking; null when not ranked. */
  rank: number | null;
  /** Status-page incident hours over the history window; null without status history. */
  incident_hours: number | null;
}

/** One name of the query, resolved (id null when no alias or id matched). */
export interface ListedName {
  asked: string;
  id: string | null;
}

export interface ConcentrationInput {
  listed: readonly ListedName[];
  /** Every tracked provider (listed or not). */
  tracked: readonly TrackedProvider[];
  /** Days of incident history weighed, for the wording. */
  incidentDays: number;
}

export interface ConcentrationVerdict {
  ok: true;
  verdict_kind: "dependency_concentration";
  verdict: ConcentrationLevel | null;
  provider_count: number;
  single_point_of_failure: boolean;
  currently_impaired: { provider: string; status: string }[];
  weakest_link: { provider: string; reliability_score: number | null; current_status: string } | null;
  diversification: { suggested: { provider: string; reliability_score: number; rank: number }[] };
  recommendation: string;
  untracked: string[];
}

const IMPAIRED = new Set(["degraded", "down"]);
const SEVERITY: Record<string, number> = { down: 3, degraded: 2, unknown: 1, operational: 0 };

/** Weakest first: worst current status, then lowest score (unscored first), then most incident hours, then id. */
function weaker(a: TrackedProvider, b: TrackedProvider): number {
  return (
    (SEVERITY[b.current_status] ?? 1) - (SEVERITY[a.current_status] ?? 1) ||
    (a.reliability_score ?? -1) - (b.reliability_score ?? -1) ||
    (b.incident_hours ?? 0) - (a.incident_hours ?? 0) ||
    (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0)
  );
}

/** Judge the listed providers. */
export function concentrationVerdict(input: ConcentrationInput): ConcentrationVerdict {
  const byId = new Map(input.tracked.map((t) => [t.provider, t]));
  const listedIds = [...new Set(input.listed.map((l) => l.id).filter((id): id is string => id !== null && byId.has(id)))];
  const listed = listedIds.map((id) => byId.get(id)!);
  const untracked = [...new Set(input.listed.filter((l) => l.id === null || !byId.has(l.id)).map((l) => l.asked))];
  const suggested = input.tracked
    .filter((t) => !listedIds.includes(t.provider) && t.current_status === "operational" && t.rank !== null && t.reliability_score !== null)
    .sort((a, b) => a.rank! - b.rank!)
    .slice(0, MAX_SUGGESTIONS)
    .map((t) => ({ provider: t.provider, reliability_score: t.reliability_score!, rank: t.rank! }));
  const diversification = { suggested };
  const alternatives = suggested.length > 0 ? ` Tracked alternatives, best first: ${suggested.map((s) => s.provider).join(", ")}.` : "";

  if (listed.length === 0) {
    return {
      ok: true,
      verdict_kind: "dependency_concentration",
      verdict: null,
      provider_count: 0,
      single_point_of_failure: false,
      currently_impaired: [],
      weakest_link: null,
      diversification,
      recommendation: `None of the listed providers is tracked by this service, so no verdict is given (not charged).${alternatives}`,
      untracked,
    };
  }

  const impaired = listed.filter((t) => IMPAIRED.has(t.current_status)).sort(weaker);
  const available = listed.filter((t) => t.current_status !== "down");
  const operational = listed.filter((t) => t.current_status === "operational");
  const weakest = [...listed].sort(weaker)[0]!;
  const lowScore = listed.filter((t) => t.reliability_score === null || t.reliability_score < RELIABILITY_FLOOR);
  const incidentHeavy = listed.filter((t) => (t.incident_hours ?? 0) >= INCIDENT_HOURS_LIMIT);
  const spof = available.length <= 1;

  let verdict: ConcentrationLevel;
  const reasons: string[] = [];
  if (spof || operational.length === 0) {
    verdict = "CRITICAL";
    if (listed.length === 1) reasons.push(`the stack depends on ${listed[0]!.provider} alone`);
    else if (spof) reasons.push(`only ${available.length === 1 ? available[0]!.provider + " is" : "none is"} currently up`);
    if (operational.length === 0) reasons.push("no listed provider is fully operational right now");
  } else {
    if (impaired.length > 0) reasons.push(`${impaired.map((t) => `${t.provider} is ${t.current_status}`).join(", ")}`);
    const unread = listed.filter((t) => t.current_status !== "operational" && !IMPAIRED.has(t.current_status));
    if (unread.length > 0) reasons.push(`${unread.map((t) => t.provider).join(", ")} ha${unread.length === 1 ? "s" : "ve"} no readable status page now`);
    if (lowScore.length > 0) reasons.push(`${lowScore.map((t) => t.provider).join(", ")} score${lowScore.length === 1 ? "s" : ""} below ${RELIABILITY_FLOOR} or unscored`);
    if (incidentHeavy.length > 0) reasons.push(`${incidentHeavy.map((t) => t.provider).join(", ")} showed ${INCIDENT_HOURS_LIMIT}+ incident hours in ${input.incidentDays} days`);
    verdict = reasons.length > 0 ? "EXPOSED" : "RESILIENT";
  }
  const recommendation =
    verdict === "RESILIENT"
      ? `Resilient: ${listed.length} listed providers are operational and reliable; keep failover between them tested.`
      : verdict === "EXPOSED"
        ? `Exposed: ${reasons.join("; ")}. Route around the weakest link (${weakest.provider}) and keep at least one healthy fallback.${alternatives}`
        : `Critical: ${reasons.join("; ")}. Add an independent provider before the next incident.${alternatives}`;
  return {
    ok: true,
    verdict_kind: "dependency_concentration",
    verdict,
    provider_count: listed.length,
    single_point_of_failure: spof,
    currently_impaired: impaired.map((t) => ({ provider: t.provider, status: t.current_status })),
    weakest_link: { provider: weakest.provider, reliability_score: weakest.reliability_score, current_status: weakest.current_status },
    diversification,
    recommendation,
    untracked,
  };
}
