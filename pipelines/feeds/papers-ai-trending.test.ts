import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type ClosableHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { FeedContext, HttpClient, HttpRequestOptions } from "../lib/types.ts";
import type { ScholarPaper } from "../sources/semantic-scholar.ts";
import {
  AI_TRENDING_QUERIES,
  createPapersAiTrendingFeed,
  mergeScholarPapers,
  papersAiTrendingFeed,
  papersAiTrendingSnapshotSchema,
  sinceYearFor,
} from "./papers-ai-trending.ts";

const NOW = new Date("2026-11-20T11:00:00Z");
const replayCtx = (http: HttpClient) => ({ ...testFeedContext({ http, now: NOW }), provenance: "replay" as const });

function paper(over: Partial<ScholarPaper>): ScholarPaper {
  return {
    paperId: "0".repeat(40), title: "T", year: 2025, publicationDate: "2025-01-01", venue: null, citationCount: 1, authors: [], authorCount: 0,
    url: `https://www.semanticscholar.org/paper/${"0".repeat(40)}`, arxivId: null, doi: null, queries: ["llm"], ...over,
  };
}

describe("papersAiTrendingFeed with the replay client", () => {
  let http: ClosableHttpClient;
  let out: Awaited<ReturnType<typeof papersAiTrendingFeed.run>>;
  beforeAll(async () => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    out = await papersAiTrendingFeed.run(replayCtx(http));
  });
  afterAll(() => http.close());

  it("run() reads all five queries and passes the strict schema", () => {
    expect(out.sources!.map((s) => [s.id, s.ok])).toEqual(AI_TRENDING_QUERIES.map((q) => [`semantic-scholar:${q.id}`, true]));
    papersAiTrendingSnapshotSchema.parse(out.data);
    expect(out.data.sinceYear).toBe(2025);
    expect(out.rows).toBe(30);
  });

  it("run() keeps a paper found by two queries once, with both query ids", () => {
    const survey = out.data.papers.filter((p) => p.title === "Agentic Reasoning with Large Language Models: A Survey");
    expect(survey).toHaveLength(1);
    expect(survey[0]!.queries).toEqual(["agents", "llm"]);
    const rlhf = out.data.papers.filter((p) => p.title === "Aligning Multimodal Models with Human Preferences via Reward Modeling");
    expect(rlhf).toHaveLength(1);
    expect(rlhf[0]!.queries).toEqual(["multimodal", "rlhf"]);
  });

  it("run() cuts the 35 distinct papers to the 30 most cited", () => {
    const counts = out.data.papers.map((p) => p.citationCount);
    expect([...counts].sort((a, b) => (b ?? -1) - (a ?? -1))).toEqual(counts);
    expect(counts[0]).toBe(1543);
    expect(counts.at(-1)).toBe(71);
    for (const dropped of ["Tokenizer-Free Language Models over Bytes", "AgentBench-Pro: Stress-Testing Autonomous Agents", "Watermarking Diffusion Outputs Robust to Editing", "Guidance-Free Training of Conditional Diffusion Models", "Any-to-Any Generation with a Single Autoregressive Model"]) {
      expect(out.data.papers.some((p) => p.title === dropped)).toBe(false);
    }
  });

  it("run() gives the same body twice (stable order)", async () => {
    const again = await papersAiTrendingFeed.run(replayCtx(http));
    expect(again.data).toEqual(out.data);
  });

  it("run() reports a failed query and still builds from the others", async () => {
    const flaky: HttpClient = {
      getText: async (url, o) => {
        if (url.includes("diffusion")) throw new Error(`GET ${url} failed: 429 Too Many Requests`);
        return http.getText(url, o);
      },
      getJson: (url, o) => http.getJson(url, o),
    };
    const ctx = replayCtx(flaky);
    const partial = await papersAiTrendingFeed.run(ctx);
    expect(partial.sources!.find((s) => s.id === "semantic-scholar:diffusion")).toMatchObject({ ok: false, error: expect.stringContaining("429") });
    expect(partial.data.papers.some((p) => p.queries.includes("diffusion"))).toBe(false);
    expect(partial.data.papers).toHaveLength(28);
    expect(ctx.notices).toEqual([expect.stringContaining("query diffusion")]);
  });

  it("run() fails only when every query fails", async () => {
    const down: HttpClient = {
      getText: async (url) => { throw new Error(`offline: ${url}`); },
      getJson: async (url) => { throw new Error(`offline: ${url}`); },
    };
    await expect(papersAiTrendingFeed.run(replayCtx(down))).rejects.toThrow(/every query failed/);
  });

  it("run() spaces live requests, sends them one at a time, and passes the API key", async () => {
    const slept: number[] = [];
    const seen: { url: string; headers: Record<string, string> | undefined }[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const recording: HttpClient = {
      getText: async (url, o?: HttpRequestOptions) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        seen.push({ url, headers: o?.headers });
        try {
          return await http.getText(url, o);
        } finally {
          inFlight--;
        }
      },
      getJson: (url, o) => http.getJson(url, o),
    };
    const feed = createPapersAiTrendingFeed({ apiKey: "test-key", sleep: async (ms) => { slept.push(ms); } });
    const live: FeedContext = testFeedContext({ http: recording, now: NOW });
    await feed.run(live);
    expect(slept).toEqual([1100, 1100, 1100, 1100]);
    expect(maxInFlight).toBe(1);
    expect(seen.every((s) => s.headers?.["x-api-key"] === "test-key")).toBe(true);
    slept.length = 0;
    await feed.run(replayCtx(recording));
    expect(slept).toEqual([]);
  });
});

