/**
 * The route verdict (GET /api/premium/route-verdict): which model to route a task to, ranked by a composite of
 * five layers, each taken from a real feed and each saying where it came from. Pure over rows the route reads.
 *
 * Layers and how they enter the composite (weights sum to 1):
 * - quality 0.40: the task's benchmark blend of api/verdicts/routing.ts (same benchmarks and shares, a missing
 *   benchmark imputed with its median), *trust-discounted*: each benchmark's score counts at its trust factor
 *   t = 1 − 0.5 · clamp((top − 80) / 20, 0, 1), where top is the best score any model reports on it. A benchmark
 *   whose leaders sit near 100% is saturated and the likeliest to be contaminated (its public test items have
 *   had the longest time to leak into training data), so it separates models least; one whose top score is 80%
 *   or less counts in full, one at 100% counts half. trust_discounted = Σ share·t·score / Σ share.
 * - operational 0.25: the provider's newest status-page sample: operational 1, degraded 0.5, down 0, unknown or
 *   untracked 0.5 (the routing rule).
 * - cost 0.20: log-position of the blended price (3:1 input:output) between the cheapest and dearest model of
 *   the pool that can rank (retired models set no bound), 1 for the cheapest (routing's costScore).
 * - latency 0.15: the provider's measured p95 of our own API probes (total request time) on the newest probed
 *   day no older than yesterday, log-scaled like cost between the fastest and slowest measured provider of the
 *   models that can rank; a
 *   provider without such a measure scores the neutral 0.5 and says so (measured_p95_ms null, a note).
 * - usage: no feed of per-model usage exists in this service, so usage is never corroborated and does not enter
 *   the composite (source null and a note).
 * Pool: priced models with a quality for the task; retired models (or on or past their sunset date) never rank.
 * Filters after scoring (so they only remove rows): require_operational, exclude_deprecated (announced,
 * deprecated or retired), max_latency_p95_ms (a model whose provider has no measured p95 is removed, since the
 * bound cannot be checked), excluded providers. Order: composite desc, trust-discounted quality desc, blended
 * asc, id asc. With `model`, the verdict is that model (rank null when it is not in the filtered ranking) and
 * runners_up are the best others; otherwise the verdict is rank 1 and runners_up the next ones.
 */
import { blended } from "./price.ts";
import { AVAILABILITY, TASK_BLENDS, costScore, median, type ServiceState, type Task } from "./routing.ts";
import { round } from "./round.ts";

/** Share of each layer in the composite. */
export const ROUTE_WEIGHTS = { quality: 0.4, operational: 0.25, cost: 0.2, latency: 0.15 } as const;
/** Freshness SLA of the operational layer, seconds. */
export const OPERATIONAL_SLA_SECONDS = 30 * 60;
/** Score of a layer without data for a provider (untracked status, unprobed latency). */
export const NEUTRAL = 0.5;
/** Runners-up shown beside the verdict. */
export const RUNNERS_UP = 4;
/** Top benchmark score (percent) from which the trust factor falls, and the factor at 100%. */
export const CEILING_FROM = 80;
export const CEILING_FLOOR = 0.5;
/** Latency below this (ms) counts as this on the log scale. */
const LATENCY_FLOOR_MS = 1;

const USAGE_NOTE = "No per-model usage feed exists in this service: usage is not corroborated and does not enter the composite.";

/** A catalog model (the pricing snapshot: names and facts no warehouse table holds). */
export interface CatalogModel {
  id: string;
  name: string;
  provider: string;
  openSource: boolean;
  contextWindow: number;
}

/** One price observation (warehouse model_prices, newest day). */
export interface PriceRow {
  model_id: string;
  input_per_1m: number | null;
  output_per_1m: number | null;
  source: string;
  observed_at: string | null;
  date: string;
}

/** One benchmark score in percent (warehouse benchmark_scores, newest day). */
export interface ScoreRow {
  benchmark: string;
  model_id: string;
  score: number;
}

/** A provider's newest status-page sample (warehouse status_samples). */
export interface StatusRow {
  provider: string;
  status: string;
  ts: string;
  /** When the newest sample is degraded or down: the first sample of that run within the samples read; else null. */
  impaired_since: string | null;
}

/** A provider's probes of one UTC day (warehouse probe_daily). */
export interface ProbeRow {
  provider: string;
  date: string;
  count: number;
  total_p95: number | null;
}

/** A deprecation calendar entry (model-deprecations snapshot). */
export interface DeprecationRow {
  provider: string;
  model: string;
  status: "announced" | "deprecated" | "retired";
  sunset_date: string | null;
}

