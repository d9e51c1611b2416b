import { describe, expect, it } from "vitest";
import { benchmarks } from "../catalog/benchmarks.ts";
import { models } from "../catalog/models.ts";
import type { HttpClient } from "../lib/types.ts";
import { benchmarksFeed, buildBenchmarksSnapshot } from "./benchmarks.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";

const noHttp: HttpClient = {
  getText: async (url) => {
    throw new Error(`benchmarks feed must not fetch, asked for ${url}`);
  },
  getJson: async (url) => {
    throw new Error(`benchmarks feed must not fetch, asked for ${url}`);
  },
};

function context(now = new Date("2025-06-15T05:23:00Z")) {
  const ctx = testFeedContext({ http: noHttp, now });
  return { ctx, notices: ctx.notices };
}

describe("buildBenchmarksSnapshot()", () => {
  it("buildBenchmarksSnapshot() takes lastUpdated from the newest score date", () => {
    const snap = buildBenchmarksSnapshot(benchmarks);
    const newest = benchmarks.flatMap((b) => b.scores.map((s) => s.date)).sort().at(-1);
    expect(snap.lastUpdated).toBe(newest);
  });

  it("buildBenchmarksSnapshot() sorts scores best first", () => {
    const snap = buildBenchmarksSnapshot(benchmarks);
    for (const b of snap.benchmarks) {
      const scores = b.scores.map((s) => s.score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    }
  });

  it("buildBenchmarksSnapshot() throws on a catalog without scores", () => {
    expect(() => buildBenchmarksSnapshot([{ ...benchmarks[0]!, scores: [] }])).toThrow(/no scores/);
  });
});

describe("benchmarksFeed.run()", () => {
  it("benchmarksFeed.run() writes a schema-valid snapshot whose models all exist in the catalog", async () => {
    const { ctx } = context();
    const out = await benchmarksFeed.run(ctx);
    const data = benchmarksFeed.schema.parse(out.data);
    const known = new Set(models.map((m) => m.id));
    for (const b of data.benchmarks) for (const s of b.scores) expect(known.has(s.model), s.model).toBe(true);
    expect(out.rows).toBe(benchmarks.reduce((n, b) => n + b.scores.length, 0));
  });

  it("benchmarksFeed.run() emits benchmark_scores rows keyed by date, benchmark and model", async () => {
    const { ctx } = context();
    const out = await benchmarksFeed.run(ctx);
    const [batch] = out.warehouse!;
    expect(batch!.table).toBe("benchmark_scores");
    expect(batch!.key).toEqual(["date", "benchmark", "model_id"]);
    expect(batch!.rows).toHaveLength(out.rows);
    const o3 = batch!.rows.find((r) => r.benchmark === "swe-bench-verified" && r.model_id === "o3");
    expect(o3).toEqual({
      date: "2025-06-15",
      benchmark: "swe-bench-verified",
      model_id: "o3",
      score: 69.1,
      source: "https://openai.com/index/introducing-o3-and-o4-mini/",
      reported_date: "2025-04-16",
    });
    const keys = batch!.rows.map((r) => `${r.date}|${r.benchmark}|${r.model_id}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("benchmarksFeed.run() body does not depend on the clock", async () => {
    const a = await benchmarksFeed.run(context().ctx);
    const b = await benchmarksFeed.run(context(new Date("2031-01-01T00:00:00Z")).ctx);
    expect(b.data).toEqual(a.data);
  });

  it("benchmarksFeed declares a daily schedule with a two-day SLA", () => {
    expect(benchmarksFeed.type).toBe("benchmarks");
    expect(benchmarksFeed.slaSeconds).toBe(172_800);
    expect(benchmarksFeed.urls()).toEqual([]);
  });
});
