/**
 * What the route and failover verdicts read: warehouse rows (prices, benchmark scores, newest status samples,
 * daily probe percentiles) of the newest captured days only, each read once per warehouse version and shared by
 * every call until the day files change; plus the snapshot facts no table holds (model names and flags, status
 * page URLs and components, the deprecation calendar). Every statement is constant text with `?` parameters.
 */
import { readSnapshot } from "../serve/read-snapshot.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { perVersion } from "../warehouse/per-version.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { relationFrom } from "../warehouse/recent.ts";
import { TASK_BLENDS } from "../verdicts/routing.ts";
import type { CatalogModel, DeprecationRow, PriceRow, ProbeRow, RouteInputs, ScoreRow, StatusRow } from "../verdicts/route-verdict.ts";
import type { KnownProvider, StatusPage } from "../verdicts/failover.ts";
import { modelDeprecationsSnapshotSchema } from "../../pipelines/contract/snapshots/model-deprecations.ts";
import { PricingSnapshotStoredSchema } from "../../pipelines/contract/snapshots/pricing.ts";
import { statusSnapshot } from "../../pipelines/contract/snapshots/status.ts";

/** Every benchmark some task blends. */
const BENCHMARKS = [...new Set(Object.values(TASK_BLENDS).flatMap((b) => Object.keys(b)))];

/** The warehouse reader, or 503 when this instance has none. */
export function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

/** The `n`-th newest date with a day file of `table` (1 = newest), or the oldest one when fewer exist; null when none. */
function nthNewest(reader: WarehouseReader, table: string, n: number): string | null {
  const dates = reader.dates(table);
  if (dates.length === 0) return null;
  return dates[Math.max(0, dates.length - n)]!;
}

const pricesSql = (relation: string) => `SELECT model_id, input_per_1m, output_per_1m, source, observed_at, date
  FROM ${relation} WHERE date >= CAST(? AS DATE)`;
const scoresSql = (relation: string) => `SELECT benchmark, model_id, score FROM ${relation}
  WHERE date = CAST(? AS DATE) AND benchmark IN (${BENCHMARKS.map(() => "?").join(", ")})`;
/**
 * Each provider's newest status sample and, when it is degraded or down, the first sample of that run (the first
 * impaired sample after the provider's last calm one), in one pass over the newest two days.
 */
const statusesSql = (relation: string) => `WITH s AS MATERIALIZED (SELECT provider, ts, status FROM ${relation} WHERE date >= CAST(? AS DATE)),
p AS (SELECT provider, arg_max(status, ts) AS status, max(ts) AS ts,
  max(ts) FILTER (WHERE status NOT IN ('degraded', 'down')) AS calm FROM s GROUP BY provider)
SELECT p.provider, p.status, p.ts,
  min(s.ts) FILTER (WHERE s.status IN ('degraded', 'down') AND (p.calm IS NULL OR s.ts > p.calm)) AS impaired_since
FROM p JOIN s ON s.provider = p.provider GROUP BY p.provider, p.status, p.ts`;
const PROBES = `SELECT provider, date, count, total_p95 FROM probe_daily WHERE date >= CAST(? AS DATE)`;

interface WarehouseRows {
  prices: PriceRow[];
  scores: ScoreRow[];
  statuses: StatusRow[];
  probes: ProbeRow[];
}

/** From the tables' recent copies: prices of the newest two days, scores of the newest day, each provider's newest status sample (and incident start) over the newest two days, probe days of the newest two days. */
export function readWarehouseRows(reader: WarehouseReader): Promise<WarehouseRows> {
  return perVersion(reader, "route-verdict.rows", async () => {
    const priceFrom = nthNewest(reader, "model_prices", 2);
    const scoreDay = nthNewest(reader, "benchmark_scores", 1);
    const statusFrom = nthNewest(reader, "status_samples", 2);
    const probeFrom = nthNewest(reader, "probe_samples", 2);
    const [prices, scores, statuses, probes] = await Promise.all([
      priceFrom ? reader.query<PriceRow & Record<string, string | number | null>>(pricesSql(relationFrom(reader, "model_prices", priceFrom)), [priceFrom]) : [],
      scoreDay ? reader.query<ScoreRow & Record<string, string | number>>(scoresSql(relationFrom(reader, "benchmark_scores", scoreDay)), [scoreDay, ...BENCHMARKS]) : [],
      statusFrom ? reader.query<StatusRow & Record<string, string | null>>(statusesSql(relationFrom(reader, "status_samples", statusFrom)), [statusFrom]) : [],
      probeFrom ? reader.query<ProbeRow & Record<string, string | number | null>>(PROBES, [probeFrom]) : [],
    ]);
    return { prices, scores, statuses, probes };
  });
}

interface SnapshotFacts {
  models: CatalogModel[];
  statusPages: Map<string, string>;
  pages: StatusPage[];
  deprecations: DeprecationRow[];
  providers: KnownProvider[];
}

/** Model facts (pricing), status pages (status) and the deprecation calendar (model-deprecations) of the loaded snapshots. */
export function readSnapshotFacts(ctx: RenderContext): SnapshotFacts {
  const pricing = readSnapshot(ctx.snapshots, "pricing", PricingSnapshotStoredSchema).data;
  const status = readSnapshot(ctx.snapshots, "status", statusSnapshot).data;
  const deprecations = readSnapshot(ctx.snapshots, "model-deprecations", modelDeprecationsSnapshotSchema).data;
  const names = new Map<string, Set<string>>();
  const addName = (id: string, name: string) => names.set(id, (names.get(id) ?? new Set()).add(name));
  for (const p of pricing.providers) addName(p.id, p.name);
  for (const s of status.services) addName(s.provider, s.name);
  return {
    models: pricing.providers.flatMap((p) =>
      p.models.map((m) => ({ id: m.id, name: m.name, provider: m.provider, openSource: m.openSource, contextWindow: m.contextWindow })),
    ),
    statusPages: new Map(status.services.map((s) => [s.provider, s.statusPageUrl])),
    pages: status.services.map((s) => ({ provider: s.provider, name: s.name, status: s.status, components: s.components })),
    deprecations: deprecations.providers.flatMap((p) => p.entries.map((e) => ({ provider: e.provider, model: e.model, status: e.status, sunset_date: e.sunset_date }))),
    providers: [...names].map(([id, n]) => ({ id, names: [...n] })),
  };
}

/** Everything the route verdict reads. */
export async function readRouteInputs(ctx: RenderContext): Promise<RouteInputs & SnapshotFacts> {
  const facts = readSnapshotFacts(ctx);
  const rows = await readWarehouseRows(warehouseOf(ctx));
  return { ...facts, ...rows };
}

/** The catalog id a user's `model` names (id or display name, case-insensitive); 404 unknown_model otherwise. */
export function resolveModel(models: readonly CatalogModel[], asked: string): string {
  const key = asked.trim().toLowerCase();
  const hit = models.find((m) => m.id.toLowerCase() === key) ?? models.find((m) => m.name.toLowerCase() === key);
  if (hit) return hit.id;
  const sample = models.map((m) => m.id).sort().slice(0, 20);
  throw new ApiError(404, "unknown_model", `model ${JSON.stringify(asked)} is not in the model catalog; see /api/models`, { known_sample: sample });
}