/** Everything the verdict reads. */
export interface RouteInputs {
  models: readonly CatalogModel[];
  prices: readonly PriceRow[];
  scores: readonly ScoreRow[];
  statuses: readonly StatusRow[];
  /** Status page URL per provider id (status snapshot). */
  statusPages: ReadonlyMap<string, string>;
  probes: readonly ProbeRow[];
  deprecations: readonly DeprecationRow[];
}

export interface RouteOptions {
  task: Task;
  /** A catalog model id (already resolved), or undefined. */
  model?: string;
  max_latency_p95_ms?: number;
  require_operational?: boolean;
  exclude_deprecated?: boolean;
  /** Providers left out of the ranking (failover). */
  exclude_providers?: readonly string[];
  /** Keep only models whose trust-discounted quality is at least this (failover's comparable models). */
  min_trust_discounted?: number;
  now: Date;
}

export interface VerdictEntry {
  rank: number | null;
  model: { id: string; name: string; provider: string; openSource: boolean; contextWindow: number };
  pricing: { input: number; output: number; blended: number; currency: "USD"; unit: "per_1m_tokens"; source: string; observed_at: string | null };
  quality: { task_score: number; trust_discounted: number; contamination_note: string };
  usage: { corroborated: false; rank: null; share_pct: null; trend: null; source: null; note: string };
  latency: { measured_p95_ms: number | null; source: string | null; note: string | null };
  operational: { ok: boolean; status: ServiceState; source: string | null; as_of: string | null };
  deprecation: { flagged: boolean; status: "announced" | "deprecated" | "retired" | null; sunset_date: string | null };
  composite_score: number;
  why: string;
}

export interface BenchmarkTrust {
  benchmark: string;
  share: number;
  top_score: number | null;
  trust_factor: number;
}

export interface RouteTrust {
  usage_corroborated: false;
  benchmark_contamination: { method: string; benchmarks: BenchmarkTrust[] };
  operational_layer: { source: "status_samples"; as_of: string | null; age_seconds: number | null; sla_seconds: number; fresh: boolean };
  latency_layer: { source: "probe_samples" | null; as_of: string | null; providers_measured: number; note: string };
}

export interface RouteVerdict {
  task: Task;
  model: string | null;
  capturedAt: string | null;
  verdict: VerdictEntry | null;
  runners_up: VerdictEntry[];
  /** Candidates that passed every filter. */
  ranked: number;
  trust: RouteTrust;
  /** Why the verdict is null, or null. */
  empty_reason: string | null;
}

interface Candidate {
  model: CatalogModel;
  price: PriceRow & { input_per_1m: number; output_per_1m: number };
  blended: number;
  taskScore: number;
  discounted: number;
  status: ServiceState;
  statusAsOf: string | null;
  p95: number | null;
  probeDate: string | null;
  deprecation: VerdictEntry["deprecation"];
  retired: boolean;
  cost: number;
  latencyScore: number;
  composite: number;
}

const day = (now: Date) => now.toISOString().slice(0, 10);
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const STATES = new Set<string>(["operational", "degraded", "down", "unknown"]);

/** Trust factor of a benchmark whose best reported score is `top` percent. */
export function trustFactor(top: number | null): number {
  if (top === null) return 1;
  const x = Math.min(1, Math.max(0, (top - CEILING_FROM) / (100 - CEILING_FROM)));
  return round(1 - (1 - CEILING_FLOOR) * x, 4);
}

/** Whether price row `a` is newer than `b`: later capture day, then later observed_at (NULL oldest), then curated. */
function newer(a: PriceRow, b: PriceRow): boolean {
  if (a.date !== b.date) return a.date > b.date;
  const ta = a.observed_at === null ? -Infinity : Date.parse(a.observed_at);
  const tb = b.observed_at === null ? -Infinity : Date.parse(b.observed_at);
  if (ta !== tb) return ta > tb;
  return a.source === "curated" && b.source !== "curated";
}

/** Per-model newest price: the newest capture day, in it the largest observed_at (NULL oldest); curated wins a tie. */
export function newestPrices(rows: readonly PriceRow[]): Map<string, PriceRow> {
  const out = new Map<string, PriceRow>();
  for (const r of rows) {
    const cur = out.get(r.model_id);
    if (!cur || newer(r, cur)) out.set(r.model_id, r);
  }
  return out;
}

