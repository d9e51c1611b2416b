import { describe, expect, it } from "vitest";
import { benchmarks } from "../../pipelines/catalog/benchmarks.ts";
import { buildBenchmarksSnapshot } from "../../pipelines/feeds/benchmarks.ts";
import { ApiError, type LoadedSnapshot, type RenderContext, type SnapshotMeta, type SnapshotReader } from "../registry/types.ts";
import { BenchmarksResponse, benchmarksRoutes, renderBenchmarks } from "./benchmarks.ts";
import type { BenchmarksSnapshot } from "../../pipelines/contract/snapshots/benchmarks.ts";

const meta: SnapshotMeta = {
  type: "benchmarks", date: "2026-11-22", lastSuccess: "2026-11-22T05:23:01.000Z", lastAttempt: "2026-11-22T05:23:01.000Z",
  lastChanged: "2026-11-01T05:23:01.000Z", lastError: null, rows: 70, provenance: "live", slaSeconds: 172_800, cadence: "daily", sources: [],
};

function ctx(snapshot: LoadedSnapshot<BenchmarksSnapshot> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "benchmarks" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (snapshot ? ["benchmarks"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T10:30:00Z") };
}

const data = buildBenchmarksSnapshot(benchmarks);

describe("GET /api/benchmarks", () => {
  it("renderBenchmarks() serves every benchmark with attributed scores", () => {
    const body = BenchmarksResponse.parse(renderBenchmarks(ctx({ type: "benchmarks", data, meta })));
    expect(body.ok).toBe(true);
    expect(body.lastUpdated).toBe(data.lastUpdated);
    expect(body.benchmarks.map((b) => b.id)).toEqual(["humaneval", "swe-bench-verified", "mmlu-pro", "gpqa-diamond", "math-500"]);
    const swe = body.benchmarks.find((b) => b.id === "swe-bench-verified")!;
    expect(swe.scores[0]).toMatchObject({ model: "claude-sonnet-4", score: 72.7, source: "https://www.anthropic.com/news/claude-4" });
  });

  it("renderBenchmarks() serves a small hand-made snapshot unchanged", () => {
    const small: BenchmarksSnapshot = {
      lastUpdated: "2025-01-22",
      benchmarks: [
        {
          id: "math-500", name: "MATH-500", category: "math", url: "https://huggingface.co/datasets/HuggingFaceH4/MATH-500",
          description: "d", higherIsBetter: true,
          scores: [{ model: "deepseek-r1", score: 97.3, source: "https://arxiv.org/abs/2501.12948", date: "2025-01-22" }],
        },
      ],
    };
    expect(renderBenchmarks(ctx({ type: "benchmarks", data: small, meta }))).toEqual({ ok: true, ...small });
  });

  it("renderBenchmarks() throws a 503 ApiError when the snapshot is absent", () => {
    expect(() => renderBenchmarks(ctx(undefined))).toThrow(ApiError);
    try {
      renderBenchmarks(ctx(undefined));
    } catch (err) {
      expect((err as ApiError).status).toBe(503);
    }
  });

  it("benchmarksRoutes declares GET /api/benchmarks as a free route over the benchmarks snapshot", async () => {
    const [route] = benchmarksRoutes;
    expect(route).toMatchObject({ method: "GET", path: "/api/benchmarks", tier: "free", snapshots: ["benchmarks"] });
    const body = await route!.render!(ctx({ type: "benchmarks", data, meta }), { query: {}, params: {} } as never);
    expect(() => route!.response.parse(body)).not.toThrow();
  });
});
