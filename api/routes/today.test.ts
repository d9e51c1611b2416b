import { describe, expect, it } from "vitest";
import { useBundledServer } from "../testing/bundled-server.ts";
import type { RenderContext, SnapshotReader } from "../registry/types.ts";
import { renderToday, TodayQuery, TodayResponse, TODAY_SECTIONS } from "./today.ts";

const server = useBundledServer();

const getJson = async (path: string) => {
  const res = await fetch(server().url + path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("GET /api/today", () => {
  it("answers every section with 3 items per subsection by default", async () => {
    const { status, body } = await getJson("/api/today");
    expect(status).toBe(200);
    const today = TodayResponse.parse(body);
    expect(today.sections).toEqual([...TODAY_SECTIONS]);
    expect(today.missing).toEqual([]);
    expect(today.news?.top).toHaveLength(3);
    expect(today.papers?.trending).toHaveLength(3);
    expect(today.hf?.spaces).toHaveLength(3);
    expect(today.community?.repos).toHaveLength(3);
    expect(today.inference?.cheapest_models).toHaveLength(3);
    expect(today.status?.summary.total).toBeGreaterThan(0);
  });

  it("keeps each feed's order: news newest first, papers by citations, cheapest model first", async () => {
    const today = TodayResponse.parse((await getJson("/api/today?limit=10")).body);
    const news = (await getJson("/api/news?limit=10")).body as { articles: { url: string }[] };
    expect(today.news?.top?.map((a) => a.url)).toEqual(news.articles.map((a) => a.url));
    // Most cited first; an unknown count (null) after every known one.
    const citations = today.papers?.trending?.map((p) => p.citations as number | null) ?? [];
    const rank = (c: number | null) => (c === null ? -1 : c);
    expect(citations).toEqual([...citations].sort((a, b) => rank(b) - rank(a)));
    const blended = today.inference?.cheapest_models?.map((m) => m.blended as number) ?? [];
    expect(blended).toEqual([...blended].sort((a, b) => a - b));
  });

  it("returns only the sections asked for, in canonical order, with the given limit", async () => {
    const today = TodayResponse.parse((await getJson("/api/today?sections=status,news,news&limit=1")).body);
    expect(today.sections).toEqual(["news", "status"]);
    expect(today.news?.top).toHaveLength(1);
    expect(today.papers).toBeUndefined();
    expect(Object.keys(today.updated).sort()).toEqual(["news", "status"]);
  });

  it("refuses unknown sections and limits outside 1-10 with a 400", async () => {
    for (const q of ["sections=news,weather", "sections=", "limit=0", "limit=11", "limit=2.5"]) {
      const { status, body } = await getJson(`/api/today?${q}`);
      expect(status, q).toBe(400);
      expect(body).toMatchObject({ ok: false, error: "invalid_query" });
    }
  });

  it("ignores an unknown parameter, as every route does (api/security.md)", async () => {
    expect((await getJson("/api/today?other=1")).status).toBe(200);
  });
});

describe("renderToday()", () => {
  it("renderToday() leaves a subsection null and names its snapshot when it is missing", () => {
    const reader: SnapshotReader = { get: () => undefined, types: () => [], dates: () => [], dated: async () => undefined };
    const ctx: RenderContext = { snapshots: reader, baseUrl: "http://x", now: new Date("2026-11-22T12:00:00Z") };
    const out = renderToday(ctx, TodayQuery.parse({ sections: "papers,status" }));
    expect(out.papers).toEqual({ trending: null, preprints: null, daily: null });
    expect(out.status).toBeNull();
    expect(out.missing).toEqual(["papers-ai-trending", "papers-preprint-recent", "papers-modelhub-daily", "status"]);
    expect(out.date).toBe("2026-11-22");
  });
});