/** The task's benchmarks with their share, best score and trust factor. */
export function benchmarkTrust(scores: readonly ScoreRow[], task: Task): BenchmarkTrust[] {
  return Object.entries(TASK_BLENDS[task]).map(([benchmark, share]) => {
    const own = scores.filter((s) => s.benchmark === benchmark).map((s) => s.score);
    const top = own.length > 0 ? Math.max(...own) : null;
    return { benchmark, share, top_score: top, trust_factor: trustFactor(top) };
  });
}

/** Task score and trust-discounted score of one model, or null without any of the task's benchmarks. */
export function discountedQuality(
  table: ReadonlyMap<string, ReadonlyMap<string, number>>,
  trust: readonly BenchmarkTrust[],
  modelId: string,
): { taskScore: number; discounted: number; note: string } | null {
  let total = 0;
  let discounted = 0;
  let weight = 0;
  let present = 0;
  const notes: string[] = [];
  for (const b of trust) {
    const scores = table.get(b.benchmark);
    if (!scores || scores.size === 0) continue;
    const own = scores.get(modelId);
    if (own !== undefined) present++;
    const v = own ?? median([...scores.values()]);
    total += b.share * v;
    discounted += b.share * b.trust_factor * v;
    weight += b.share;
    if (b.trust_factor < 1) notes.push(`${b.benchmark} near its ceiling (top ${b.top_score}%) counted at ${Math.round(b.trust_factor * 100)}%`);
    if (own === undefined) notes.push(`${b.benchmark} not reported for this model, its median imputed`);
  }
  if (present === 0 || weight === 0) return null;
  return {
    taskScore: total / weight,
    discounted: discounted / weight,
    note: notes.length > 0 ? `${notes.join("; ")}.` : "No discount: none of the task's benchmarks is near its ceiling.",
  };
}

/** A dated version suffix of a provider model id: -20240229, -2025-08-07, -03-25, -0324. */
const DATED_SUFFIX = /^-(\d{8}|\d{4}-\d{2}-\d{2}|\d{2}-\d{2}|\d{4})$/;
const SEVERITY = { announced: 0, deprecated: 1, retired: 2 } as const;
const normalId = (id: string) => id.toLowerCase().replace(/\./g, "-");

/**
 * The calendar entry of a catalog model: its exact id (dots read as dashes, as providers spell versions), else
 * its dated versions (claude-3-opus → claude-3-opus-20240229), of which the least severe counts (an alias is
 * retired only when every dated version on the calendar is).
 */
function deprecationOf(rows: readonly DeprecationRow[], model: CatalogModel, today: string): VerdictEntry["deprecation"] & { retired: boolean } {
  const id = normalId(model.id);
  const own = rows.filter((d) => d.provider === model.provider);
  const exact = own.find((d) => normalId(d.model) === id);
  const dated = own.filter((d) => normalId(d.model).startsWith(id) && DATED_SUFFIX.test(normalId(d.model).slice(id.length)));
  // A model is shut down on its sunset date: from that day it counts as retired (as model-migration counts it).
  const effective = (d: DeprecationRow) => (d.sunset_date !== null && d.sunset_date <= today ? "retired" : d.status);
  const entry = exact ?? dated.sort((a, b) => SEVERITY[effective(a)] - SEVERITY[effective(b)])[0];
  if (!entry) return { flagged: false, status: null, sunset_date: null, retired: false };
  const status = effective(entry);
  return { flagged: true, status, sunset_date: entry.sunset_date, retired: status === "retired" };
}

function logScore(x: number, lo: number, hi: number): number {
  const a = Math.log(Math.max(lo, LATENCY_FLOOR_MS));
  const b = Math.log(Math.max(hi, LATENCY_FLOOR_MS));
  if (b <= a) return 1;
  return Math.min(1, Math.max(0, 1 - (Math.log(Math.max(x, LATENCY_FLOOR_MS)) - a) / (b - a)));
}

/** The newest probe day of each provider, no older than yesterday at `now`. */
export function latestProbes(rows: readonly ProbeRow[], now: Date): Map<string, ProbeRow> {
  const oldest = addDays(day(now), -1);
  const out = new Map<string, ProbeRow>();
  for (const r of rows) {
    if (r.count <= 0 || r.total_p95 === null || r.date < oldest || r.date > day(now)) continue;
    const cur = out.get(r.provider);
    if (!cur || r.date > cur.date) out.set(r.provider, r);
  }
  return out;
}

