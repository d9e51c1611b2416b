/**
 * The failover verdict (GET /api/premium/failover-verdict): how badly the provider `from` is impaired right now,
 * what to do about it, and where to send its traffic. Pure over the status snapshot's components, the provider's
 * recent status samples and the route verdict's rows (api/verdicts/route-verdict.ts decides the destination).
 *
 * Status pages carry no incident text in this service's feeds (the status feed keeps each page's overall status
 * and its components), so the incident is described from the components:
 * - A component is API-facing unless its name marks a console, dashboard, docs, website, login, consumer app or
 *   other surface an API client does not call (NON_API below).
 * - impact_classification: full_outage (page down and every API-facing component down, or none listed);
 *   partial_outage (some API-facing component down, or the page down otherwise); degraded_performance (some
 *   component degraded, or the page degraded, without an API-facing component down); none (operational, nothing
 *   impaired); unknown (the page is not tracked or could not be read).
 * - recommended_action: FAIL_OVER_NOW for full and partial outages; FAIL_OVER_LATENCY_SENSITIVE when an
 *   API-facing component (or the page, without components) is degraded; MONITOR when only surfaces an API
 *   client does not call are impaired, or the state is unknown; NO_ACTION when nothing is impaired.
 * - started_at: the first sample of the provider's current run of degraded or down status samples (the reads
 *   find it: the first impaired sample after the last calm one within the newest two days), null when the
 *   newest sample is not impaired or there is none.
 * The destination: the route verdict for the task (general by default) with `from` and every provider whose
 * page is down excluded; alternatives are its runners-up.
 */
import type { Task } from "./routing.ts";
import { routeVerdict, type RouteInputs, type RouteVerdict, type VerdictEntry } from "./route-verdict.ts";

/** Classes of a provider's current impact. */
export const IMPACT_CLASSES = ["full_outage", "partial_outage", "degraded_performance", "none", "unknown"] as const;
export type ImpactClass = (typeof IMPACT_CLASSES)[number];
/** What the caller should do with traffic to `from`. */
export const ACTIONS = ["FAIL_OVER_NOW", "FAIL_OVER_LATENCY_SENSITIVE", "MONITOR", "NO_ACTION"] as const;
export type Action = (typeof ACTIONS)[number];

/** Component names an API client does not call. */
export const NON_API = /console|dashboard|docs|documentation|website|home ?page|login|playground|billing|community|blog|status page|chatgpt|claude\.ai|claude code|sora|codex|fedramp|government|spaces|hub\b|git hosting|registry|gpu clusters|fine-?tuning|computer/i;

/** Product and company names that stand for a provider id. */
export const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  claude: "anthropic",
  gpt: "openai",
  chatgpt: "openai",
  gemini: "google",
  vertex: "google",
  vertexai: "google",
  googleai: "google",
  azure: "azure-openai",
  grok: "xai",
  llama: "meta",
  hf: "huggingface",
  mistralai: "mistral",
  togetherai: "together",
  fireworksai: "fireworks",
  alibaba: "qwen",
};

