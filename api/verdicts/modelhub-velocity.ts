/**
 * The model hub velocity series (GET /api/premium/modelhub/velocity): one point per UTC day of the window from
 * the per-day figures that the route reads from warehouse table modelhub_daily (the hub's top 30 models and
 * datasets by downloads and top 30 Spaces by likes). Entered / exited and every delta compare a listing with
 * the same listing on its previous captured day; a delta exists only for an id in the top 30 on both days.
 * A day (or a listing) without a capture has null figures, never an invented zero.
 */
import { daysOf, type DayRange } from "./history-range.ts";

/** Entries per day in each top-by-delta list, and per window in each gainers list. */
export const TOP_SIZE = 5;

export type HubKind = "model" | "dataset" | "space";

/** One listing captured on one day. */
export interface HubKindDay {
  date: string;
  kind: HubKind;
  /** The listing's previous captured day (possibly before the window), or null when there is none. */
  prev: string | null;
  /** Entries in the listing that day (at most 30). */
  count: number;
}

/**
 * One id of a listing compared with the previous captured day: entered (new in the top 30), exited (gone) or
 * kept (in both, with `value` the current downloads — likes for Spaces — and `delta` the change). `n` counts all
 * ids of that change that day, so the route may send only the top few rows of each.
 */
export interface HubMove {
  date: string;
  kind: HubKind;
  change: "entered" | "exited" | "kept";
  id: string;
  value: number | null;
  delta: number | null;
  n: number;
}

/** One id's downloads change summed over the window's kept days. */
export interface HubGainer {
  kind: "model" | "dataset";
  id: string;
  /** Downloads on the last day the id was compared. */
  downloads: number;
  download_delta: number;
  /** Day-to-day comparisons summed. */
  days: number;
}

export interface ModelhubVelocityInput {
  range: DayRange;
  /** Captured listings; those outside the range are ignored. */
  days: readonly HubKindDay[];
  moves: readonly HubMove[];
  gainers: readonly HubGainer[];
}

export interface DownloadDelta {
  id: string;
  downloads: number;
  download_delta: number;
}
export interface LikesDelta {
  id: string;
  likes: number;
  likes_delta: number;
}

/** One day of the series. */
export interface VelocityPoint {
  date: string;
  model_count: number | null;
  dataset_count: number | null;
  space_count: number | null;
  models_entered: number | null;
  models_exited: number | null;
  datasets_entered: number | null;
  datasets_exited: number | null;
  top_models_by_download_delta: DownloadDelta[] | null;
  top_datasets_by_download_delta: DownloadDelta[] | null;
  top_spaces_by_likes_delta: LikesDelta[] | null;
  has_data: boolean;
}

/** A gainer as the answer shows it. */
export type WindowGainer = Omit<HubGainer, "kind">;

export interface VelocityWindow {
  top_model_gainers: WindowGainer[];
  top_dataset_gainers: WindowGainer[];
  model_count_start: number | null;
  model_count_end: number | null;
}

export interface ModelhubVelocity {
  ok: true;
  from: string;
  to: string;
  days: number;
  points: VelocityPoint[];
  window: VelocityWindow;
  notes: string[];
}

const KINDS: readonly HubKind[] = ["model", "dataset", "space"];

