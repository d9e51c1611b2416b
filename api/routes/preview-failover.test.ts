import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewBody } from "../previews/response.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import type { PreviewAllowance } from "../previews/quota.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { renderFailover } from "./premium-failover.ts";
import { PreviewFailoverQuery, previewFailoverRoutes, renderPreviewFailover } from "./preview-failover.ts";

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

/** Fields of the premium answer the preview must not show: the incident's analysis, the destination's scores, the rest. */
const RESERVED = [
  "incident", "impact_classification", "recommended_action", "triage_summary", "started_at", "in_incident",
  "failover_to", "alternatives", "excluded_providers", "trust", "receipt", "billing",
  "composite_score", "pricing", "quality", "latency", "operational", "deprecation", "why", "usage",
];

describe("GET /api/preview/failover-verdict", () => {
  it("is the failover preview, 10 calls a day", () => {
    const [r] = previewFailoverRoutes;
    expect([r!.path, r!.tier, r!.preview, PREVIEWS[r!.preview!].limit]).toEqual(["/api/preview/failover-verdict", "preview", "/api/preview/failover-verdict", 10]);
  });

  it("shows the premium destination and the incident's title as the reason", async () => {
    const fields = await renderPreviewFailover(ctx(), PreviewFailoverQuery.parse({ from: "groq", task: "code" }));
    const premium = await renderFailover(ctx(), { from: "groq", task: "code" });
    expect(fields.from).toBe("groq");
    expect(fields.destination).toEqual({ model: premium.failover_to!.model.id, provider: premium.failover_to!.model.provider });
    expect(fields.reason).toBe(`${premium.from.incident!.title}; ${premium.failover_to!.model.id} (${premium.failover_to!.model.provider}) ranks first among the other providers for code.`);
    const calm = await renderPreviewFailover(ctx(), PreviewFailoverQuery.parse({ from: "openai" }));
    expect(calm.reason).toMatch(/^openai shows no incident \(status operational\); standby: /);
  });

  it("never shows a field its premium endpoint reserves", async () => {
    const fields = await renderPreviewFailover(ctx(), PreviewFailoverQuery.parse({ from: "groq" }));
    const body = previewBody(fields, PREVIEWS["/api/preview/failover-verdict"], ALLOWANCE);
    const [r] = previewFailoverRoutes;
    r!.response.parse(body);
    const shown = keysOf(body);
    expect(RESERVED.filter((k) => shown.has(k))).toEqual([]);
    expect(Object.keys(body).sort()).toEqual(["destination", "from", "ok", "preview", "rate_limit", "reason", "upgrade"]);
  });

  it("refuses an unknown provider with a 404, and a query the premium endpoint would take beyond from and task", async () => {
    await expect(renderPreviewFailover(ctx(), PreviewFailoverQuery.parse({ from: "nobody" }))).rejects.toBeInstanceOf(ApiError);
    expect(PreviewFailoverQuery.safeParse({ from: "groq", model: "gpt-4o" }).success).toBe(false);
    expect(PreviewFailoverQuery.safeParse({}).success).toBe(false);
  });
});
