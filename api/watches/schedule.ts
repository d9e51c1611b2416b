/**
 * When the runner runs: after every snapshot reload (the in-process scheduler's writes and a separate
 * pipelines run's both reach the server as a reload), once the warehouse reader has re-listed its day files,
 * and every WATCH_TICK_MS for the digest cadences. Runs never overlap: a trigger during a run queues one more.
 */
import { PricingSnapshotStoredSchema } from "../../pipelines/contract/snapshots/pricing.ts";
import type { SnapshotReader } from "../registry/types.ts";
import type { Database } from "../state/types.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { lastClosedPeriod, pricingSummary } from "./evaluate-digest.ts";
import { uptimeLeaderboard } from "./leaderboard.ts";
import { runWatches, type RunInputs, type RunResult } from "./runner.ts";
import { pricesOf, priceValues, statusValues, type ModelPrices } from "./values.ts";

/** How often digests are checked without a reload (10 minutes). */
export const WATCH_TICK_MS = 600_000;

/** Options of {@link startWatchEvaluation}. */
export interface WatchEvaluationOptions {
  db: Database;
  snapshots: SnapshotReader & { onReload?(listener: (generation: number) => void): () => void };
  /** The warehouse reader (its refresh is awaited before the leaderboard is read). */
  warehouse?: WarehouseReader & { refresh?(): Promise<boolean> };
  onWarn?: (message: string) => void;
  onRun?: (result: RunResult) => void;
  now?: () => Date;
  tickMs?: number;
}

/** The running evaluation: trigger a run by hand (tests), wait for quiet, stop. */
export interface WatchEvaluation {
  trigger(): Promise<void>;
  /** Stop listening and wait for a run under way to finish. */
  stop(): Promise<void>;
}

/**
 * How long a closed period waits for the pricing feed to succeed in a run started after its end, before it is
 * delivered with the files there are (the feed runs hourly; it may be failing).
 */
export const DIGEST_SETTLE_MS = 3 * 3_600_000;

/**
 * Whether a period ending at `periodTo` can be summed up: the pricing feed succeeded in a run started at or after
 * that end (its lastSuccess is the run's start), so the run that crossed the boundary, which names its dated file
 * after the day it started, has written it; or the period ended DIGEST_SETTLE_MS ago. Without this wait, a run
 * started at 23:50 that writes the day's file after the first evaluation past midnight left that day's changes
 * out of both periods.
 */
export function pricingSettled(snapshots: SnapshotReader, periodTo: string, now: Date): boolean {
  const lastSuccess = snapshots.get("pricing")?.meta.lastSuccess;
  const end = Date.parse(periodTo);
  if (lastSuccess && Date.parse(lastSuccess) >= end) return true;
  return now.getTime() - end >= DIGEST_SETTLE_MS;
}

/** The newest dated pricing body strictly before `day` (YYYY-MM-DD) as prices, or null. */
async function pricesBefore(snapshots: SnapshotReader, day: string): Promise<Map<string, ModelPrices> | null> {
  const date = snapshots.dates("pricing").filter((d) => d < day).at(-1);
  if (!date) return null;
  const parsed = PricingSnapshotStoredSchema.safeParse(await snapshots.dated("pricing", date));
  return parsed.success ? pricesOf(parsed.data) : null;
}

/** Everything one run compares against, from what is loaded now (a missing snapshot leaves its types out). */
export async function gatherInputs(snapshots: SnapshotReader, warehouse: WarehouseReader | undefined, now: Date): Promise<RunInputs> {
  const inputs: RunInputs = { digests: [] };
  try {
    inputs.prices = priceValues(snapshots);
  } catch {
    /* pricing not loaded: price watches wait */
  }
  try {
    inputs.statuses = statusValues(snapshots);
  } catch {
    /* status not loaded: status watches wait */
  }
  if (warehouse) inputs.leaderboard = await uptimeLeaderboard(warehouse);
  for (const cadence of ["daily", "weekly"] as const) {
    const period = lastClosedPeriod(cadence, now);
    if (!pricingSettled(snapshots, period.to, now)) continue; // delivered at a later run
    const [start, end] = await Promise.all([pricesBefore(snapshots, period.from.slice(0, 10)), pricesBefore(snapshots, period.to.slice(0, 10))]);
    inputs.digests!.push({ cadence, period, pricing: pricingSummary(start, end) });
  }
  return inputs;
}

/** Start evaluating on reloads and ticks. */
export function startWatchEvaluation(options: WatchEvaluationOptions): WatchEvaluation {
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const once = async () => {
    await options.warehouse?.refresh?.();
    const at = now();
    const result = await runWatches(options.db, await gatherInputs(options.snapshots, options.warehouse, at), at);
    options.onRun?.(result);
  };
  const trigger = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await once();
        } catch (err) {
          options.onWarn?.(`watch evaluation failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      } while (again && !stopped);
      running = null;
    })();
    return running;
  };
  const unsubscribe = options.snapshots.onReload?.(() => void trigger()) ?? (() => {});
  const timer = setInterval(() => void trigger(), options.tickMs ?? WATCH_TICK_MS);
  timer.unref();
  return {
    trigger,
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      await running;
    },
  };
}
