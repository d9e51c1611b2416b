import { describe, expect, it } from "vitest";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { FIXTURE_DAY, useModelWarehouse } from "../testing/model-warehouse.ts";
import { openWarehouseReader } from "../warehouse/reader.ts";
import { BenchmarkTrustQuery, BenchmarkTrustResponse, benchmarkTrustNoCharge, premiumBenchmarkTrustRoutes, renderBenchmarkTrust } from "./premium-benchmark-trust.ts";

const { ctx } = useBundledSnapshots(new Date("2026-11-21T12:00:00Z"));
const reader = useModelWarehouse(writeWarehouse);
const render = async (query: Record<string, string>) =>
  BenchmarkTrustResponse.parse(await renderBenchmarkTrust({ ...ctx(), warehouse: reader() }, BenchmarkTrustQuery.parse(query)));

async function apiError(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("GET /api/premium/benchmark-trust-verdict", () => {
  it("declares a 1-credit premium route with its no-charge outcomes", () => {
    const [r] = premiumBenchmarkTrustRoutes;
    expect(r).toMatchObject({ path: "/api/premium/benchmark-trust-verdict", tier: "premium", cost: 1 });
    expect(Object.keys(r!.noCharge!.outcomes)).toEqual(["no_benchmark_matched", "no_scores"]);
  });

  it("judges every catalog benchmark from the newest warehouse day, in catalog order", async () => {
    const body = await render({});
    expect(body.capturedAt).toBe(FIXTURE_DAY);
    expect(body.filter).toEqual({ benchmark: null, category: null });
    expect(body.verdicts.map((v) => v.id)).toEqual(["humaneval", "swe-bench-verified", "mmlu-pro", "gpqa-diamond", "math-500"]);
    const humaneval = body.verdicts[0]!;
    // The older day's 99 is not read: the newest day's best is 90.
    expect(humaneval).toMatchObject({ name: "HumanEval", category: "coding", frontier_score: 90, score_range: { min: 85, max: 90 }, leaderboard_url: "https://github.com/openai/human-eval" });
    expect(humaneval.signals.models_scored).toBe(3);
    expect(body.verdicts.find((v) => v.id === "gpqa-diamond")).toMatchObject({ status: "unscored", trust_band: "insufficient_data", trust_score: null });
    expect(benchmarkTrustNoCharge(body)).toBeNull();
  });

  it("filters by benchmark and category case-insensitively; an unknown one is 404", async () => {
    expect((await render({ benchmark: "HUMANEVAL" })).verdicts.map((v) => v.id)).toEqual(["humaneval"]);
    expect((await render({ category: "Coding" })).verdicts.map((v) => v.id)).toEqual(["humaneval", "swe-bench-verified"]);
    expect((await apiError(() => render({ benchmark: "nope" }))).code).toBe("unknown_benchmark");
    expect((await apiError(() => render({ category: "poetry" }))).status).toBe(404);
  });

  it("no charge when the filters match nothing or nothing matched has a score", async () => {
    const none = await render({ benchmark: "humaneval", category: "math" });
    expect(none.count).toBe(0);
    expect(benchmarkTrustNoCharge(none)).toBe("no_benchmark_matched");
    expect(benchmarkTrustNoCharge(await render({ benchmark: "gpqa-diamond" }))).toBe("no_scores");
  });

  it("an empty warehouse: capturedAt null, every benchmark unscored; no reader is 503", async () => {
    const empty = await openWarehouseReader({ dirs: [] });
    try {
      const body = BenchmarkTrustResponse.parse(await renderBenchmarkTrust({ ...ctx(), warehouse: empty }, {}));
      expect(body.capturedAt).toBeNull();
      expect(benchmarkTrustNoCharge(body)).toBe("no_scores");
    } finally {
      empty.close();
    }
    expect((await apiError(() => renderBenchmarkTrust(ctx(), {}))).code).toBe("warehouse_unavailable");
  });

  it("refuses malformed filters", () => {
    for (const bad of [{ benchmark: "" }, { benchmark: "a b" }, { category: "x".repeat(101) }, { other: "1" }]) expect(BenchmarkTrustQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
