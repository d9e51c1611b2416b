import { describe, expect, it } from "vitest";
import { useBundledServer } from "../testing/bundled-server.ts";
import { ActivityResponse, CompactNewsResponse, CompactPricingResponse, COMPACT_NEWS_COUNT } from "./agents-compact.ts";
import { blended } from "../verdicts/price.ts";

const server = useBundledServer();

describe("compact agent views", () => {
  it("GET /api/agents/news gives the newest headlines of the news snapshot in order", async () => {
    const compact = CompactNewsResponse.parse(await (await fetch(`${server().url}/api/agents/news`)).json());
    const full = (await (await fetch(`${server().url}/api/news?limit=${COMPACT_NEWS_COUNT}`)).json()) as { articles: { url: string }[] };
    expect(compact.items.map((i) => i.url)).toEqual(full.articles.map((a) => a.url));
    expect(compact.count).toBe(Math.min(COMPACT_NEWS_COUNT, full.articles.length));
  });

  it("GET /api/agents/pricing lists every catalog model once, cheapest blended first", async () => {
    const compact = CompactPricingResponse.parse(await (await fetch(`${server().url}/api/agents/pricing`)).json());
    type Model = { id: string; inputCostPer1M: number; outputCostPer1M: number; priceServed: string; priceObservedAt: string };
    const full = (await (await fetch(`${server().url}/api/models`)).json()) as { providers: { models: Model[] }[] };
    const models = full.providers.flatMap((p) => p.models);
    expect(compact.count).toBe(models.length);
    for (let i = 1; i < compact.models.length; i++) expect(compact.models[i]!.blended).toBeGreaterThanOrEqual(compact.models[i - 1]!.blended);
    const gpt = models[0]!;
    expect(compact.models.find((m) => m.id === gpt.id)?.blended).toBe(blended(gpt.inputCostPer1M, gpt.outputCostPer1M));
    // Each price names its source and when it was stated; lastUpdated is the day of the newest, not an older catalog date.
    for (const m of models) expect(compact.models.find((c) => c.id === m.id)).toMatchObject({ source: m.priceServed, observed_at: m.priceObservedAt });
    expect(compact.lastUpdated).toBe(models.map((m) => m.priceObservedAt).sort().at(-1)!.slice(0, 10));
  });

  it("blended() weighs input three to one and rounds to 4 decimals", () => {
    expect(blended(2.5, 10)).toBe(4.375);
    expect(blended(0.15, 0.6)).toBe(0.2625);
    expect(blended(1 / 3, 0)).toBe(0.25);
  });

  it("GET /api/agents/activity counts a request whose User-Agent names a known AI agent", async () => {
    const before = ActivityResponse.parse(await (await fetch(`${server().url}/api/agents/activity`)).json());
    await fetch(`${server().url}/api/status?x=1`, { headers: { "user-agent": "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)" } });
    await fetch(`${server().url}/api/status`, { headers: { "user-agent": "curl/8.5.0" } });
    const after = ActivityResponse.parse(await (await fetch(`${server().url}/api/agents/activity`)).json());
    expect(after.today_count).toBe(before.today_count + 1);
    expect(after.recent[0]).toMatchObject({ bot: "ClaudeBot", endpoint: "/api/status" });
  });
});