/** A provider the service knows: its id and display names. */
export interface KnownProvider {
  id: string;
  names: readonly string[];
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The provider id a user's `from` names (id, display name or alias, case- and punctuation-insensitive), or null. */
export function resolveProvider(asked: string, known: readonly KnownProvider[]): string | null {
  const key = squash(asked);
  if (key === "") return null;
  for (const p of known) if (squash(p.id) === key) return p.id;
  for (const p of known) if (p.names.some((n) => squash(n) === key)) return p.id;
  const alias = PROVIDER_ALIASES[key];
  if (alias && known.some((p) => p.id === alias)) return alias;
  return null;
}

/** A provider's status page as the status snapshot holds it. */
export interface StatusPage {
  provider: string;
  name: string;
  status: string;
  components: readonly { name: string; status: string }[];
}

export interface Impact {
  classification: ImpactClass;
  action: Action;
  /** The worst-hit component (an API-facing one first), or null. */
  service: string | null;
  down: string[];
  degraded: string[];
  apiImpaired: boolean;
}

/** Classify a status page (see the module comment). */
export function classifyImpact(page: StatusPage | undefined): Impact {
  if (!page || !["operational", "degraded", "down"].includes(page.status)) {
    return { classification: "unknown", action: "MONITOR", service: null, down: [], degraded: [], apiImpaired: false };
  }
  const api = page.components.filter((c) => !NON_API.test(c.name));
  const down = page.components.filter((c) => c.status === "down");
  const degraded = page.components.filter((c) => c.status === "degraded");
  const apiDown = api.filter((c) => c.status === "down");
  const apiDegraded = api.filter((c) => c.status === "degraded");
  const service = (apiDown[0] ?? apiDegraded[0] ?? down[0] ?? degraded[0])?.name ?? null;
  const base = { service, down: down.map((c) => c.name), degraded: degraded.map((c) => c.name) };
  if (page.status === "down" && (api.length === 0 || apiDown.length === api.length)) {
    return { ...base, classification: "full_outage", action: "FAIL_OVER_NOW", apiImpaired: true };
  }
  if (apiDown.length > 0 || page.status === "down") return { ...base, classification: "partial_outage", action: "FAIL_OVER_NOW", apiImpaired: true };
  if (down.length > 0 || degraded.length > 0 || page.status === "degraded") {
    const apiImpaired = apiDegraded.length > 0 || (page.status === "degraded" && page.components.length === 0);
    return { ...base, classification: "degraded_performance", action: apiImpaired ? "FAIL_OVER_LATENCY_SENSITIVE" : "MONITOR", apiImpaired };
  }
  return { ...base, classification: "none", action: "NO_ACTION", apiImpaired: false };
}

export interface FailoverInputs extends RouteInputs {
  pages: readonly StatusPage[];
}

export interface FailoverOptions {
  from: string;
  task: Task;
  model?: string;
  now: Date;
  /** With model: destinations must reach this share of its trust-discounted quality, when any does. */
  comparableShare?: number;
}

export interface FailoverVerdict {
  from: {
    provider: string;
    status: string;
    in_incident: boolean;
    incident: {
      title: string;
      service: string | null;
      impact_classification: ImpactClass;
      recommended_action: Action;
      started_at: string | null;
      triage_summary: string;
    } | null;
  };
  query: { from: string; task: Task; model: string | null };
  capturedAt: string | null;
  excluded_providers: { provider: string; reason: string }[];
  failover_to: VerdictEntry | null;
  alternatives: VerdictEntry[];
  trust: RouteVerdict["trust"];
  /** The recommended action even without an incident (NO_ACTION, MONITOR). */
  recommended_action: Action;
  note: string | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The failover verdict for `from` (see the module comment). */
export function failoverVerdict(inputs: FailoverInputs, options: FailoverOptions): FailoverVerdict {
  const page = inputs.pages.find((p) => p.provider === options.from);
  const impact = classifyImpact(page);
  const status = page?.status ?? "unknown";
  const inIncident = impact.classification !== "none" && impact.classification !== "unknown";

  const excluded = [{ provider: options.from, reason: "the provider failed over from" }];
  for (const p of inputs.pages) {
    if (p.provider !== options.from && p.status === "down") excluded.push({ provider: p.provider, reason: "its status page shows down" });
  }
  const base = { task: options.task, exclude_providers: excluded.map((e) => e.provider), now: options.now };
  let route = routeVerdict(inputs, base);
  let note: string | null = route.empty_reason;
  if (options.model !== undefined) {
    const own = routeVerdict(inputs, { task: options.task, model: options.model, now: options.now }).verdict;
    if (!own) {
      note = `${options.model} has no score on the ${options.task} benchmarks: destinations are not held to its quality.`;
    } else {
      const floor = own.quality.trust_discounted * (options.comparableShare ?? 0.9);
      const comparable = routeVerdict(inputs, { ...base, min_trust_discounted: floor });
      if (comparable.verdict) route = comparable;
      else note = `No model of another provider reaches ${Math.round((options.comparableShare ?? 0.9) * 100)}% of ${options.model}'s trust-discounted quality (${own.quality.trust_discounted}): the best destination of any quality is shown.`;
    }
  }
  const to = route.verdict;
  const name = page?.name ?? options.from;

  let incident: FailoverVerdict["from"]["incident"] = null;
  if (inIncident) {
    const startedAt = inputs.statuses.find((s) => s.provider === options.from)?.impaired_since ?? null;
    const total = page!.components.length;
    const impaired = impact.down.length + impact.degraded.length;
    const label = impact.classification.replace(/_/g, " ");
    const parts = [...impact.down.map((c) => `${c} down`), ...impact.degraded.map((c) => `${c} degraded`)];
    const title = `${name}: ${label}${parts.length > 0 ? ` (${parts.slice(0, 3).join(", ")}${parts.length > 3 ? ", …" : ""})` : ""}`;
    const destination = to ? `${to.model.id} (${to.model.provider}, composite ${to.composite_score})` : "no eligible model of another provider";
    const act: Record<Action, string> = {
      FAIL_OVER_NOW: `Fail over now to ${destination}.`,
      FAIL_OVER_LATENCY_SENSITIVE: `Move latency-sensitive traffic to ${destination}; keep the rest on ${options.from} with retries and back-off.`,
      MONITOR: `Only surfaces an API client does not call are impaired; keep traffic on ${options.from} and watch; standby: ${destination}.`,
      NO_ACTION: `No action needed; standby: ${destination}.`,
    };
    incident = {
      title,
      service: impact.service,
      impact_classification: impact.classification,
      recommended_action: impact.action,
      started_at: startedAt,
      triage_summary: [
        `${name}'s status page shows ${status}${total > 0 ? `: ${plural(impaired, "component")} of ${total} impaired` : " (no components listed)"}`,
        startedAt ? `, impaired since ${startedAt} by our status samples. ` : ". ",
        act[impact.action],
      ].join(""),
    };
  }

  return {
    from: { provider: options.from, status, in_incident: inIncident, incident },
    query: { from: options.from, task: options.task, model: options.model ?? null },
    capturedAt: route.capturedAt,
    excluded_providers: excluded,
    failover_to: to,
    alternatives: route.runners_up,
    trust: route.trust,
    recommended_action: impact.action,
    note,
  };
}
