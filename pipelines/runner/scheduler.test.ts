import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSnapshotStore, type SnapshotStore } from "../lib/store/snapshot-store.ts";
import type { HttpClient } from "../lib/types.ts";
import type { FeedResult } from "./run-feeds.ts";
import { startSchedule } from "./scheduler.ts";
import { fnFeed } from "./test-feeds.ts";

const noHttp: HttpClient = {
  getText: async (url) => {
    throw new Error(`unexpected request ${url}`);
  },
  getJson: async (url) => {
    throw new Error(`unexpected request ${url}`);
  },
};

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe("startSchedule()", () => {
  let dir: string;
  let store: SnapshotStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-sched-"));
    store = createSnapshotStore({ dir });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("startSchedule() runs each feed on its cron, never overlapping itself, until stopped", async () => {
    let inFlight = 0;
    let peak = 0;
    let slowRuns = 0;
    let fastRuns = 0;
    const slow = fnFeed("slow", async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      slowRuns++;
      await sleep(1300);
      inFlight--;
      return { data: { items: [{ id: "s", value: slowRuns }] }, rows: 1 };
    }, { cron: "* * * * * *" });
    const fast = fnFeed("fast", () => {
      fastRuns++;
      return { data: { items: [] }, rows: 0 };
    }, { cron: "* * * * * *" });
    const results: FeedResult[] = [];
    const skipped: string[] = [];
    const stop = startSchedule({ feeds: { slow, fast }, store, http: noHttp, onResult: (r) => void results.push(r), onSkip: (f) => skipped.push(f) });
    await sleep(2600);
    await stop();
    const afterStop = { slowRuns, fastRuns };
    expect(peak).toBe(1);
    expect(slowRuns).toBeGreaterThanOrEqual(1);
    expect(slowRuns).toBeLessThanOrEqual(2);
    expect(fastRuns).toBeGreaterThanOrEqual(2);
    expect(skipped).toContain("slow");
    expect(skipped).not.toContain("fast");
    expect(results.filter((r) => r.feed === "slow").every((r) => r.status !== "failed")).toBe(true);
    expect((await store.manifest()).types.fast!.lastSuccess).not.toBeNull();
    await sleep(1100);
    expect({ slowRuns, fastRuns }).toEqual(afterStop);
  });
});
