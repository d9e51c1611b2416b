/**
 * Rebuild the warehouse partitions of every day the snapshot history holds (`npm run warehouse -- --from-git`).
 * For each day, each feed that can derive rows from its snapshot body (Feed.historyRows) contributes when it
 * succeeded that day: in git, the manifest of that day's last commit says its last success was that day (or,
 * in a commit without a manifest, the commit holds that day's dated file); without git, a dated file of that
 * day exists. The rows are merged into the day's partitions with the usual last-row-per-key rule, so a run
 * over the same history again changes no file.
 */
import type { Feed, HistoryMoment, SnapshotMeta, WarehouseBatch } from "../types.ts";
import { filesHistory, gitHistory, type HistoryDay, type HistorySource } from "./history-source.ts";
import { openWarehouseWriter, type WarehouseWriteOptions } from "./write.ts";

/** Days merged per pass (bounds the rows held in memory). */
const CHUNK_DAYS = 31;

export interface RebuildOptions extends WarehouseWriteOptions {
  /** The feed registry (keys are snapshot types). */
  feeds: Record<string, Feed>;
  /** Use git history when `dir` is in a git work tree (default true); otherwise the dated files. */
  git?: boolean;
  /** Called after each day. */
  onProgress?: (done: number, total: number, date: string) => void;
}

/** Per-table figures of a rebuild. */
export interface RebuildTableSummary {
  table: string;
  /** Days with rows for this table. */
  days: number;
  /** Rows in those day files after the merge, summed. */
  rows: number;
}

/** What a rebuild did. */
export interface RebuildSummary {
  source: "git" | "files";
  days: number;
  first: string | null;
  last: string | null;
  tables: RebuildTableSummary[];
  /** Day files (re)written, and those a merge left untouched. */
  written: number;
  unchanged: number;
  /** Other day files rewritten to the declared column types. */
  retyped: number;
  /** Snapshot bodies that no longer match their feed's schema, by type (left out, with the first day). */
  skipped: { type: string; days: number; first: string; reason: string }[];
  ms: number;
}

/** Rebuild every day's partitions under `<dir>/warehouse/` from the history of `dir`. */
export async function rebuildFromHistory(dir: string, options: RebuildOptions): Promise<RebuildSummary> {
  const started = performance.now();
  const feeds = Object.values(options.feeds).filter((f) => f.historyRows !== undefined);
  const source: HistorySource =
    (options.git === false ? undefined : await gitHistory(dir)) ?? (await filesHistory(dir, feeds.map((f) => f.type)));
  const writer = await openWarehouseWriter(options.tables ? { tables: options.tables } : {});
  const tables = new Map<string, RebuildTableSummary>();
  const skipped = new Map<string, RebuildSummary["skipped"][number]>();
  let written = 0;
  let unchanged = 0;
  let retyped = 0;
  try {
    let done = 0;
    for (let i = 0; i < source.days.length; i += CHUNK_DAYS) {
      const chunk = source.days.slice(i, i + CHUNK_DAYS);
      const days: { date: string; batches: WarehouseBatch[] }[] = [];
      for (const day of chunk) days.push({ date: day.date, batches: await dayBatches(source, day, feeds, skipped) });
      let results;
      try {
        results = await writer.writeDays(dir, days);
      } catch (error) {
        throw new Error(`rebuildFromHistory: days ${chunk[0]!.date} … ${chunk.at(-1)!.date}: ${(error as Error).message}`, { cause: error });
      }
      for (const r of results) {
        const t = tables.get(r.table) ?? { table: r.table, days: 0, rows: 0 };
        t.days += 1;
        t.rows += r.rows;
        tables.set(r.table, t);
        if (r.changed) written += 1;
        else unchanged += 1;
      }
      for (const day of chunk) options.onProgress?.(++done, source.days.length, day.date);
    }
    // Day files no snapshot can stand for (e.g. gpu_prices) still get the declared types.
    for (const r of await writer.retype(dir)) if (r.changed) retyped += 1;
  } finally {
    writer.close();
  }
  return {
    source: source.kind,
    days: source.days.length,
    first: source.days[0]?.date ?? null,
    last: source.days.at(-1)?.date ?? null,
    tables: [...tables.values()].sort((a, b) => a.table.localeCompare(b.table)),
    written,
    unchanged,
    retyped,
    skipped: [...skipped.values()],
    ms: Math.round(performance.now() - started),
  };
}

async function dayBatches(
  source: HistorySource,
  day: HistoryDay,
  feeds: Feed[],
  skipped: Map<string, RebuildSummary["skipped"][number]>,
): Promise<WarehouseBatch[]> {
  const files = await source.readFiles(day, ["manifest.json", ...feeds.map((f) => `${f.type}/latest.json`)]);
  const manifest = parseManifest(files.get("manifest.json"));
  const batches: WarehouseBatch[] = [];
  for (const feed of feeds) {
    const moment = await observedMoment(source, day, feed.type, manifest);
    if (!moment) continue;
    const text = files.get(`${feed.type}/latest.json`);
    if (text === undefined) continue;
    const parsed = feed.schema.safeParse(safeJson(text));
    if (!parsed.success) {
      const s = skipped.get(feed.type) ?? { type: feed.type, days: 0, first: day.date, reason: parsed.error.issues[0]?.message ?? "invalid" };
      s.days += 1;
      skipped.set(feed.type, s);
      continue;
    }
    batches.push(...feed.historyRows!(parsed.data, moment));
  }
  return batches;
}

/** When the feed of `type` was observed on `day`, or undefined when it did not succeed that day. */
async function observedMoment(
  source: HistorySource,
  day: HistoryDay,
  type: string,
  manifest: Record<string, Partial<SnapshotMeta>> | undefined,
): Promise<HistoryMoment | undefined> {
  const meta = manifest?.[type];
  if (source.kind === "git" && manifest) {
    const success = typeof meta?.lastSuccess === "string" ? meta.lastSuccess : null;
    return success && success.slice(0, 10) === day.date ? { date: day.date, observedAt: success } : undefined;
  }
  if (!(await source.hasDated(day, type))) return undefined;
  if (source.kind === "git") return { date: day.date, observedAt: day.committedAt! };
  // Without git the run time of an older day is unknown: the manifest's lastChanged when it is that day, else the day's start.
  const changed = typeof meta?.lastChanged === "string" && meta.lastChanged.slice(0, 10) === day.date ? meta.lastChanged : null;
  return { date: day.date, observedAt: changed ?? `${day.date}T00:00:00.000Z` };
}

function parseManifest(text: string | undefined): Record<string, Partial<SnapshotMeta>> | undefined {
  const parsed = text === undefined ? undefined : safeJson(text);
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const types = (parsed as { types?: unknown }).types;
  return typeof types === "object" && types !== null ? (types as Record<string, Partial<SnapshotMeta>>) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
