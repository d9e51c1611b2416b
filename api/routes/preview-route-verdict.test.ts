import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewBody } from "../previews/response.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import type { PreviewAllowance } from "../previews/quota.ts";
import type { RenderContext } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { renderRouteVerdict } from "./premium-route-verdict.ts";
import { PreviewRouteVerdictQuery, previewRouteVerdictRoutes, renderPreviewRouteVerdict } from "./preview-route-verdict.ts";

const { ctx: bundled } = useBundledSnapshots(new Date("2026-11-22T02:30:00Z"));
let reader: OpenWarehouseReader;
beforeAll(async () => {
  reader = await openWarehouseReader({ dirs: ["snapshots"] });
});
afterAll(() => reader?.close());
const ALLOWANCE: PreviewAllowance = { route: "x", limit: 10, used: 1, remaining: 9, day: "2026-11-22", resetsAt: new Date("2026-11-23T00:00:00.000Z"), resetSeconds: 77_400 };
const ctx = (): RenderContext => ({ ...bundled(), warehouse: reader });

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

/** Fields of the premium answer the preview must not show. */
const RESERVED = ["runners_up", "trust", "ranked", "receipt", "billing", "benchmark_contamination", "operational_layer", "latency_layer"];

describe("GET /api/preview/route-verdict", () => {
  it("is the route-verdict preview, 10 calls a day", () => {
    const [r] = previewRouteVerdictRoutes;
    expect([r!.path, r!.tier, r!.preview, PREVIEWS[r!.preview!].limit]).toEqual(["/api/preview/route-verdict", "preview", "/api/preview/route-verdict", 10]);
  });

  it("shows the premium endpoint's top verdict, whole, for the task", async () => {
    const fields = await renderPreviewRouteVerdict(ctx(), PreviewRouteVerdictQuery.parse({ task: "code" }));
    const premium = await renderRouteVerdict(ctx(), { task: "code" });
    expect(fields).toEqual({ task: "code", capturedAt: premium.capturedAt, verdict: premium.verdict });
    expect(fields.verdict!.rank).toBe(1);
  });

  it("never shows a field its premium endpoint reserves", async () => {
    const fields = await renderPreviewRouteVerdict(ctx(), PreviewRouteVerdictQuery.parse({}));
    const body = previewBody(fields, PREVIEWS["/api/preview/route-verdict"], ALLOWANCE);
    const [r] = previewRouteVerdictRoutes;
    r!.response.parse(body);
    const shown = keysOf(body);
    expect(RESERVED.filter((k) => shown.has(k))).toEqual([]);
    expect(Object.keys(body).sort()).toEqual(["capturedAt", "ok", "preview", "rate_limit", "task", "upgrade", "verdict"]);
  });
});
