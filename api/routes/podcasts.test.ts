import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { PodcastsResponse, podcastsRoutes } from "./podcasts.ts";
import type { PodcastsSnapshot } from "../../pipelines/contract/snapshots/podcasts.ts";

const LAST = "2026-11-22T06:17:03.000Z";
const data: PodcastsSnapshot = {
  episodes: [
    { id: "0123456789abcdef", show: "twiml", title: "An episode", url: null, audio_url: "https://traffic.megaphone.fm/X.mp3", published: "2026-11-20T17:00:00.000Z", duration_seconds: 2400, episode: 760, image: null, description: "About it" },
  ],
  shows: [{ id: "twiml", name: "The TWIML AI Podcast", homepage: "https://twimlai.com/", feed: "https://feeds.megaphone.fm/MLN2155636147" }],
};
const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => ({
  type: "podcasts", date: "2026-11-22", lastSuccess: LAST, lastAttempt: LAST, lastChanged: LAST, lastError: null, rows: 1,
  provenance: "replay", slaSeconds: 86400, cadence: "every 6 hours", sources: [], ...over,
});
function ctx(snapshot: LoadedSnapshot | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "podcasts" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => [], dates: () => [], dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T07:00:00Z") };
}
const render = podcastsRoutes[0]!.render!;
const input = { query: {}, params: {} } as never;

describe("GET /api/podcasts", () => {
  it("render() returns ok, updated from the manifest, count, episodes and shows", async () => {
    const body = PodcastsResponse.parse(await render(ctx({ type: "podcasts", data, meta: meta() }), input));
    expect(body).toEqual({ ok: true, updated: LAST, count: 1, episodes: data.episodes, shows: data.shows });
  });

  it("render() answers 503 snapshot_unavailable without a snapshot or with a malformed one", async () => {
    await expect(async () => render(ctx(undefined), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
    await expect(async () => render(ctx({ type: "podcasts", data: { episodes: "x" }, meta: meta() }), input)).rejects.toMatchObject({ status: 503 });
  });

  it("podcastsRoutes declare the free tier, the snapshot and the 6-hour freshness", () => {
    expect(podcastsRoutes[0]).toMatchObject({ path: "/api/podcasts", tier: "free", snapshots: ["podcasts"], freshness: { cadence: "every 6 hours", slaSeconds: 86400 } });
  });
});
