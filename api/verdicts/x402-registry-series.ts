/**
 * The x402 registry series (GET /api/premium/x402-registry/series): one point per UTC day of the window from the
 * weekly crawl's x402 registry rows (warehouse x402_registry_daily) and payee wallets (x402_publishers_daily). A
 * day without a crawl has `has_data: false` and null figures, never an invented zero; the changes compare a crawl
 * with the previous crawl and are null when there is none.
 *
 * The registry on a crawl day: every domain whose discovery document was read that day (ok), plus every domain
 * that had been ok on an earlier crawl and whose document could not be fetched this time (error). A domain that
 * never had a readable document is not in it, however its fetch went.
 */
import { daysOf, type DayRange } from "./history-range.ts";

/** Domains shown per day in each sample. */
export const REGISTRY_SAMPLE_SIZE = 5;

/** One domain's registry row on one crawl day. */
export interface RegistryRowInput {
  date: string;
  domain: string;
  status: "ok" | "error";
  paid: number | null;
  free: number | null;
  federated: boolean | null;
  /** CAIP-2 networks its payment options name (empty on error; null when the crawl did not record the document's resources). */
  networks: readonly string[] | null;
  fairTrade: boolean | null;
}

export interface RegistrySeriesInput {
  range: DayRange;
  /** Crawl days, ascending: those of the range and the last one before it (for the first point's changes). */
  crawlDays: readonly string[];
  /** Registry rows of those crawl days. */
  rows: readonly RegistryRowInput[];
  /** The first crawl day each domain's document was read (over all history). */
  firstOk: ReadonlyMap<string, string>;
  /** Per crawl day, per domain, its payee wallets as "address|network" keys. */
  wallets: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
}

export interface RegistryPoint {
  date: string;
  total: number | null;
  ok_count: number | null;
  error_count: number | null;
  federation_count: number | null;
  network_count: number | null;
  networks: string[];
  paid_endpoints_total: number | null;
  free_endpoints_total: number | null;
  agent_fair_trade_count: number | null;
  added: number | null;
  removed: number | null;
  status_flips: number | null;
  wallet_changes: number | null;
  added_sample: string[];
  removed_sample: string[];
  wallet_change_sample: string[];
  has_data: boolean;
}

export interface RegistrySeries {
  ok: true;
  from: string;
  to: string;
  days: number;
  points: RegistryPoint[];
  delta_in_window: { start_total: number | null; end_total: number | null; net: number | null; start_ok: number | null; end_ok: number | null };
  notes: string[];
}

/** The registry of one crawl day: domain → its row. */
function registryOn(day: string, byDay: ReadonlyMap<string, RegistryRowInput[]>, firstOk: ReadonlyMap<string, string>): Map<string, RegistryRowInput> {
  const out = new Map<string, RegistryRowInput>();
  for (const r of byDay.get(day) ?? []) {
    if (r.status === "ok") out.set(r.domain, r);
    else {
      const first = firstOk.get(r.domain);
      if (first !== undefined && first < day) out.set(r.domain, r);
    }
  }
  return out;
}

const sample = (domains: Iterable<string>) => [...domains].sort().slice(0, REGISTRY_SAMPLE_SIZE);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

function emptyPoint(date: string): RegistryPoint {
  return {
    date,
    total: null,
    ok_count: null,
    error_count: null,
    federation_count: null,
    network_count: null,
    networks: [],
    paid_endpoints_total: null,
    free_endpoints_total: null,
    agent_fair_trade_count: null,
    added: null,
    removed: null,
    status_flips: null,
    wallet_changes: null,
    added_sample: [],
    removed_sample: [],
    wallet_change_sample: [],
    has_data: false,
  };
}

/** The sum of counts, or null when one of them was not recorded (a partial sum would read as a drop). */
function knownSum(counts: readonly (number | null)[]): number | null {
  return counts.some((c) => c === null) ? null : counts.reduce<number>((a, c) => a + c!, 0);
}

