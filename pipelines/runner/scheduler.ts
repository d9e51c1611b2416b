/**
 * The in-process scheduler behind `npm start`: each feed runs on its own cron (UTC) through runFeeds, sharing
 * one snapshot store and one HTTP client. A feed never overlaps itself: a tick that arrives while the
 * previous run of that feed is still going is skipped.
 */
import { Cron } from "croner";
import { createHttpClient } from "../lib/http/client.ts";
import { createSnapshotStore, type SnapshotStore } from "../lib/store/snapshot-store.ts";
import type { Feed, HttpClient } from "../lib/types.ts";
import { describeError } from "./describe-error.ts";
import { runFeeds, type FeedResult } from "./run-feeds.ts";

export interface ScheduleOptions {
  /** Feeds to schedule (keys are snapshot types). */
  feeds: Record<string, Feed>;
  store?: SnapshotStore;
  snapshotsDir?: string;
  /** A read-only snapshots folder for a type's previous data before this store has any (see RunFeedsOptions.baseStore). */
  baseSnapshotsDir?: string;
  /** Shared client (default: a new one, closed by stop()). */
  http?: HttpClient;
  replayDir?: string;
  /** Called after each feed run (watches evaluate here). */
  onResult?: (result: FeedResult) => void | Promise<void>;
  /** Called when a run breaks outside a feed (or onResult throws). */
  onError?: (feed: string, error: unknown) => void;
  /** Called when a tick is skipped because the feed's previous run is still going. */
  onSkip?: (feed: string) => void;
  /** Feed run timeout, see runFeeds (default 300000). */
  feedTimeoutMs?: number;
}

/** Stops every cron, then waits for runs in flight (and closes the client it created). */
export type StopSchedule = () => Promise<void>;

/** Start one cron job per feed; returns the function that stops them all. */
export function startSchedule(options: ScheduleOptions): StopSchedule {
  const store = options.store ?? createSnapshotStore(options.snapshotsDir === undefined ? {} : { dir: options.snapshotsDir });
  const baseStore = options.baseSnapshotsDir === undefined ? undefined : createSnapshotStore({ dir: options.baseSnapshotsDir });
  const ownHttp = options.http ? undefined : createHttpClient(options.replayDir ? { replayDir: options.replayDir } : {});
  const http = options.http ?? ownHttp!;
  const running = new Map<string, Promise<void>>();
  const jobs: Cron[] = [];

  for (const [name, feed] of Object.entries(options.feeds)) {
    const tick = (): void => {
      if (running.has(name)) {
        options.onSkip?.(name);
        return;
      }
      const run = (async () => {
        try {
          const [result] = await runFeeds({
            feeds: { [name]: feed },
            store,
            http,
            now: new Date(),
            ...(options.replayDir ? { replayDir: options.replayDir } : {}),
            ...(options.feedTimeoutMs !== undefined ? { feedTimeoutMs: options.feedTimeoutMs } : {}),
            ...(baseStore ? { baseStore } : {}),
          });
          if (result) await options.onResult?.(result);
        } catch (error) {
          options.onError?.(name, error);
        }
      })().finally(() => running.delete(name));
      running.set(name, run);
    };
    jobs.push(new Cron(feed.cron, { timezone: "UTC", unref: true, catch: (e) => options.onError?.(name, e) }, tick));
  }

  return async () => {
    for (const job of jobs) job.stop();
    await Promise.allSettled([...running.values()]);
    try {
      await (ownHttp as { close?: () => Promise<void> } | undefined)?.close?.();
    } catch (error) {
      options.onError?.("*", new Error(`scheduler: closing the HTTP client failed: ${describeError(error)}`, { cause: error }));
    }
  };
}
