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
/** When the listings were recorded. */
const NOW = new Date("2026-11-22T12:00:00Z");
const ctx = { now: NOW };

testSource(modelhubModels, [{ url: MODELHUB_MODELS_URL, fixture: fixture(MODELHUB_MODELS_URL), meta: undefined, now: NOW, minRows: 30 }]);
testSource(modelhubDatasets, [{ url: MODELHUB_DATASETS_URL, fixture: fixture(MODELHUB_DATASETS_URL), meta: undefined, now: NOW, minRows: 30 }]);
testSource(modelhubSpaces, [{ url: MODELHUB_SPACES_URL, fixture: fixture(MODELHUB_SPACES_URL), meta: undefined, now: NOW, minRows: 30 }]);
testSource(modelhubDailyPapers, [{ url: MODELHUB_DAILY_PAPERS_URL, fixture: fixture(MODELHUB_DAILY_PAPERS_URL), meta: undefined, now: NOW, minRows: 10 }]);

const isSortedDesc = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! >= x);

describe("modelhub listings", () => {
  it("modelhubModels.normalize() sorts by downloads even when the listing arrives out of order", () => {
    const parsed = modelhubModels.parse(read(MODELHUB_MODELS_URL));
    const upstream = parsed.repos.map((r) => r.downloads ?? 0);
    expect(isSortedDesc(upstream)).toBe(false);
    const rows = modelhubModels.normalize(parsed, ctx);
    expect(isSortedDesc(rows.map((r) => r.downloads))).toBe(true);
    expect(rows.findIndex((r) => r.id === "jonatasgrosman/wav2vec2-large-xlsr-53-english")).toBe(20);
    expect(rows.findIndex((r) => r.id === "mistralai/Mistral-7B-Instruct-v0.3")).toBe(21);
  });

  it("modelhubModels.normalize() reads a legacy entry named by modelId with lastModified only", () => {
    const rows = modelhubModels.normalize(modelhubModels.parse(read(MODELHUB_MODELS_URL)), ctx);
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
    const rows = modelhubDatasets.normalize(modelhubDatasets.parse(read(MODELHUB_DATASETS_URL)), ctx);
    expect(rows).toHaveLength(30);
    expect(isSortedDesc(rows.map((r) => r.downloads))).toBe(true);
    expect(rows[5]!.id).toBe("lighteval/MATH-Hard");
    expect(rows[0]!.url).toBe("https://huggingface.co/datasets/nyu-mll/glue");
    expect(rows.find((r) => r.id === "squad_v2")).toMatchObject({ author: null, createdAt: null });
  });

  it("modelhubSpaces.normalize() sorts by likes and keeps the sdk", () => {
    const parsed = modelhubSpaces.parse(read(MODELHUB_SPACES_URL));
    expect(isSortedDesc(parsed.repos.map((r) => r.likes ?? 0))).toBe(false);
    const rows = modelhubSpaces.normalize(parsed, ctx);
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
    const rows = modelhubModels.normalize(parsed, ctx);
    expect(rows).toHaveLength(30);
    expect(rows.slice(0, 3).map((r) => r.id)).toEqual(["alpha/x", "zeta/x", "org/m00"]);
  });

  it("parse() rejects a body that is not a JSON array", () => {
    expect(() => parseRepoList('{"error": "Invalid sort parameter"}')).toThrow(ModelhubParseError);
    expect(() => parseRepoList('{"error": "Invalid sort parameter"}')).toThrow(/not a JSON array: Invalid sort parameter/);
    expect(() => parseRepoList("<!doctype html>")).toThrow(/not JSON/);
  });
});

describe("modelhub dates", () => {
  it("a listing keeps every repo and nulls only the dates that are unreadable, before 1990 or more than a day ahead", () => {
    const recorded = JSON.parse(read(MODELHUB_MODELS_URL)) as Record<string, unknown>[];
    const before = modelhubModels.normalize(modelhubModels.parse(JSON.stringify(recorded)), ctx);
    const ids = recorded.map((r) => (r["id"] ?? r["modelId"]) as string);
    recorded[0]!["createdAt"] = "+010000-01-01T00:00:00Z";
    recorded[1]!["lastModified"] = "Fri, 31 Dec 9999 23:59:59 +0000";
    recorded[2]!["createdAt"] = "1970-01-01T00:00:00Z";
    const after = modelhubModels.normalize(modelhubModels.parse(JSON.stringify(recorded)), ctx);
    for (const row of after) expect(() => modelhubModels.row.parse(row)).not.toThrow();
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    const byId = new Map(after.map((r) => [r.id, r]));
    expect(byId.get(ids[0]!)?.createdAt).toBeNull();
    expect(byId.get(ids[1]!)?.lastModified).toBeNull();
    expect(byId.get(ids[2]!)?.createdAt).toBeNull();
    expect(after.filter((r) => !ids.slice(0, 3).includes(r.id))).toEqual(before.filter((r) => !ids.slice(0, 3).includes(r.id)));
  });

  it("the recorded dataset listing's lastModified dates after the fetch are null, the rest kept", () => {
    const rows = modelhubDatasets.normalize(modelhubDatasets.parse(read(MODELHUB_DATASETS_URL)), ctx);
    expect(rows.find((r) => r.id === "openslr/librispeech_asr")?.lastModified).toBeNull();
    expect(rows.find((r) => r.id === "nyu-mll/glue")?.lastModified).toBe("2025-10-10T00:49:06.000Z");
  });

  it("daily papers keep a paper whose publishedAt is in year 10000, with a null date", () => {
    const recorded = JSON.parse(read(MODELHUB_DAILY_PAPERS_URL)) as { paper: Record<string, unknown>; publishedAt?: unknown }[];
    const before = modelhubDailyPapers.normalize(modelhubDailyPapers.parse(JSON.stringify(recorded)), ctx);
    const id = recorded[0]!.paper["id"] as string;
    recorded[0]!.paper["publishedAt"] = "+010000-01-01T00:00:00Z";
    recorded[0]!.publishedAt = "+010000-01-01T00:00:00Z";
    const after = modelhubDailyPapers.normalize(modelhubDailyPapers.parse(JSON.stringify(recorded)), ctx);
    for (const row of after) expect(() => modelhubDailyPapers.row.parse(row)).not.toThrow();
    expect(after).toEqual(before.map((p) => (p.id === id ? { ...p, publishedAt: null } : p)));
  });
});

describe("modelhub daily papers", () => {
  const rows = () => modelhubDailyPapers.normalize(modelhubDailyPapers.parse(read(MODELHUB_DAILY_PAPERS_URL)), ctx);

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
    const out = modelhubDailyPapers.normalize(parsed, ctx);
    expect(out).toHaveLength(1);
    expect(out[0]!.upvotes).toBe(5);
    expect(out[0]!.summary.length).toBeLessThanOrEqual(500);
    expect(out[0]!.summary.endsWith("…")).toBe(true);
  });
});