/** Build the series over every day of the range. */
export function modelhubVelocity(input: ModelhubVelocityInput): ModelhubVelocity {
  const dates = daysOf(input.range);
  const inWindow = new Set(dates);
  const listing = new Map<string, HubKindDay>();
  for (const d of input.days) if (inWindow.has(d.date)) listing.set(`${d.date} ${d.kind}`, d);
  const moves = groupMoves(input.moves);

  const points = dates.map((date): VelocityPoint => {
    const of = (kind: HubKind) => listing.get(`${date} ${kind}`);
    /** Count of a change when the listing was captured and compared that day, else null. */
    const moved = (kind: HubKind, change: "entered" | "exited") => (of(kind)?.prev ? (moves.get(`${date} ${kind}`)?.[change].n ?? 0) : null);
    const kept = (kind: HubKind) => (of(kind)?.prev ? topKept(moves.get(`${date} ${kind}`)?.kept.rows ?? []) : null);
    const downloads = (kind: HubKind) => kept(kind)?.map((m) => ({ id: m.id, downloads: m.value!, download_delta: m.delta! })) ?? null;
    return {
      date,
      model_count: of("model")?.count ?? null,
      dataset_count: of("dataset")?.count ?? null,
      space_count: of("space")?.count ?? null,
      models_entered: moved("model", "entered"),
      models_exited: moved("model", "exited"),
      datasets_entered: moved("dataset", "entered"),
      datasets_exited: moved("dataset", "exited"),
      top_models_by_download_delta: downloads("model"),
      top_datasets_by_download_delta: downloads("dataset"),
      top_spaces_by_likes_delta: kept("space")?.map((m) => ({ id: m.id, likes: m.value!, likes_delta: m.delta! })) ?? null,
      has_data: KINDS.some((k) => of(k) !== undefined),
    };
  });

  const modelCounts = points.filter((p) => p.model_count !== null).map((p) => p.model_count!);
  return {
    ok: true,
    from: input.range.from,
    to: input.range.to,
    days: dates.length,
    points,
    window: {
      top_model_gainers: topGainers(input.gainers, "model"),
      top_dataset_gainers: topGainers(input.gainers, "dataset"),
      model_count_start: modelCounts[0] ?? null,
      model_count_end: modelCounts.at(-1) ?? null,
    },
    notes: notesFor(dates, points, [...listing.values()]),
  };
}

interface KindMoves {
  entered: { n: number };
  exited: { n: number };
  kept: { n: number; rows: HubMove[] };
}

function groupMoves(rows: readonly HubMove[]): Map<string, KindMoves> {
  const out = new Map<string, KindMoves>();
  for (const row of rows) {
    const key = `${row.date} ${row.kind}`;
    let entry = out.get(key);
    if (!entry) {
      entry = { entered: { n: 0 }, exited: { n: 0 }, kept: { n: 0, rows: [] } };
      out.set(key, entry);
    }
    entry[row.change].n = Math.max(entry[row.change].n, row.n);
    if (row.change === "kept" && row.value !== null && row.delta !== null) entry.kept.rows.push(row);
  }
  return out;
}

/** Largest delta first, then id; TOP_SIZE entries. */
function topKept(rows: HubMove[]): HubMove[] {
  return [...rows].sort((a, b) => b.delta! - a.delta! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, TOP_SIZE);
}

function topGainers(rows: readonly HubGainer[], kind: "model" | "dataset"): WindowGainer[] {
  return rows
    .filter((g) => g.kind === kind)
    .sort((a, b) => b.download_delta - a.download_delta || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, TOP_SIZE)
    .map(({ id, downloads, download_delta, days }) => ({ id, downloads, download_delta, days }));
}

function notesFor(dates: string[], points: VelocityPoint[], captured: HubKindDay[]): string[] {
  const notes = [
    "The hub lists its top 30 models and datasets by downloads (its rolling 30-day count) and top 30 Spaces by likes. Entered / exited compare a listing with the same listing on its previous captured day; download and likes deltas exist only for ids in the top 30 on both days.",
    `Each top_*_by_*_delta list holds the ${TOP_SIZE} largest day-to-day changes (they may be negative); window gainers sum an id's daily download deltas over the window (days = comparisons summed).`,
  ];
  if (captured.length === 0) return [...notes, "No day in the window has a capture of the model hub listings."];
  const missing = points.filter((p) => !p.has_data).length;
  if (missing > 0) notes.push(`${missing} of ${dates.length} days have no capture: has_data is false and their figures are null.`);
  const partial = points.filter((p) => p.has_data && (p.model_count === null || p.dataset_count === null || p.space_count === null)).map((p) => p.date);
  if (partial.length > 0) notes.push(`A listing failed on ${partial.join(", ")}: its figures are null that day.`);
  const uncompared = [...new Set(captured.filter((d) => d.prev === null).map((d) => d.date))].sort();
  if (uncompared.length > 0) notes.push(`Entered, exited and deltas are null on ${uncompared.join(", ")} for listings with no earlier capture to compare with.`);
  return notes;
}
