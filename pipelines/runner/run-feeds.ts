/**
 * Run feeds once: build each feed's context, run it, check its output with its strict schema, then write the
 * warehouse rows and the snapshot (unless dry-run) and record the attempt in the manifest. Feeds run
 * concurrently with a small limit; one feed failing never stops the others.
 */
import { stat } from "node:fs/promises";
import PQueue from "p-queue";
import { z } from "zod";
import { createHttpClient } from "../lib/http/client.ts";
import { createSnapshotStore, utcDate, type SnapshotStore } from "../lib/store/snapshot-store.ts";
import type { WarehouseTables } from "../contract/warehouse-tables.ts";
import type { Feed, FeedContext, FeedOutput, HttpClient, SourceHealth } from "../lib/types.ts";
import { sourceHealthOf } from "../lib/types.ts";
import { writeWarehouse } from "../lib/warehouse/write.ts";
import { describeError, publishedError } from "./describe-error.ts";
import { FeedSchemaError, FeedTimeoutError, MissingReplayDirError, UnknownFeedError } from "./errors.ts";

/** Outcome of one feed in one run. */
export interface FeedResult {
  /** Registry key (the snapshot type). */
  feed: string;
  status: "changed" | "unchanged" | "failed";
  rows: number;
  durationMs: number;
  notices: string[];
  /** What failed, when status is "failed". */
  error?: string;
  sources?: SourceHealth[];
}

export interface RunFeedsOptions {
  /** The registry to run from (keys are snapshot types). */
  feeds: Record<string, Feed>;
  /** Names to run (default: every feed). An unknown name throws UnknownFeedError before anything runs. */
  only?: string[];
  /** Snapshot store (default: one over `snapshotsDir`). */
  store?: SnapshotStore;
  /** Snapshots folder when no store is given (default SNAPSHOTS_DIR or `snapshots/`). */
  snapshotsDir?: string;
  /** Shared HTTP client (default: a new one from createHttpClient, closed at the end). */
  http?: HttpClient;
  /** Answer every upstream request from recorded fixtures under this folder (which must exist); provenance becomes `replay`. */
  replayDir?: string;
  /** Provenance to record (default `replay` with replayDir, else `live`). */
  provenance?: "live" | "replay";
  /** Run and validate, but write nothing. */
  dryRun?: boolean;
  /** The run's clock (default: now). */
  now?: Date;
  /** Feeds in flight at once (default 3). */
  concurrency?: number;
  /** A feed whose run has not settled after this long fails (default 300000). */
  feedTimeoutMs?: number;
  /** A progress line per feed start and finish. */
  onProgress?: (line: string) => void;
  /** The declared warehouse tables feeds may write (default: the contract's WAREHOUSE_TABLES). */
  warehouseTables?: WarehouseTables;
  /**
   * Snapshots read, never written, for a type the store has no latest of yet (npm start's scheduler: the bundled
   * snapshots it serves until its own first run): a feed that keeps a failed source's previous data keeps those.
   */
  baseStore?: SnapshotStore;
}

/** Check names against the registry; returns the selected keys in registry order. */
export function selectFeeds(feeds: Record<string, Feed>, only?: string[]): string[] {
  const known = Object.keys(feeds);
  if (!only || only.length === 0) return known;
  const unknown = only.filter((n) => !Object.hasOwn(feeds, n));
  if (unknown.length > 0) throw new UnknownFeedError(unknown, known);
  return known.filter((n) => only.includes(n));
}

/** Run the selected feeds once and return one result per feed, in registry order. */
export async function runFeeds(options: RunFeedsOptions): Promise<FeedResult[]> {
  const names = selectFeeds(options.feeds, options.only);
  for (const name of names) {
    const feed = options.feeds[name]!;
    if (feed.type !== name) throw new Error(`runFeeds: feed registered as ${JSON.stringify(name)} has type ${JSON.stringify(feed.type)}; they must match`);
  }
  if (options.replayDir !== undefined && !(await isFolder(options.replayDir))) throw new MissingReplayDirError(options.replayDir);
  const store = options.store ?? createSnapshotStore(options.snapshotsDir === undefined ? {} : { dir: options.snapshotsDir });
  const ownHttp = options.http ? undefined : createHttpClient(options.replayDir ? { replayDir: options.replayDir } : {});
  const http = options.http ?? ownHttp!;
  const now = options.now ?? new Date();
  const provenance = options.provenance ?? (options.replayDir ? "replay" : "live");
  const progress = options.onProgress ?? (() => undefined);
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 3) });
  const timeoutMs = options.feedTimeoutMs ?? 300_000;

  try {
    return await Promise.all(
      names.map((name) =>
        queue.add(async () => {
          const feed = options.feeds[name]!;
          progress(`▶ ${name} started`);
          const result = await runOne(feed, {
            store,
            http,
            now,
            provenance,
            dryRun: options.dryRun ?? false,
            timeoutMs,
            ...(options.warehouseTables ? { warehouseTables: options.warehouseTables } : {}),
            ...(options.baseStore ? { baseStore: options.baseStore } : {}),
          });
          progress(`${result.status === "failed" ? "✗" : "✓"} ${name} ${result.status} (${result.rows} rows, ${result.durationMs} ms)${result.error ? `: ${result.error}` : ""}`);
          return result;
        }),
      ),
    );
  } finally {
    await (ownHttp as { close?: () => Promise<void> } | undefined)?.close?.();
  }
}