describe("mergeScholarPapers()", () => {
  it("mergeScholarPapers() ranks an unknown (null) citation count after every known one, zero included, and a known copy wins", () => {
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(40)) as [string, string, string];
    const merged = mergeScholarPapers([
      [paper({ paperId: a, citationCount: null }), paper({ paperId: b, citationCount: 0 })],
      [paper({ paperId: c, citationCount: null, queries: ["agents"] }), paper({ paperId: c, citationCount: 3 })],
    ]);
    expect(merged.map((p) => [p.paperId[0], p.citationCount])).toEqual([["c", 3], ["b", 0], ["a", null]]);
    expect(() => papersAiTrendingSnapshotSchema.parse({ sinceYear: 2025, queries: [...AI_TRENDING_QUERIES], papers: merged })).not.toThrow();
  });

  it("mergeScholarPapers() keeps the higher citation count of two copies and breaks ties by date then id", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    const c = "c".repeat(40);
    const merged = mergeScholarPapers([
      [paper({ paperId: b, citationCount: 10, publicationDate: "2025-03-01" }), paper({ paperId: a, citationCount: 7, queries: ["llm"] })],
      [paper({ paperId: a, citationCount: 9, queries: ["agents"] }), paper({ paperId: c, citationCount: 10, publicationDate: null })],
    ]);
    expect(merged.map((p) => [p.paperId[0], p.citationCount, p.queries])).toEqual([
      ["b", 10, ["llm"]],
      ["c", 10, ["llm"]],
      ["a", 9, ["agents", "llm"]],
    ]);
    expect(mergeScholarPapers([[paper({ paperId: a }), paper({ paperId: b })]], 1)).toHaveLength(1);
  });

  it("sinceYearFor() searches from last year on", () => {
    expect(sinceYearFor(new Date("2027-01-02T00:00:00Z"))).toBe(2026);
  });

  it("urls() lists five searches and the feed runs daily at 11:00 UTC", () => {
    expect(papersAiTrendingFeed.urls()).toHaveLength(5);
    expect(papersAiTrendingFeed.cron).toBe("0 11 * * *");
    expect(papersAiTrendingFeed.slaSeconds).toBe(172_800);
  });
});