/** The route verdict over the rows (see the module comment). */
export function routeVerdict(inputs: RouteInputs, options: RouteOptions): RouteVerdict {
  const today = day(options.now);
  const trust = benchmarkTrust(inputs.scores, options.task);
  const table = new Map<string, Map<string, number>>();
  for (const s of inputs.scores) {
    if (!(s.benchmark in TASK_BLENDS[options.task])) continue;
    const byModel = table.get(s.benchmark) ?? new Map<string, number>();
    byModel.set(s.model_id, Math.min(1, Math.max(0, s.score / 100)));
    table.set(s.benchmark, byModel);
  }
  const prices = newestPrices(inputs.prices);
  const statuses = new Map(inputs.statuses.map((s) => [s.provider, s]));
  const probes = latestProbes(inputs.probes, options.now);

  const statusAsOf = inputs.statuses.reduce<string | null>((m, s) => (m === null || s.ts > m ? s.ts : m), null);
  const age = statusAsOf === null ? null : Math.max(0, Math.round((options.now.getTime() - Date.parse(statusAsOf)) / 1000));
  const fresh = age !== null && age <= OPERATIONAL_SLA_SECONDS;

  const pool: Omit<Candidate, "cost" | "latencyScore" | "composite">[] = [];
  const notes = new Map<string, string>();
  for (const m of inputs.models) {
    const price = prices.get(m.id);
    if (!price || price.input_per_1m === null || price.output_per_1m === null) continue;
    const q = discountedQuality(table, trust, m.id);
    if (q === null) continue;
    const st = statuses.get(m.provider);
    const probe = probes.get(m.provider);
    const dep = deprecationOf(inputs.deprecations, m, today);
    notes.set(m.id, q.note);
    pool.push({
      model: m,
      price: price as Candidate["price"],
      blended: blended(price.input_per_1m, price.output_per_1m),
      taskScore: q.taskScore,
      discounted: q.discounted,
      status: st && STATES.has(st.status) ? (st.status as ServiceState) : "unknown",
      statusAsOf: st?.ts ?? null,
      p95: probe?.total_p95 ?? null,
      probeDate: probe?.date ?? null,
      deprecation: { flagged: dep.flagged, status: dep.status, sunset_date: dep.sunset_date },
      retired: dep.retired,
    });
  }

  // The cost and latency scales span the models that can rank: a retired model's price or latency moves no score.
  const rankable = pool.filter((c) => !c.retired);
  const measured = rankable.flatMap((c) => (c.p95 === null ? [] : [c.p95]));
  const [fastest, slowest] = [Math.min(...measured), Math.max(...measured)];
  const [cheapest, dearest] = [Math.min(...rankable.map((c) => c.blended)), Math.max(...rankable.map((c) => c.blended))];
  const scored: Candidate[] = pool.map((c) => {
    const cost = costScore(c.blended, cheapest, dearest);
    const latencyScore = c.p95 === null ? NEUTRAL : logScore(c.p95, fastest, slowest);
    const composite = round(
      ROUTE_WEIGHTS.quality * c.discounted + ROUTE_WEIGHTS.operational * AVAILABILITY[c.status] + ROUTE_WEIGHTS.cost * cost + ROUTE_WEIGHTS.latency * latencyScore,
      4,
    );
    return { ...c, cost, latencyScore, composite };
  });

  const excluded = new Set(options.exclude_providers ?? []);
  const passes = (c: Candidate) =>
    !c.retired &&
    !excluded.has(c.model.provider) &&
    (options.min_trust_discounted === undefined || c.discounted >= options.min_trust_discounted) &&
    (!options.require_operational || c.status === "operational") &&
    (!options.exclude_deprecated || !c.deprecation.flagged) &&
    (options.max_latency_p95_ms === undefined || (c.p95 !== null && c.p95 <= options.max_latency_p95_ms));
  const ranked = scored
    .filter(passes)
    .sort(
      (a, b) =>
        b.composite - a.composite ||
        b.discounted - a.discounted ||
        a.blended - b.blended ||
        (a.model.id < b.model.id ? -1 : a.model.id > b.model.id ? 1 : 0),
    );
  const byQuality = [...scored].sort((a, b) => b.discounted - a.discounted);

  const entry = (c: Candidate): VerdictEntry => {
    const idx = ranked.indexOf(c);
    return {
      rank: idx >= 0 ? idx + 1 : null,
      model: { id: c.model.id, name: c.model.name, provider: c.model.provider, openSource: c.model.openSource, contextWindow: c.model.contextWindow },
      pricing: {
        input: c.price.input_per_1m,
        output: c.price.output_per_1m,
        blended: c.blended,
        currency: "USD",
        unit: "per_1m_tokens",
        source: c.price.source,
        observed_at: c.price.observed_at,
      },
      quality: { task_score: round(c.taskScore, 4), trust_discounted: round(c.discounted, 4), contamination_note: notes.get(c.model.id)! },
      usage: { corroborated: false, rank: null, share_pct: null, trend: null, source: null, note: USAGE_NOTE },
      latency:
        c.p95 === null
          ? { measured_p95_ms: null, source: null, note: `${c.model.provider} is not probed, or has no probe sample since yesterday: latency scored neutral (${NEUTRAL}).` }
          : {
              measured_p95_ms: round(c.p95, 1),
              source: `probe_samples ${c.probeDate}: p95 total time of this service's probes of the ${c.model.provider} API`,
              note: "Measures reaching the provider's API (a models listing), not generation time.",
            },
      operational: { ok: c.status === "operational", status: c.status, source: inputs.statusPages.get(c.model.provider) ?? null, as_of: c.statusAsOf },
      deprecation: c.deprecation,
      composite_score: c.composite,
      why: explain(c, idx >= 0 ? idx + 1 : null, ranked.length, byQuality.indexOf(c) + 1, options),
    };
  };

  let verdictC: Candidate | undefined;
  let emptyReason: string | null = null;
  if (options.model !== undefined) {
    verdictC = scored.find((c) => c.model.id === options.model);
    if (!verdictC) emptyReason = `model ${options.model} has no price or no score on the ${options.task} benchmarks in the warehouse`;
  } else {
    verdictC = ranked[0];
    if (!verdictC) emptyReason = pool.length === 0 ? `no priced model has a score on the ${options.task} benchmarks` : "no model passes the filters";
  }
  const runners = ranked.filter((c) => c !== verdictC).slice(0, RUNNERS_UP);

  const probeDates = [...probes.values()].map((p) => p.date).sort();
  return {
    task: options.task,
    model: options.model ?? null,
    capturedAt: statusAsOf,
    verdict: verdictC ? entry(verdictC) : null,
    runners_up: runners.map(entry),
    ranked: ranked.length,
    trust: {
      usage_corroborated: false,
      benchmark_contamination: {
        method: `Ceiling proximity: a benchmark's scores count at 1 − ${1 - CEILING_FLOOR}·clamp((top − ${CEILING_FROM}) / ${100 - CEILING_FROM}, 0, 1) of their value, top being its best reported score.`,
        benchmarks: trust,
      },
      operational_layer: { source: "status_samples", as_of: statusAsOf, age_seconds: age, sla_seconds: OPERATIONAL_SLA_SECONDS, fresh },
      latency_layer:
        probes.size === 0
          ? { source: null, as_of: null, providers_measured: 0, note: "No probe sample since yesterday: no latency is measured, every provider scores the neutral 0.5." }
          : {
              source: "probe_samples",
              as_of: probeDates[probeDates.length - 1]!,
              providers_measured: probes.size,
              note: "p95 of total request time of this service's own probes of each provider's API, newest day since yesterday; unprobed providers score the neutral 0.5.",
            },
    },
    empty_reason: emptyReason,
  };
}

