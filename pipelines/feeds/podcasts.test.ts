import { describe, expect, it } from "vitest";
import { PODCAST_SHOWS } from "../catalog/podcasts.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import type { Episode } from "../sources/podcast-rss.ts";
import { EPISODES_PER_SHOW, mergeEpisodes, podcastsFeed, podcastsSnapshotSchema, runPodcasts } from "./podcasts.ts";

const NOW = new Date("2026-11-22T12:00:00Z");
const fixtures = replayFixtures();
const client = fixtures.client;

const ep = (show: string, id: string, published: string): Episode => ({
  id, show, title: `${show} ${id}`, url: null, audio_url: `https://cdn.example-host.test/${id}.mp3`, published,
  duration_seconds: null, episode: null, image: null, description: "",
});

describe("mergeEpisodes()", () => {
  it("mergeEpisodes() keeps the newest per show and orders newest first with stable ties", () => {
    const a = Array.from({ length: 4 }, (_, i) => ep("a", `a00000000000000${i}`, `2026-11-0${i + 1}T00:00:00.000Z`));
    const b = [ep("b", "b000000000000000", "2026-11-04T00:00:00.000Z"), ep("b", "b000000000000001", "2026-11-02T00:00:00.000Z")];
    const merged = mergeEpisodes([a, b], 2);
    expect(merged.map((e) => e.id)).toEqual(["a000000000000003", "b000000000000000", "a000000000000002", "b000000000000001"]);
  });
});

describe("podcastsFeed", () => {
  it("podcastsFeed declares type, 6-hour cadence, 1-day SLA and every show's feed", () => {
    expect(podcastsFeed.type).toBe("podcasts");
    expect(podcastsFeed.cadence).toBe("every 6 hours");
    expect(podcastsFeed.slaSeconds).toBe(86_400);
    expect(podcastsFeed.urls()).toEqual(PODCAST_SHOWS.map((s) => s.feed));
    expect(PODCAST_SHOWS.length).toBeGreaterThanOrEqual(8);
  });

  it("run() builds a sorted, schema-valid snapshot capped per show from the recorded feeds", async () => {
    const out = await podcastsFeed.run(testFeedContext({ http: client("pipelines/fixtures"), now: NOW }));
    expect(() => podcastsSnapshotSchema.parse(out.data)).not.toThrow();
    expect(out.sources?.every((s) => s.ok)).toBe(true);
    const eps = out.data.episodes;
    expect(out.rows).toBe(eps.length);
    for (let i = 1; i < eps.length; i++) expect(eps[i - 1]!.published >= eps[i]!.published).toBe(true);
    const perShow = new Map<string, number>();
    for (const e of eps) perShow.set(e.show, (perShow.get(e.show) ?? 0) + 1);
    expect(perShow.get("twiml")).toBe(EPISODES_PER_SHOW);
    expect([...perShow.keys()].sort()).toEqual(PODCAST_SHOWS.map((s) => s.id).sort());
    expect(out.data.shows.map((s) => s.id)).toEqual(PODCAST_SHOWS.map((s) => s.id));
  });

  it("runPodcasts() keeps a failing show's previous episodes and reports it", async () => {
    const previous = { episodes: [ep("missing-show", "c000000000000000", "2026-11-01T00:00:00.000Z")], shows: [] };
    const ctx = testFeedContext({ http: client("pipelines/fixtures"), now: NOW, latest: { podcasts: previous } });
    const shows = [PODCAST_SHOWS[0]!, { id: "missing-show", name: "Missing", homepage: "https://missing.example-host.test/", feed: "https://missing.example-host.test/feed.rss", host: "none" }];
    const out = await runPodcasts(ctx, shows);
    expect(out.sources?.find((s) => s.id === "missing-show")).toMatchObject({ ok: false, rows: 1 });
    expect(out.data.episodes.some((e) => e.id === "c000000000000000")).toBe(true);
    expect(ctx.notices.some((n) => n.includes("missing-show"))).toBe(true);
  });

  it("runPodcasts() fails when every show fails", async () => {
    const empty = fixtures.tempDir("podcasts-empty-");
    await expect(runPodcasts(testFeedContext({ http: client(empty), now: NOW }))).rejects.toThrow(/every show failed/);
  });
});
