/**
 * The premium x402 settlement reads: GET /api/premium/x402-index/publisher/{domain},
 * GET /api/premium/x402-index/series and GET /api/premium/x402-settlement-verdict. They read the settlement index
 * (api/x402-index/: USDC Transfer logs to the publisher registry's wallets, in Postgres) and the registry (the
 * warehouse's x402_publishers_daily); the verdict is judged by api/verdicts/x402-settlement.ts. Billing, the 402
 * challenge (before any parameter check) and receipts come from the premium wrapper.
 */
import { z } from "zod";
import { BASE_CHAIN_ID } from "../payments/config.ts";
import { unitsToUsd } from "../payments/units.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { addDays } from "../verdicts/history-range.ts";
import { SETTLEMENT_WINDOWS, settlementVerdict, type PublisherTotals, type SettlementWindow } from "../verdicts/x402-settlement.ts";
import { chainRegistry, indexStatus, registryRows, registryWallets, totalsByDay, totalsByWallet, type ChainRegistry, type IndexStatus } from "../x402-index/reads.ts";
import { x402IndexServices, type X402IndexServices } from "../x402-index/services.ts";
import { warehouseOf } from "./premium-model-reads.ts";
import { calendarDay } from "./query-fields.ts";
import { X402_INDEX_ATTRIBUTION } from "./x402-index.ts";

/** Freshness SLA of the settlement reads: the index's newest block at most 10 minutes old. */
export const SETTLEMENT_SLA_SECONDS = 600;
/** Longest window of the publisher rollup and the series, in days. */
export const MAX_SETTLEMENT_DAYS = 366;

const tags = ["premium", "x402"];

export const SETTLEMENT_ATTRIBUTION = `USDC Transfer events to the publishers' pay_to wallets, read by this service from the chain's logs past a confirmation depth (forward-only from the block the index started at). ${X402_INDEX_ATTRIBUTION}`;
const LICENSE = "Public blockchain data; the aggregation is this service's and may be reused with attribution";

const Coverage = z.strictObject({
  network: z.string().meta({ description: "CAIP-2 id of the indexed chain (eip155:8453 is Base)." }),
  test_chain: z.boolean().meta({ description: "True when the indexed chain is not Base mainnet (a testnet or the local test chain: test money)." }),
  token: z.string().meta({ description: "The indexed token contract (USDC), lower-cased." }),
  indexed_from: z.string().nullable().meta({ description: "Time of the first block the index read (settlements before it were never looked for); null before the first pass." }),
  indexed_to: z.string().nullable().meta({ description: "Time of the newest final block indexed; null before the first pass." }),
  indexed_to_block: z.string().nullable().meta({ description: "Its number (decimal string)." }),
  stale: z.boolean().meta({ description: `True when indexed_to is more than ${SETTLEMENT_SLA_SECONDS / 60} minutes old (or absent): such a call is not charged.` }),
});
type CoverageBody = z.infer<typeof Coverage>;

/** The index's coverage as the answers show it, and whether it misses the freshness SLA at `now`. */
export function coverageOf(services: Pick<X402IndexServices, "chainId" | "token">, status: IndexStatus | null, now: Date): CoverageBody {
  const to = status?.blockTime ?? null;
  return {
    network: `eip155:${services.chainId}`,
    test_chain: services.chainId !== BASE_CHAIN_ID,
    token: services.token,
    indexed_from: status?.firstBlockTime?.toISOString() ?? null,
    indexed_to: to?.toISOString() ?? null,
    indexed_to_block: status ? status.block.toString() : null,
    stale: to === null || now.getTime() - to.getTime() > SETTLEMENT_SLA_SECONDS * 1000,
  };
}

/** Whether the UTC day `date` lies inside the index's coverage (touched by [indexed_from, indexed_to]). */
function dayIndexed(date: string, coverage: CoverageBody): boolean {
  if (coverage.indexed_from === null || coverage.indexed_to === null) return false;
  return date >= coverage.indexed_from.slice(0, 10) && date <= coverage.indexed_to.slice(0, 10);
}

const domainField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9.-]+$/, "domain is a host name such as example.com");

const rangeFields = {
  from: calendarDay("from").meta({ description: "First day, YYYY-MM-DD (inclusive; required)." }),
  to: calendarDay("to").meta({ description: `Last day, YYYY-MM-DD (inclusive; required); at most ${MAX_SETTLEMENT_DAYS} days from from.` }),
};