/** Build the series. */
export function registrySeries(input: RegistrySeriesInput): RegistrySeries {
  const byDay = new Map<string, RegistryRowInput[]>();
  for (const r of input.rows) byDay.set(r.date, [...(byDay.get(r.date) ?? []), r]);
  const crawls = [...new Set(input.crawlDays)].sort();
  const points = daysOf(input.range).map((date): RegistryPoint => {
    const at = crawls.indexOf(date);
    if (at < 0) return emptyPoint(date);
    const now = registryOn(date, byDay, input.firstOk);
    const entries = [...now.values()];
    const ok = entries.filter((e) => e.status === "ok");
    const networks = [...new Set(ok.flatMap((e) => e.networks ?? []))].sort();
    const point: RegistryPoint = {
      ...emptyPoint(date),
      has_data: true,
      total: entries.length,
      ok_count: ok.length,
      error_count: entries.length - ok.length,
      federation_count: ok.some((e) => e.federated === null) ? null : ok.filter((e) => e.federated === true).length,
      network_count: ok.some((e) => e.networks === null) ? null : networks.length,
      networks,
      paid_endpoints_total: knownSum(ok.map((e) => e.paid)),
      free_endpoints_total: knownSum(ok.map((e) => e.free)),
      agent_fair_trade_count: ok.some((e) => e.fairTrade === null) ? null : ok.filter((e) => e.fairTrade === true).length,
    };
    const prevDay = at > 0 ? crawls[at - 1]! : null;
    if (prevDay === null) return point;
    const before = registryOn(prevDay, byDay, input.firstOk);
    const added = [...now.keys()].filter((d) => !before.has(d));
    const removed = [...before.keys()].filter((d) => !now.has(d));
    const both = [...now.keys()].filter((d) => before.has(d));
    const flips = both.filter((d) => now.get(d)!.status !== before.get(d)!.status);
    const walletsNow = input.wallets.get(date);
    const walletsBefore = input.wallets.get(prevDay);
    const okOnBoth = both.filter((d) => now.get(d)!.status === "ok" && before.get(d)!.status === "ok");
    // A crawl that did not record a document's contents (networks null) did not record its wallets either: an
    // unknown set is not an empty one, and a count over the other domains would read as fewer changes.
    const walletsKnown = okOnBoth.every((d) => now.get(d)!.networks !== null && before.get(d)!.networks !== null);
    const walletChanged = walletsKnown ? okOnBoth.filter((d) => !sameSet(walletsNow?.get(d) ?? [], walletsBefore?.get(d) ?? [])) : [];
    return {
      ...point,
      added: added.length,
      removed: removed.length,
      status_flips: flips.length,
      wallet_changes: walletsKnown ? walletChanged.length : null,
      added_sample: sample(added),
      removed_sample: sample(removed),
      wallet_change_sample: sample(walletChanged),
    };
  });
  const captured = points.filter((p) => p.has_data);
  const first = captured[0];
  const last = captured.at(-1);
  return {
    ok: true,
    from: input.range.from,
    to: input.range.to,
    days: input.range.days,
    points,
    delta_in_window: {
      start_total: first?.total ?? null,
      end_total: last?.total ?? null,
      net: first && last ? last.total! - first.total! : null,
      start_ok: first?.ok_count ?? null,
      end_ok: last?.ok_count ?? null,
    },
    notes: [
      "The registry of a crawl day: domains whose /.well-known/x402 was read that day (ok), and domains read on an earlier crawl whose document could not be fetched this time (error).",
      "added / removed / status_flips / wallet_changes compare a crawl with the previous crawl (weekly; looked up before from when needed); wallet changes count domains ok on both crawls whose set of payee wallets differs, and are null when either crawl did not record a document's contents.",
      `Days without a crawl: ${points.length - captured.length} of ${points.length} (has_data false, figures null).`,
    ],
  };
}
