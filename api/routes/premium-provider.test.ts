import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { providerWarehouseDays } from "../testing/provider-warehouse.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { ProviderParams, ProviderResponse, premiumProviderRoutes, renderProvider } from "./premium-provider.ts";

/** A temporary folder holding the fixture warehouse, written by the real writer, and its removal. */
async function tempProviderWarehouse(options: { probes?: boolean } = {}): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-providers-"));
  for (const day of providerWarehouseDays(options)) await writeWarehouse(dir, day.date, day.batches);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

const bundled = useBundledSnapshots();
let fixture: Awaited<ReturnType<typeof tempProviderWarehouse>>;
let reader: OpenWarehouseReader;

beforeAll(async () => {
  fixture = await tempProviderWarehouse();
  reader = await openWarehouseReader({ dirs: [fixture.dir] });
});
afterAll(async () => {
  reader?.close();
  await fixture?.remove();
});

const ctx = (withWarehouse = true): RenderContext => ({ ...bundled.ctx(), ...(withWarehouse ? { warehouse: reader } : {}) });
const profile = async (name: string) => ProviderResponse.parse(await renderProvider(ctx(), ProviderParams.parse({ name })));

async function apiError(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("GET /api/premium/providers/{name}", () => {
  it("profiles a catalog provider: status with components, models with the newest warehouse scores, news, traffic", async () => {
    const body = await profile("anthropic");
    expect(body.provider).toEqual({ id: "anthropic", name: "Anthropic", url: "https://www.anthropic.com" });
    expect(body.status).toMatchObject({ state: "degraded", status_page_url: "https://status.claude.com", last_checked: "2026-11-22T02:20:29.499Z" });
    expect(body.status.components.length).toBeGreaterThan(0);
    expect(body.models.length).toBe(7);
    expect(body.models.find((m) => m.id === "claude-3.5-sonnet")!.benchmark_scores).toEqual({ gpqa: 61.5 });
    expect(body.recent_news.length).toBeLessThanOrEqual(10);
    expect(body.recent_news_count).toBeGreaterThanOrEqual(body.recent_news.length);
    expect(body.agent_traffic_24h.operator_bots).toContain("ClaudeBot");
    expect(body.agent_traffic_24h.day).toBe("2026-11-22");
  });

  it("resolves an alias and a provider known only from its status page", async () => {
    expect((await profile("Claude")).provider.id).toBe("anthropic");
    const replicate = await profile("replicate");
    expect(replicate).toMatchObject({ provider: { id: "replicate", url: null }, models: [] });
  });

  it("404 unknown_provider for a name nothing tracks", async () => {
    const err = await apiError(() => renderProvider(ctx(), ProviderParams.parse({ name: "nobody-ai" })));
    expect([err.status, err.code]).toEqual([404, "unknown_provider"]);
  });

  it("503 without the warehouse; bad names fail validation", async () => {
    const err = await apiError(() => renderProvider(ctx(false), ProviderParams.parse({ name: "openai" })));
    expect([err.status, err.code]).toEqual([503, "warehouse_unavailable"]);
    expect(ProviderParams.safeParse({ name: "a/b" }).success).toBe(false);
    expect(ProviderParams.safeParse({ name: "x".repeat(61) }).success).toBe(false);
  });

  it("declares a 1-credit premium route with a working example", () => {
    const r = premiumProviderRoutes[0]!;
    expect([r.tier, r.cost, r.example]).toEqual(["premium", 1, "/api/premium/providers/anthropic"]);
  });
});