/** The days of [from, to] after checking the order and the length. */
function rangeDays(from: string, to: string): string[] {
  if (from > to) throw new ApiError(400, "invalid_range", "from must not be after to");
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_SETTLEMENT_DAYS) throw new ApiError(400, "range_too_long", `the range is at most ${MAX_SETTLEMENT_DAYS} days`);
  return Array.from({ length: days }, (_, i) => addDays(from, i));
}

/** The registry entry of `domain` (404 with where the registry is when it is not in it) and its wallets on every network. */
async function publisherOf(ctx: RenderContext, services: X402IndexServices, domain: string): Promise<{ registry: ChainRegistry; wallets: { address: string; network: string; first_seen: string }[] }> {
  const warehouse = warehouseOf(ctx);
  const all = (await registryRows(warehouse)).filter((r) => r.domain === domain);
  if (all.length === 0) {
    throw new ApiError(404, "unknown_publisher", `${domain} is not in the x402 publisher registry`, {
      hint: "the registry (domains whose /.well-known/x402 names a payee wallet) is free at /api/x402-index/publishers; a domain joins it when the weekly crawl finds one",
    });
  }
  return { registry: await chainRegistry(warehouse, services.chainId), wallets: all.map((w) => ({ address: w.pay_to, network: w.network, first_seen: w.first_seen })) };
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/premium/x402-index/publisher/{domain}

export const PublisherParams = z.strictObject({ domain: domainField.meta({ description: "A domain of the publisher registry (/api/x402-index/publishers)." }) });
export const PublisherQuery = z.strictObject(rangeFields);

const DayPoint = z.strictObject({
  date: z.string(),
  volume_usdc: z.string().meta({ description: "USDC, decimal string." }),
  count: z.int().nonnegative(),
  indexed: z.boolean().meta({ description: "Whether the index covered the day; an uncovered day's zeros mean unknown, not none." }),
});

export const PublisherResponse = z.strictObject({
  ok: z.literal(true),
  publisher: z.strictObject({
    domain: z.string(),
    pay_to_wallets: z.array(
      z.strictObject({
        address: z.string(),
        network: z.string(),
        first_seen: z.string(),
        indexed: z.boolean().meta({ description: "Whether the wallet is on the indexed chain (only those are summed)." }),
        shared_with: z.array(z.string()).meta({ description: "Other registry domains naming the same wallet: its settlements count for each of them here." }),
      }),
    ),
    first_seen: z.string(),
  }),
  window: z.strictObject({ from: z.string(), to: z.string(), days: z.int().positive() }),
  rollup: z.strictObject({
    volume_usdc: z.string(),
    count: z.int().nonnegative(),
    avg_amount: z.string().nullable().meta({ description: "volume / count, USDC rounded down to the base unit; null without a settlement." }),
    daily_series: z.array(DayPoint),
  }),
  coverage: Coverage,
  attribution: z.string(),
  license: z.string(),
});
type PublisherBody = z.infer<typeof PublisherResponse>;

/** Render GET /api/premium/x402-index/publisher/{domain}. */
export async function renderPublisher(ctx: RenderContext, params: z.infer<typeof PublisherParams>, query: z.infer<typeof PublisherQuery>): Promise<PublisherBody> {
  const services = x402IndexServices();
  const days = rangeDays(query.from, query.to);
  const { registry, wallets } = await publisherOf(ctx, services, params.domain);
  const status = await indexStatus(services.db, services.chainId);
  const coverage = coverageOf(services, status, ctx.now);
  const onChain = wallets.filter((w) => w.network === registry.network).map((w) => w.address);
  const totals = await totalsByDay(services.db, { chainId: services.chainId, token: services.token, wallets: onChain }, query.from, query.to);
  const byDay = new Map(totals.map((t) => [t.date, t]));
  const volume = totals.reduce((a, t) => a + t.volumeUnits, 0n);
  const count = totals.reduce((a, t) => a + t.count, 0);
  return {
    ok: true,
    publisher: {
      domain: params.domain,
      pay_to_wallets: wallets.map((w) => ({
        ...w,
        indexed: w.network === registry.network,
        shared_with: (registry.namedBy.get(w.address.toLowerCase()) ?? []).filter((d) => d !== params.domain),
      })),
      first_seen: wallets.reduce((a, w) => (w.first_seen < a ? w.first_seen : a), wallets[0]!.first_seen),
    },
    window: { from: query.from, to: query.to, days: days.length },
    rollup: {
      volume_usdc: unitsToUsd(volume),
      count,
      avg_amount: count === 0 ? null : unitsToUsd(volume / BigInt(count)),
      daily_series: days.map((date) => {
        const t = byDay.get(date);
        return { date, volume_usdc: unitsToUsd(t?.volumeUnits ?? 0n), count: t?.count ?? 0, indexed: dayIndexed(date, coverage) };
      }),
    },
    coverage,
    attribution: SETTLEMENT_ATTRIBUTION,
    license: LICENSE,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/premium/x402-index/series

export const SeriesQuery = z.strictObject({
  metric: z.enum(["volume", "count"]).meta({ description: "volume (USDC, decimal strings) or count (settlements, integers)." }),
  granularity: z.enum(["day", "hour"]).default("day").meta({ description: "day; hour answers an empty series with a note." }),
  ...rangeFields,
  domain: domainField.optional().meta({ description: "One registry domain; omit for the whole ecosystem." }),
});

export const SeriesResponse = z.strictObject({
  ok: z.literal(true),
  metric: z.enum(["volume", "count"]),
  granularity: z.enum(["day", "hour"]),
  domain: z.string().nullable(),
  window: z.strictObject({ from: z.string(), to: z.string() }),
  series: z.array(z.strictObject({ ts: z.string().meta({ description: "The UTC day, YYYY-MM-DD." }), value: z.union([z.string(), z.int().nonnegative()]), indexed: z.boolean() })),
  coverage: Coverage,
  attribution: z.string(),
  note: z.string().optional(),
});
type SeriesBody = z.infer<typeof SeriesResponse>;

/** Render GET /api/premium/x402-index/series. */
export async function renderSeries(ctx: RenderContext, query: z.infer<typeof SeriesQuery>): Promise<SeriesBody> {
  const services = x402IndexServices();
  const days = rangeDays(query.from, query.to);
  let wallets: string[];
  if (query.domain !== undefined) {
    const { registry, wallets: all } = await publisherOf(ctx, services, query.domain);
    wallets = all.filter((w) => w.network === registry.network).map((w) => w.address);
  } else {
    wallets = registryWallets(await chainRegistry(warehouseOf(ctx), services.chainId));
  }
  const coverage = coverageOf(services, await indexStatus(services.db, services.chainId), ctx.now);
  const base = { ok: true as const, metric: query.metric, granularity: query.granularity, domain: query.domain ?? null, window: { from: query.from, to: query.to }, coverage, attribution: SETTLEMENT_ATTRIBUTION };
  if (query.granularity === "hour") {
    return { ...base, series: [], note: "Only daily points are served: the index keeps block times, but hourly points are not offered. Ask granularity=day." };
  }
  const byDay = new Map((await totalsByDay(services.db, { chainId: services.chainId, token: services.token, wallets }, query.from, query.to)).map((t) => [t.date, t]));
  return {
    ...base,
    series: days.map((ts) => {
      const t = byDay.get(ts);
      return { ts, value: query.metric === "volume" ? unitsToUsd(t?.volumeUnits ?? 0n) : (t?.count ?? 0), indexed: dayIndexed(ts, coverage) };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/premium/x402-settlement-verdict

export const VerdictQuery = z.strictObject({
  window: z.enum(Object.keys(SETTLEMENT_WINDOWS) as [SettlementWindow, ...SettlementWindow[]]).default("7d").meta({ description: "24h, 7d (default) or 30d, ending at the newest indexed block." }),
});

export const VerdictResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().nullable().meta({ description: "Time of the newest indexed final block (the window ends there); null before the first pass." }),
  window_label: z.enum(["24h", "7d", "30d"]),
  window: z.strictObject({ from: z.string(), to: z.string(), prior_from: z.string(), prior_to: z.string() }).nullable(),
  verdict: z.strictObject({
    momentum: z.enum(["expanding", "steady", "contracting", "nascent"]),
    concentration: z.enum(["concentrated", "moderate", "diversified"]).nullable(),
    leading_publisher: z.string().nullable(),
  }),
  ecosystem: z.strictObject({
    volume_usdc: z.string(),
    count: z.int().nonnegative(),
    unique_publishers: z.int().nonnegative(),
    volume_change_pct: z.number().nullable(),
    count_change_pct: z.number().nullable(),
    prior_window_empty: z.boolean(),
    top_publisher_share_pct: z.number().nullable(),
    hhi: z.int().nonnegative().nullable(),
  }),
  ranking: z.array(z.strictObject({ rank: z.int().positive(), domain: z.string(), volume_usdc: z.string(), count: z.int().nonnegative(), share_pct: z.number() })),
  coverage: Coverage,
  attribution: z.string(),
});
type VerdictBody = z.infer<typeof VerdictResponse>;

/** Sum wallet totals into the publishers they are attributed to. */
function perPublisher(registry: ChainRegistry, rows: readonly { wallet: string; volumeUnits: bigint; count: number }[]): PublisherTotals[] {
  const out = new Map<string, PublisherTotals>();
  for (const r of rows) {
    const domain = registry.owner.get(r.wallet.toLowerCase());
    if (!domain) continue;
    const t = out.get(domain) ?? { domain, volumeUnits: 0n, count: 0 };
    t.volumeUnits += r.volumeUnits;
    t.count += r.count;
    out.set(domain, t);
  }
  return [...out.values()];
}

/** Render GET /api/premium/x402-settlement-verdict. */
export async function renderSettlementVerdict(ctx: RenderContext, query: z.infer<typeof VerdictQuery>): Promise<VerdictBody> {
  const services = x402IndexServices();
  const registry = await chainRegistry(warehouseOf(ctx), services.chainId);
  const status = await indexStatus(services.db, services.chainId);
  const coverage = coverageOf(services, status, ctx.now);
  const hours = SETTLEMENT_WINDOWS[query.window];
  const asOf = status?.blockTime ?? null;
  let current: PublisherTotals[] = [];
  let prior: PublisherTotals[] = [];
  let window: VerdictBody["window"] = null;
  let priorCovered = false;
  if (asOf) {
    const span = hours * 3_600_000;
    const from = new Date(asOf.getTime() - span);
    const priorFrom = new Date(asOf.getTime() - 2 * span);
    const scope = { chainId: services.chainId, token: services.token, wallets: registryWallets(registry) };
    const [now, before] = await Promise.all([totalsByWallet(services.db, scope, from, asOf), totalsByWallet(services.db, scope, priorFrom, from)]);
    current = perPublisher(registry, now);
    prior = perPublisher(registry, before);
    window = { from: from.toISOString(), to: asOf.toISOString(), prior_from: priorFrom.toISOString(), prior_to: from.toISOString() };
    priorCovered = status?.firstBlockTime != null && status.firstBlockTime.getTime() <= priorFrom.getTime();
  }
  const judged = settlementVerdict({ window: query.window, current, prior, priorWindowCovered: priorCovered });
  return { ok: true, capturedAt: asOf?.toISOString() ?? null, window_label: query.window, window, ...judged, coverage, attribution: SETTLEMENT_ATTRIBUTION };
}

// ---------------------------------------------------------------------------------------------------------------

const notIndexed = (coverage: CoverageBody) => coverage.indexed_to === null;
const errors = {
  503: "the settlement index does not run on this instance (x402_index_unavailable), or the warehouse reader is not open (warehouse_unavailable)",
};
const sharedNoCharge = {
  not_indexed: "the index has not completed a pass yet: nothing to read",
  index_stale: `the index's newest block is more than ${SETTLEMENT_SLA_SECONDS / 60} minutes old (the indexer is behind or the chain unreachable)`,
};
const freshness = { cadence: "every 30 seconds (X402_INDEX_INTERVAL_SECONDS)", slaSeconds: SETTLEMENT_SLA_SECONDS };
const COVERAGE_TEXT =
  "Coverage: settlements to the registry's wallets on the chain the service is paid on (Base; any other chain, such as the local test chain, is flagged test_chain), indexed forward-only from the block the index started at and only past the confirmation depth; zero-value transfers are not counted. Days outside the coverage carry indexed false.";

/** The premium settlement routes. */
export const premiumX402IndexRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/x402-index/publisher/:domain",
    tier: "premium",
    cost: 1,
    summary: "One x402 publisher's indexed USDC settlements over a date range: its pay_to wallets, totals, average amount and a daily series with zeros.",
    description: [
      `from and to are required (YYYY-MM-DD, inclusive, at most ${MAX_SETTLEMENT_DAYS} days; from after to is 400 invalid_range); the 402 challenge precedes the parameter check.`,
      "A domain outside the publisher registry is 404 unknown_publisher with a hint (the registry is free at /api/x402-index/publishers); not charged.",
      "Every wallet the registry ever saw for the domain is listed; those on the indexed chain are summed, including a wallet other domains share (shared_with names them).",
      COVERAGE_TEXT,
      `Not charged: before the index's first pass (not_indexed), or when its newest block is older than ${SETTLEMENT_SLA_SECONDS / 60} minutes (index_stale).`,
    ].join(" "),
    tags,
    params: PublisherParams,
    query: PublisherQuery,
    response: PublisherResponse,
    errors: { 404: "the domain is not in the publisher registry (unknown_publisher, with a hint)", ...errors },
    freshness,
    example: "/api/premium/x402-index/publisher/base.org?from=2026-11-01&to=2026-11-30",
    noCharge: { outcomes: sharedNoCharge, check: (body) => (notIndexed(body.coverage) ? "not_indexed" : body.coverage.stale ? "index_stale" : null) },
    render: (ctx, { params, query }) => renderPublisher(ctx, params, query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/x402-index/series",
    tier: "premium",
    cost: 1,
    summary: "A daily series of indexed x402 settlements (USDC volume or count), for the ecosystem or one publisher.",
    description: [
      `metric (volume | count), from and to are required (YYYY-MM-DD, inclusive, at most ${MAX_SETTLEMENT_DAYS} days); granularity day (default) or hour — hour answers an empty series with a note. domain narrows to one registry domain (404 unknown_publisher outside it).`,
      "The ecosystem series counts each settlement once, however many domains name its wallet. volume values are USDC decimal strings; count values integers; every day of the range is present (zeros included).",
      COVERAGE_TEXT,
      `Not charged: before the index's first pass (not_indexed), when its newest block is older than ${SETTLEMENT_SLA_SECONDS / 60} minutes (index_stale), or for the hourly granularity (not_served).`,
    ].join(" "),
    tags,
    query: SeriesQuery,
    response: SeriesResponse,
    errors: { 404: "domain is not in the publisher registry (unknown_publisher, with a hint)", ...errors },
    freshness,
    example: "/api/premium/x402-index/series?metric=volume&from=2026-11-01&to=2026-11-30",
    noCharge: {
      outcomes: { ...sharedNoCharge, not_served: "granularity hour: the series is empty" },
      check: (body) => (body.granularity === "hour" ? "not_served" : notIndexed(body.coverage) ? "not_indexed" : body.coverage.stale ? "index_stale" : null),
    },
    render: (ctx, { query }) => renderSeries(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/x402-settlement-verdict",
    tier: "premium",
    cost: 1,
    summary: "The x402 ecosystem's settlement momentum and concentration over 24h, 7d or 30d: volume and count against the prior window, Herfindahl index, leading publisher and ranking.",
    description: [
      "The window ends at the newest indexed block (capturedAt); the prior window is the same length just before it.",
      "momentum: expanding when volume grew 20 % or more against the prior window, contracting when it fell 20 % or more, steady between; nascent when the index did not cover the whole prior window, the prior window had no settlement, or both windows together hold fewer than 10.",
      "concentration by the Herfindahl–Hirschman index of publisher volume shares (percent, 0–10,000), in the bands of the U.S. DOJ/FTC Horizontal Merger Guidelines (2010): above 2,500 concentrated, 1,500–2,500 moderate, below diversified; null without volume.",
      "A wallet several domains name is attributed to the domain that listed it first (then alphabetically first), so every settlement counts once. Ranking: volume, then count, then domain; at most 100 publishers.",
      COVERAGE_TEXT,
      `Freshness SLA ${SETTLEMENT_SLA_SECONDS / 60} minutes on the newest indexed block. Not charged: before the first pass (not_indexed), stale (index_stale), or no settlement in either window (no_settlements).`,
    ].join(" "),
    tags,
    query: VerdictQuery,
    response: VerdictResponse,
    errors,
    freshness,
    noCharge: {
      outcomes: { ...sharedNoCharge, no_settlements: "neither the window nor the prior window holds an indexed settlement" },
      check: (body) =>
        notIndexed(body.coverage) ? "not_indexed" : body.coverage.stale ? "index_stale" : body.ecosystem.count === 0 && body.ecosystem.prior_window_empty ? "no_settlements" : null,
    },
    render: (ctx, { query }) => renderSettlementVerdict(ctx, query),
  }),
];
