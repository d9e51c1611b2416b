import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type ClosableHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { HttpClient } from "../lib/types.ts";
import { arxivCategoryUrl, type Preprint } from "../sources/arxiv.ts";
import {
  PREPRINT_CATEGORIES,
  createPapersPreprintRecentFeed,
  mergePreprints,
  papersPreprintRecentFeed,
  papersPreprintRecentSnapshotSchema,
} from "./papers-preprint-recent.ts";

const NOW = new Date("2026-11-20T11:30:00Z");
const replayCtx = (http: HttpClient) => ({ ...testFeedContext({ http, now: NOW }), provenance: "replay" as const });
const recorded = (url: string) => readFileSync(`pipelines/fixtures/${replayPathFor(url)}`, "utf8");
const ERROR_BODY = recorded("https://export.arxiv.org/api/query?id_list=2611.1337x&max_results=50");
const EMPTY_BODY = recorded("https://export.arxiv.org/api/query?search_query=cat:cs.AI+AND+ti:zzqxvw&sortBy=submittedDate&sortOrder=descending&max_results=50");
const TRUNCATED_BODY = recorded("https://export.arxiv.org/api/query?search_query=cat:cs.CV&sortBy=submittedDate&sortOrder=descending&start=50&max_results=50");

/** The replay client, with some category listings answered by other recorded bodies. */
function substituting(http: HttpClient, bodies: Partial<Record<string, string>>): HttpClient {
  return {
    getText: async (url, o) => {
      const category = PREPRINT_CATEGORIES.find((c) => url === arxivCategoryUrl(c));
      const body = category ? bodies[category] : undefined;
      return body === undefined ? http.getText(url, o) : { url, status: 200, headers: new Headers(), body, fromCache: false };
    },
    getJson: (url, o) => http.getJson(url, o),
  };
}

