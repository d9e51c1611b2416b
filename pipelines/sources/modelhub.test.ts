import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import {
  MODELHUB_DAILY_PAPERS_URL,
  MODELHUB_DATASETS_URL,
  MODELHUB_MODELS_URL,
  MODELHUB_SPACES_URL,
  ModelhubParseError,
  modelhubDailyPapers,
  modelhubDatasets,
  modelhubModels,
  modelhubSpaces,
  parseRepoList,
} from "./modelhub.ts";

const fixture = (url: string) => `pipelines/fixtures/${replayPathFor(url)}`;
const read = (url: string) => readFileSync(fixture(url), "utf8");

testSource(modelhubModels, [{ url: MODELHUB_MODELS_URL, fixture: fixture(MODELHUB_MODELS_URL), meta: undefined, minRows: 30 }]);
testSource(modelhubDatasets, [{ url: MODELHUB_DATASETS_URL, fixture: fixture(MODELHUB_DATASETS_URL), meta: undefined, minRows: 30 }]);
testSource(modelhubSpaces, [{ url: MODELHUB_SPACES_URL, fixture: fixture(MODELHUB_SPACES_URL), meta: undefined, minRows: 30 }]);
testSource(modelhubDailyPapers, [{ url: MODELHUB_DAILY_PAPERS_URL, fixture: fixture(MODELHUB_DAILY_PAPERS_URL), meta: undefined, minRows: 10 }]);

const isSortedDesc = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);

describe("modelhub listings", () => {
  it("modelhubModels.normalize() sorts by downloads even when the listing arrives out of order", () => {
    const parsed = modelhubModels.parse(read(MODELHUB_MODELS_URL));
    const upstream = parsed.repos.map((r) => r.downloads ?? 0);
    expect(isSortedDesc(upstream)).toBe(false);
    const rows = modelhubModels.normalize(parsed);
    expect(isSortedDesc(rows.map((r) => r.downloads))).toBe(true);
    expect(rows.findIndex((r) => r.id === "jonatasgrosman/wav2vec2-large-xlsr-53-english")).toBe(20);
    expect(rows.findIndex((r) => r.id === "mistralai/Mistral-7B-Instruct-v0.3")).toBe(21);
  });

  it("modelhubModels.normalize() reads a legacy entry named by modelId with lastModified only", () => {
    const rows = modelhubModels.normalize(modelhubModels.parse(read(MODELHUB_MODELS_URL)));
    const legacy = rows.find((r) => r.id === "bert-base-multilingual-cased")!;
    expect(legacy).toEqual({
      id: "bert-base-multilingual-cased", author: null, likes: 507, createdAt: null, lastModified: "2024-02-19T11:08:32.000Z",
      url: "https://huggingface.co/bert-base-multilingual-cased", downloads: 2521677, pipelineTag: "fill-mask", libraryName: "transformers",
    });
    const untagged = rows.find((r) => r.id === "colbert-ir/colbertv2.0")!;
    expect(untagged.pipelineTag).toBeNull();
    expect(untagged.author).toBe("colbert-ir");
  });

  it("modelhubDatasets.normalize() sorts by downloads and links to the dataset page", () => {
    const rows = modelhubDatasets.normalize(modelhubDatasets.parse(read(MODELHUB_DATASETS_URL)));
    expect(rows).toHaveLength(30);
    expect(isSortedDesc(rows.map((r) => r.downloads))).toBe(true);
    expect(rows[5]!.id).toBe("lighteval/MATH-Hard");
    expect(rows[0]!.url).toBe("https://huggingface.co/datasets/nyu-mll/glue");
    expect(rows.find((r) => r.id === "squad_v2")).toMatchObject({ author: null, createdAt: null });
  });

  it("modelhubSpaces.normalize() sorts by likes and keeps the sdk", () => {
    const parsed = modelhubSpaces.parse(read(MODELHUB_SPACES_URL));
    expect(isSortedDesc(parsed.repos.map((r) => r.likes ?? 0))).toBe(false);
    const rows = modelhubSpaces.normalize(parsed);
    expect(isSortedDesc(rows.map((r) => r.likes))).toBe(true);
    expect(rows[0]).toMatchObject({ id: "HuggingFaceH4/open_llm_leaderboard", sdk: "docker", url: "https://huggingface.co/spaces/HuggingFaceH4/open_llm_leaderboard" });
    expect(rows.find((r) => r.id === "gradio/theme-gallery")!.sdk).toBeNull();
    expect(rows.filter((r) => r.lastModified !== null && r.createdAt === null)).toHaveLength(1);
  });

  it("normalize() breaks count ties by id, drops private, disabled, malformed and duplicate repos, caps at 30", () => {
    const many = Array.from({ length: 35 }, (_, i) => ({ id: `org/m${String(i).padStart(2, "0")}`, downloads: 100, likes: 1 }));
    const body = JSON.stringify([
      { id: "zeta/x", downloads: 500, likes: 2 }, { id: "alpha/x", downloads: 500, likes: 2 }, { id: "alpha/x", downloads: 1, likes: 0 },
      { id: "secret/x", downloads: 9e9, private: true }, { id: "gone/x", downloads: 9e9, disabled: true }, { id: "../etc/passwd", downloads: 9e9 },
      { id: 42 }, ...many,
    ]);
    const parsed = parseRepoList(body);
    expect(parsed.skipped).toBe(1);
    const rows = modelhubModels.normalize(parsed);
    expect(rows).toHaveLength(30);
    expect(rows.slice(0, 3).map((r) => r.id)).toEqual(["alpha/x", "zeta/x", "org/m00"]);
  });

  it("parse() rejects a body that is not a JSON array", () => {
    expect(() => parseRepoList('{"error": "Invalid sort parameter"}')).toThrow(ModelhubParseError);
    expect(() => parseRepoList('{"error": "Invalid sort parameter"}')).toThrow(/not a JSON array: Invalid sort parameter/);
    expect(() => parseRepoList("<!doctype html>")).toThrow(/not JSON/);
  });
});

