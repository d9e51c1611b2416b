import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type ClosableHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { HttpClient } from "../lib/types.ts";
import { MODELHUB_DATASETS_URL, MODELHUB_MODELS_URL, MODELHUB_SPACES_URL } from "../sources/modelhub.ts";
import { modelhubTrendingFeed, modelhubTrendingSnapshotSchema } from "./modelhub-trending.ts";

const NOW = new Date("2026-11-20T12:00:00Z");
const ctxFor = (http: HttpClient) => ({ ...testFeedContext({ http, now: NOW }), provenance: "replay" as const });
const failing = (http: HttpClient, urls: string[]): HttpClient => ({
  getText: async (url, o) => {
    if (urls.includes(url)) throw new Error(`GET ${url} failed: 503 Service Unavailable`);
    return http.getText(url, o);
  },
  getJson: (url, o) => http.getJson(url, o),
});
const desc = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);

describe("modelhubTrendingFeed with the replay client", () => {
  let http: ClosableHttpClient;
  let out: Awaited<ReturnType<typeof modelhubTrendingFeed.run>>;
  beforeAll(async () => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    out = await modelhubTrendingFeed.run(ctxFor(http));
  });
  afterAll(() => http.close());

  it("run() builds top-30 models, datasets and Spaces that pass the strict schema", () => {
    modelhubTrendingSnapshotSchema.parse(out.data);
    expect([out.data.models.length, out.data.datasets.length, out.data.spaces.length]).toEqual([30, 30, 30]);
    expect(out.rows).toBe(90);
    expect(out.sources!.every((s) => s.ok)).toBe(true);
  });

  it("run() sorts models and datasets by downloads and Spaces by likes", () => {
    expect(desc(out.data.models.map((m) => m.downloads))).toBe(true);
    expect(desc(out.data.datasets.map((d) => d.downloads))).toBe(true);
    expect(desc(out.data.spaces.map((s) => s.likes))).toBe(true);
    expect(out.data.models[0]!.id).toBe("sentence-transformers/all-MiniLM-L6-v2");
    expect(out.data.spaces[0]!.id).toBe("HuggingFaceH4/open_llm_leaderboard");
  });

  it("schema rejects a list that is out of order", () => {
    const swapped = { ...out.data, spaces: [out.data.spaces[1]!, out.data.spaces[0]!, ...out.data.spaces.slice(2)] };
    expect(modelhubTrendingSnapshotSchema.safeParse(swapped).success).toBe(false);
  });

  it("run() leaves a failed listing empty and reports it", async () => {
    const ctx = ctxFor(failing(http, [MODELHUB_DATASETS_URL]));
    const partial = await modelhubTrendingFeed.run(ctx);
    expect(partial.data.datasets).toEqual([]);
    expect(partial.data.models).toEqual(out.data.models);
    expect(partial.sources!.find((s) => s.id === "modelhub-datasets")).toMatchObject({ ok: false, error: expect.stringContaining("503") });
    expect(ctx.notices).toEqual([expect.stringContaining("datasets listing failed")]);
  });

  it("run() fails when all three listings fail", async () => {
    await expect(modelhubTrendingFeed.run(ctxFor(failing(http, [MODELHUB_MODELS_URL, MODELHUB_DATASETS_URL, MODELHUB_SPACES_URL])))).rejects.toThrow(/every listing failed/);
  });

  it("urls() lists the three listings; the feed runs daily at 12:00 UTC", () => {
    expect(modelhubTrendingFeed.urls()).toEqual([MODELHUB_MODELS_URL, MODELHUB_DATASETS_URL, MODELHUB_SPACES_URL]);
    expect(modelhubTrendingFeed.cron).toBe("0 12 * * *");
  });
});