describe("papersPreprintRecentFeed with the replay client", () => {
  let http: ClosableHttpClient;
  let out: Awaited<ReturnType<typeof papersPreprintRecentFeed.run>>;
  beforeAll(async () => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    out = await papersPreprintRecentFeed.run(replayCtx(http));
  });
  afterAll(() => http.close());

  it("run() reads the four listings and passes the strict schema", () => {
    expect(out.sources).toEqual(PREPRINT_CATEGORIES.map((c) => expect.objectContaining({ id: `arxiv:${c}`, ok: true })));
    papersPreprintRecentSnapshotSchema.parse(out.data);
    expect(out.data.categories).toEqual(["cs.AI", "cs.LG", "cs.CL", "cs.CV"]);
  });

  it("run() keeps one entry per arXiv id across categories, the highest version, listed in both", () => {
    const revised = out.data.preprints.filter((p) => p.id === "2611.13377");
    expect(revised).toHaveLength(1);
    expect(revised[0]).toMatchObject({ version: 2, listedIn: ["cs.AI", "cs.LG"], url: "https://arxiv.org/abs/2611.13377v2" });
    expect(revised[0]!.summary).toContain("In v2 we add results");
    const cross = out.data.preprints.filter((p) => p.id === "2611.13012");
    expect(cross).toHaveLength(1);
    expect(cross[0]!.listedIn).toEqual(["cs.CL", "cs.LG"]);
  });

  it("run() cuts the 51 distinct preprints to the 50 most recent, newest first", () => {
    expect(out.rows).toBe(50);
    const dates = out.data.preprints.map((p) => p.publishedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(new Set(out.data.preprints.map((p) => p.id)).size).toBe(50);
    expect(out.data.preprints.some((p) => p.title === "Game-Theoretic Models of AI Oversight")).toBe(false);
    expect(out.data.preprints.at(-1)!.title).toBe("Human Pose Estimation from Sparse Sensors");
  });

  it("run() counts arXiv's error feed as a failed listing and keeps the others", async () => {
    const ctx = replayCtx(substituting(http, { "cs.CL": ERROR_BODY }));
    const partial = await papersPreprintRecentFeed.run(ctx);
    expect(partial.sources!.find((s) => s.id === "arxiv:cs.CL")).toMatchObject({ ok: false, error: expect.stringContaining("incorrect id format") });
    expect(partial.data.preprints.some((p) => p.listedIn.includes("cs.CL"))).toBe(false);
    expect(partial.data.preprints.find((p) => p.id === "2611.13012")!.listedIn).toEqual(["cs.LG"]);
    expect(ctx.notices).toEqual([expect.stringMatching(/cs\.CL failed: arxiv: the API answered with an error feed/)]);
  });

  it("run() counts an empty listing as healthy with no rows", async () => {
    const ctx = replayCtx(substituting(http, { "cs.CV": EMPTY_BODY }));
    const partial = await papersPreprintRecentFeed.run(ctx);
    expect(partial.sources!.find((s) => s.id === "arxiv:cs.CV")).toEqual({ id: "arxiv:cs.CV", ok: true, rows: 0 });
    expect(partial.rows).toBe(39);
    expect(ctx.notices).toEqual(["papers-preprint-recent: cs.CV listing is empty"]);
  });

  it("run() counts a truncated body as a failed listing", async () => {
    const partial = await papersPreprintRecentFeed.run(replayCtx(substituting(http, { "cs.CV": TRUNCATED_BODY })));
    expect(partial.sources!.find((s) => s.id === "arxiv:cs.CV")).toMatchObject({ ok: false, error: expect.stringContaining("not well-formed XML") });
    expect(partial.sources!.filter((s) => s.ok)).toHaveLength(3);
    expect(partial.data.preprints.some((p) => p.listedIn.includes("cs.CV"))).toBe(false);
  });

  it("run() fails only when every listing fails", async () => {
    const bad = { "cs.AI": ERROR_BODY, "cs.LG": TRUNCATED_BODY, "cs.CL": "<html>503</html>", "cs.CV": ERROR_BODY };
    await expect(papersPreprintRecentFeed.run(replayCtx(substituting(http, bad)))).rejects.toThrow(/every listing failed/);
  });

  it("run() waits 3 s between live requests and not at all in replay", async () => {
    const slept: number[] = [];
    const feed = createPapersPreprintRecentFeed({ sleep: async (ms) => { slept.push(ms); } });
    await feed.run(testFeedContext({ http, now: NOW }));
    expect(slept).toEqual([3000, 3000, 3000]);
    slept.length = 0;
    await feed.run(replayCtx(http));
    expect(slept).toEqual([]);
  });
});

describe("mergePreprints()", () => {
  const p = (over: Partial<Preprint>): Preprint => ({
    id: "2611.00001", version: 1, title: "T", summary: "", authors: [], authorCount: 0, affiliations: [], primaryCategory: "cs.AI", categories: ["cs.AI"],
    publishedAt: "2026-11-19T00:00:00.000Z", updatedAt: "2026-11-19T00:00:00.000Z", url: "https://arxiv.org/abs/2611.00001v1",
    pdfUrl: "https://arxiv.org/pdf/2611.00001v1", doi: null, listedIn: ["cs.AI"], ...over,
  });

  it("mergePreprints() keeps the higher version whichever listing comes first, and orders ties by id", () => {
    const merged = mergePreprints([
      [p({ version: 3, title: "v3" }), p({ id: "2611.00002" })],
      [p({ version: 2, title: "v2", listedIn: ["cs.LG"] })],
    ]);
    expect(merged.map((x) => [x.id, x.title, x.listedIn])).toEqual([
      ["2611.00002", "T", ["cs.AI"]],
      ["2611.00001", "v3", ["cs.AI", "cs.LG"]],
    ]);
  });

  it("urls() lists the four categories; the feed runs daily at 11:30 UTC", () => {
    expect(papersPreprintRecentFeed.urls()).toEqual(PREPRINT_CATEGORIES.map(arxivCategoryUrl));
    expect(papersPreprintRecentFeed.cron).toBe("30 11 * * *");
  });
});
