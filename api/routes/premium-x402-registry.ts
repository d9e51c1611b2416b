/**
 * GET /api/premium/x402-registry/series: the x402 publisher registry day by day — its size, how
 * many discovery documents were read or failed, federation, networks, paid and free endpoints, fair-trade
 * publishers, and the changes between crawls. Read from the warehouse tables x402_registry_daily and
 * x402_publishers_daily (the weekly web-readiness crawl); decided by the pure api/verdicts/x402-registry-series.ts.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { RANGE_ERRORS, RANGE_RULE, resolveRange } from "../verdicts/history-range.ts";
import { REGISTRY_SAMPLE_SIZE, registrySeries, type RegistryRowInput, type RegistrySeries } from "../verdicts/x402-registry-series.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { warehouseOf } from "./premium-model-reads.ts";
import { SeriesQuery, type SeriesQueryInput } from "./premium-series.ts";

const count = z.int().nonnegative();
const isoDay = z.iso.date();

/** Body of GET /api/premium/x402-registry/series (the billing wrapper adds billing and receipt). */
export const RegistrySeriesResponse = z.strictObject({
  ok: z.literal(true),
  from: isoDay,
  to: isoDay,
  days: count,
  points: z.array(
    z.strictObject({
      date: isoDay,
      total: count.nullable().meta({ description: "Domains in the registry that crawl day (ok plus error)." }),
      ok_count: count.nullable().meta({ description: "Discovery documents read." }),
      error_count: count.nullable().meta({ description: "Domains read on an earlier crawl whose document could not be fetched this time." }),
      federation_count: count.nullable().meta({ description: "Documents listing resources on other sites." }),
      network_count: count.nullable(),
      networks: z.array(z.string()).meta({ description: "CAIP-2 networks named by the payment options, sorted." }),
      paid_endpoints_total: count.nullable().meta({ description: "Resources with a payment option of a positive amount, over the documents read." }),
      free_endpoints_total: count.nullable().meta({ description: "Resources offered without payment." }),
      agent_fair_trade_count: count.nullable().meta({ description: "Registry domains (ok) serving a valid /.well-known/agent-fair-trade.json; null when the crawl could not tell for one of them." }),
      added: count.nullable(),
      removed: count.nullable(),
      status_flips: count.nullable().meta({ description: "Domains in the registry on both crawls whose status (ok / error) changed." }),
      wallet_changes: count.nullable().meta({ description: "Domains ok on both crawls whose set of payee wallets changed; null when either crawl did not record a document's contents (its wallets are unknown, not none)." }),
      added_sample: z.array(z.string()),
      removed_sample: z.array(z.string()),
      wallet_change_sample: z.array(z.string()),
      has_data: z.boolean(),
    }),
  ),
  delta_in_window: z.strictObject({ start_total: count.nullable(), end_total: count.nullable(), net: z.int().nullable(), start_ok: count.nullable(), end_ok: count.nullable() }),
  notes: z.array(z.string()),
}) satisfies z.ZodType<RegistrySeries>;

/**
 * The crawl days of the registry up to `to`: the web-readiness crawl days whose registry was recorded. A crawl day
 * without an x402_registry_daily file counts only when none of its domains had a discovery document (the registry
 * was empty that day); one whose documents went unrecorded (a crawl from before the table) has no data.
 */
async function registryCrawlDays(warehouse: WarehouseReader, to: string): Promise<string[]> {
  const crawls = warehouse.dates("web_readiness_daily").filter((d) => d <= to);
  const recorded = new Set(warehouse.dates("x402_registry_daily"));
  const unrecorded = crawls.filter((d) => !recorded.has(d)).sort();
  if (unrecorded.length === 0) return crawls;
  // daysOf reads the whole table for a table held in the database, hence the date range; the days between
  // that were recorded are left out below.
  const withDocuments = await warehouse.query<{ date: string }>(
    `SELECT DISTINCT CAST(date AS VARCHAR) AS date FROM ${warehouse.daysOf("web_readiness_daily", unrecorded)}
      WHERE x402 IN ('present', 'unknown') AND date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)`,
    [unrecorded[0]!, unrecorded.at(-1)!],
  );
  const skipped = new Set(withDocuments.map((r) => r.date).filter((d) => !recorded.has(d)));
  return crawls.filter((d) => !skipped.has(d));
}