function explain(c: Candidate, rank: number | null, of: number, qualityRank: number, options: RouteOptions): string {
  const parts: string[] = [];
  parts.push(rank === null ? `Not in the ranking of ${of} for ${options.task}${whyOut(c, options)}` : `Rank ${rank} of ${of} for ${options.task}`);
  parts.push(`composite ${c.composite}`);
  parts.push(`trust-discounted quality ${round(c.discounted, 3)} (#${qualityRank} by quality)`);
  parts.push(`blended $${c.blended}/1M tokens (cost score ${round(c.cost, 2)})`);
  parts.push(`${c.model.provider} ${c.status}`);
  parts.push(c.p95 === null ? "latency not measured" : `API p95 ${round(c.p95, 1)} ms`);
  parts.push(c.deprecation.flagged ? `${c.deprecation.status}${c.deprecation.sunset_date ? ` (sunset ${c.deprecation.sunset_date})` : ""}` : "not deprecated");
  return `${parts.join("; ")}.`;
}

function whyOut(c: Candidate, options: RouteOptions): string {
  if (c.retired) return " (retired)";
  if ((options.exclude_providers ?? []).includes(c.model.provider)) return " (provider excluded)";
  if (options.min_trust_discounted !== undefined && c.discounted < options.min_trust_discounted) return " (quality below the floor)";
  if (options.require_operational && c.status !== "operational") return " (not operational)";
  if (options.exclude_deprecated && c.deprecation.flagged) return " (deprecated)";
  if (options.max_latency_p95_ms !== undefined) return c.p95 === null ? " (latency not measured)" : " (p95 above max_latency_p95_ms)";
  return "";
}
