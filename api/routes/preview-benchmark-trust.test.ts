import { describe, expect, it } from "vitest";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { useModelWarehouse } from "../testing/model-warehouse.ts";
import { renderBenchmarkTrust } from "./premium-benchmark-trust.ts";
import { previewBenchmarkTrustRoutes, renderPreviewBenchmarkTrust } from "./preview-benchmark-trust.ts";

const { ctx } = useBundledSnapshots(new Date("2026-11-21T12:00:00Z"));
const reader = useModelWarehouse(writeWarehouse);

describe("GET /api/preview/benchmark-trust-verdict", () => {
  it("is a preview route of the benchmark trust verdict", () => {
    expect(previewBenchmarkTrustRoutes[0]).toMatchObject({ path: "/api/preview/benchmark-trust-verdict", tier: "preview", preview: "/api/preview/benchmark-trust-verdict" });
  });

  it("shows band and score only, the same as the premium verdict's", async () => {
    const c = { ...ctx(), warehouse: reader() };
    const preview = await renderPreviewBenchmarkTrust(c, { category: "coding" });
    const full = await renderBenchmarkTrust(c, { category: "coding" });
    expect(preview).toEqual({ verdicts: full.verdicts.map((v) => ({ id: v.id, trust_band: v.trust_band, trust_score: v.trust_score })) });
    for (const v of preview.verdicts) expect(Object.keys(v).sort()).toEqual(["id", "trust_band", "trust_score"]);
  });
});