interface RunOneContext {
  store: SnapshotStore;
  http: HttpClient;
  now: Date;
  provenance: "live" | "replay";
  dryRun: boolean;
  timeoutMs: number;
  warehouseTables?: WarehouseTables;
  baseStore?: SnapshotStore;
}

async function runOne(feed: Feed, rc: RunOneContext): Promise<FeedResult> {
  const started = performance.now();
  const notices: string[] = [];
  const ctx: FeedContext = {
    http: rc.http,
    now: rc.now,
    provenance: rc.provenance,
    previous: async <T>(type: string) => (await rc.store.latest<T>(type)) ?? (await rc.baseStore?.latest<T>(type)),
    dated: <T>(type: string, date: string) => rc.store.dated<T>(type, date),
    dates: (type: string) => rc.store.dates(type),
    notice: (message) => notices.push(message),
  };
  const facts = { type: feed.type, now: rc.now, provenance: rc.provenance, slaSeconds: feed.slaSeconds, cadence: feed.cadence };
  const elapsed = () => Math.round(performance.now() - started);
  let sources: SourceHealth[] | undefined;

  try {
    const output = await withTimeout(feed.run(ctx), rc.timeoutMs, () => new FeedTimeoutError(feed.type, rc.timeoutMs));
    sources = output.sources;
    const data = validate(feed, output);
    if (rc.dryRun) {
      const changed = await rc.store.wouldChange(feed.type, data);
      return { feed: feed.type, status: changed ? "changed" : "unchanged", rows: output.rows, durationMs: elapsed(), notices, ...(sources ? { sources } : {}) };
    }
    if (output.warehouse && output.warehouse.length > 0) {
      await writeWarehouse(rc.store.dir, utcDate(rc.now), output.warehouse, rc.warehouseTables ? { tables: rc.warehouseTables } : {});
    }
    const { changed } = await rc.store.recordSuccess({ ...facts, data, rows: output.rows, ...(sources ? { sources } : {}) });
    return { feed: feed.type, status: changed ? "changed" : "unchanged", rows: output.rows, durationMs: elapsed(), notices, ...(sources ? { sources } : {}) };
  } catch (error) {
    const message = describeError(error);
    sources ??= sourceHealthOf(error);
    if (!rc.dryRun) {
      try {
        await rc.store.recordFailure({ ...facts, error: publishedError(message), ...(sources ? { sources } : {}) });
      } catch (recordError) {
        notices.push(`could not record the failure in the manifest: ${describeError(recordError)}`);
      }
    }
    return { feed: feed.type, status: "failed", rows: 0, durationMs: elapsed(), notices, error: message, ...(sources ? { sources } : {}) };
  }
}

/** Parse the output's data with the feed's strict schema; the parsed value is what gets stored. */
function validate(feed: Feed, output: FeedOutput<unknown>): unknown {
  if (!output || typeof output !== "object" || !("data" in output)) {
    throw new FeedSchemaError(feed.type, "run() returned no { data } object");
  }
  const parsed = feed.schema.safeParse(output.data);
  if (!parsed.success) throw new FeedSchemaError(feed.type, z.prettifyError(parsed.error), { cause: parsed.error });
  if (!Number.isInteger(output.rows) || output.rows < 0) {
    throw new FeedSchemaError(feed.type, `rows must be a non-negative integer, got ${String(output.rows)}`);
  }
  return parsed.data;
}

function withTimeout<T>(promise: Promise<T>, ms: number, makeError: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(makeError()), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