/** What the series needs of the warehouse for one range. */
async function readRegistry(warehouse: WarehouseReader, from: string, to: string) {
  const all = await registryCrawlDays(warehouse, to);
  const before = all.filter((d) => d < from).at(-1);
  const crawlDays = all.filter((d) => d >= from || d === before);
  if (crawlDays.length === 0) return { crawlDays, rows: [], firstOk: new Map<string, string>(), wallets: new Map<string, Map<string, string[]>>() };
  const span = [crawlDays[0]!, to];
  const [rows, first, payees] = await Promise.all([
    warehouse.query<{ date: string; domain: string; status: string; paid_endpoints: number | null; free_endpoints: number | null; federated: boolean | null; networks: string | null; agent_fair_trade: boolean | null }>(
      `SELECT CAST(date AS VARCHAR) AS date, domain, status, paid_endpoints, free_endpoints, federated, networks, agent_fair_trade
       FROM ${warehouse.daysOf("x402_registry_daily", crawlDays)} WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)`,
      span,
    ),
    warehouse.query<{ domain: string; first_ok: string }>(
      "SELECT domain, CAST(min(date) AS VARCHAR) AS first_ok FROM x402_registry_daily WHERE status = 'ok' AND date <= CAST(? AS DATE) GROUP BY domain",
      [to],
    ),
    warehouse.query<{ date: string; domain: string; pay_to: string; network: string }>(
      `SELECT CAST(date AS VARCHAR) AS date, domain, pay_to, network FROM ${warehouse.daysOf("x402_publishers_daily", crawlDays)} WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)`,
      span,
    ),
  ]);
  const wallets = new Map<string, Map<string, string[]>>();
  for (const p of payees) {
    const day = wallets.get(p.date) ?? new Map<string, string[]>();
    day.set(p.domain, [...(day.get(p.domain) ?? []), `${p.pay_to.toLowerCase()}|${p.network}`]);
    wallets.set(p.date, day);
  }
  return {
    crawlDays,
    rows: rows.map(
      (r): RegistryRowInput => ({
        date: r.date,
        domain: r.domain,
        status: r.status === "ok" ? "ok" : "error",
        paid: r.paid_endpoints,
        free: r.free_endpoints,
        federated: r.federated,
        networks: r.networks === null ? (r.status === "ok" ? null : []) : r.networks.split(",").filter(Boolean),
        fairTrade: r.agent_fair_trade,
      }),
    ),
    firstOk: new Map(first.map((f) => [f.domain, f.first_ok])),
    wallets,
  };
}

/** Render GET /api/premium/x402-registry/series. */
export async function renderRegistrySeries(ctx: RenderContext, query: SeriesQueryInput): Promise<RegistrySeries> {
  const range = resolveRange(query, ctx.now);
  return registrySeries({ range, ...(await readRegistry(warehouseOf(ctx), range.from, range.to)) });
}

/** The registry series route. */
export const premiumX402RegistryRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/x402-registry/series",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Daily series of the x402 publisher registry: size, documents read and failing, federation, networks, paid and free endpoints, fair-trade publishers, and what changed between crawls.",
    description: [
      `from / to: inclusive UTC days; ${RANGE_RULE}`,
      "One point per day; the registry is crawled weekly (web-readiness), so most days have has_data false and null figures, never 0. Read from the warehouse tables x402_registry_daily and x402_publishers_daily.",
      "The registry of a crawl day: domains whose /.well-known/x402 was read (ok) and domains read on an earlier crawl whose document could not be fetched this time (error); a domain never read is not in it. paid / free endpoints: resources with a payment option of a positive amount, and the others. federation: a document listing resources on other sites. agent_fair_trade: a valid /.well-known/agent-fair-trade.json.",
      `added / removed / status_flips / wallet_changes compare a crawl with the previous crawl (looked up before from when needed); null without one. Samples: the first ${REGISTRY_SAMPLE_SIZE} domains alphabetically. delta_in_window compares the window's first and last crawl. A window without a crawl is not charged (no_data_in_range).`,
    ].join(" "),
    tags: ["premium", "x402", "history"],
    query: SeriesQuery,
    response: RegistrySeriesResponse,
    snapshots: ["web-readiness"],
    errors: {
      400: RANGE_ERRORS,
      503: "warehouse_unavailable: the instance has no warehouse reader.",
    },
    noCharge: {
      outcomes: { no_data_in_range: "no crawl on any day of the asked range (every point has has_data false)" },
      check: (body) => (body.points.some((p) => p.has_data) ? null : "no_data_in_range"),
    },
    example: "/api/premium/x402-registry/series?from=2026-10-27&to=2026-11-25",
    render: (ctx, { query }) => renderRegistrySeries(ctx, query),
  }),
];
