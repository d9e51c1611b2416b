import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { AnyRoute, RenderContext } from "../registry/types.ts";
import { exampleInput, startWarmer, warmableRoutes, warmOnce } from "./warm.ts";

const seen: string[] = [];
const premium = defineRoute({
  method: "GET",
  path: "/api/premium/things/:name",
  tier: "premium",
  summary: "a thing",
  tags: ["t"],
  params: z.object({ name: z.string().min(2) }),
  query: z.object({ days: z.coerce.number().int().min(1).max(30).default(7) }),
  response: z.unknown(),
  example: "/api/premium/things/alpha?days=3",
  render: (ctx, { params, query }) => {
    seen.push(`${ctx.dataVersion} ${params.name} ${query.days}`);
    return { ok: true };
  },
});
const failing = defineRoute({
  method: "GET",
  path: "/api/premium/broken",
  tier: "premium",
  summary: "fails",
  tags: ["t"],
  response: z.unknown(),
  example: "/api/premium/broken",
  render: () => {
    throw new Error("no data yet");
  },
});
const free = defineRoute({ method: "GET", path: "/api/free", tier: "free", summary: "free", tags: ["t"], response: z.unknown(), example: "/api/free", render: () => ({ ok: true }) });
const routes = [premium, failing, free] as AnyRoute[];
const context = (version: () => string) => () => ({ dataVersion: version() }) as unknown as RenderContext;

describe("warming after a data change", () => {
  it("picks premium and preview GET routes with an example, and parses the example's params and query with the route's schemas", () => {
    expect(warmableRoutes(routes).map((r) => r.path)).toEqual(["/api/premium/things/:name", "/api/premium/broken"]);
    expect(exampleInput(premium as AnyRoute, "/api/premium/things/alpha?days=3")).toEqual({ params: { name: "alpha" }, query: { days: 3 } });
    expect(exampleInput(premium as AnyRoute, "/api/premium/things/a")).toBeNull();
    expect(exampleInput(premium as AnyRoute, "/api/premium/other/alpha")).toBeNull();
  });

  it("renders each example once per pass and counts the failures without throwing", async () => {
    seen.length = 0;
    expect(await warmOnce(routes, context(() => "v1"))).toEqual({ rendered: 1, failed: 1 });
    expect(seen).toEqual(["v1 alpha 3"]);
  });

  it("warms once per data version, never twice at a time, and stops", async () => {
    seen.length = 0;
    let version = "v1";
    const passes: string[] = [];
    const warmer = startWarmer({ routes, context: context(() => version), intervalMs: 10, onPass: (p) => passes.push(p.version) });
    await expect.poll(() => passes, { timeout: 10_000 }).toEqual(["v1"]);
    version = "v2";
    await expect.poll(() => passes, { timeout: 10_000 }).toEqual(["v1", "v2"]);
    await warmer.idle();
    warmer.stop();
    version = "v3";
    // Four intervals after the stop: a warmer still ticking would have warmed v3 by now.
    await new Promise((r) => setTimeout(r, 40));
    expect(passes).toEqual(["v1", "v2"]);
    expect(seen).toEqual(["v1 alpha 3", "v2 alpha 3"]);
  });
});