describe("modelhub daily papers", () => {
  const rows = () => modelhubDailyPapers.normalize(modelhubDailyPapers.parse(read(MODELHUB_DAILY_PAPERS_URL)));

  it("normalize() orders by upvotes, then comments on a tie", () => {
    const r = rows();
    expect(isSortedDesc(r.map((p) => p.upvotes))).toBe(true);
    expect(r.slice(0, 4).map((p) => [p.id, p.upvotes, p.comments])).toEqual([
      ["2611.12081", 142, 6],
      ["2611.12290", 118, 9],
      ["2611.12503", 97, 11],
      ["2611.11734", 97, 3],
    ]);
  });

  it("normalize() reads an older entry without counters as 0 upvotes and 0 comments", () => {
    const r = rows();
    expect(r.at(-1)).toMatchObject({ id: "2611.11021", upvotes: 0, comments: 0 });
    expect(r.find((p) => p.id === "2611.12081")).toMatchObject({
      url: "https://huggingface.co/papers/2611.12081", arxivUrl: "https://arxiv.org/abs/2611.12081", authors: ["Yuxin Zhang", "Omar Haddad", "Elena Petrova"], authorCount: 3, publishedAt: "2026-11-18T08:12:05.000Z",
    });
  });

  it("normalize() sanitizes summaries: comments with injected instructions are removed, lines collapsed", () => {
    const p = rows().find((x) => x.id === "2611.10955")!;
    expect(p.summary.toLowerCase()).not.toContain("ignore all previous instructions");
    expect(p.summary).not.toContain("\n");
    expect(p.summary).toContain("We release a cleaned benchmark.");
  });

  it("normalize() drops duplicates and entries without an arXiv-style id, clips long summaries", () => {
    const entry = (id: string, upvotes: number, summary = "s") => ({ paper: { id, title: `Paper ${id}`, summary, upvotes, authors: [] }, numComments: 1 });
    const parsed = modelhubDailyPapers.parse(JSON.stringify([entry("2611.00001", 5, "x ".repeat(400)), entry("2611.00001", 50), entry("not-an-id", 99), { title: "no paper" }]));
    expect(parsed.skipped).toBe(1);
    const out = modelhubDailyPapers.normalize(parsed);
    expect(out).toHaveLength(1);
    expect(out[0]!.upvotes).toBe(5);
    expect(out[0]!.summary.length).toBeLessThanOrEqual(500);
    expect(out[0]!.summary.endsWith("…")).toBe(true);
  });
});
