import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { ForumTrendingResponse, forumRoutes, renderForumTrending } from "./forum.ts";
import type { ForumTrendingSnapshot } from "../../pipelines/contract/snapshots/forum-trending.ts";

const data: ForumTrendingSnapshot = {
  communities: [{ id: "LocalLLaMA", topic: "local models", url: "https://www.reddit.com/r/LocalLLaMA/" }],
  posts: [
    {
      id: "1p3abc",
      community: "LocalLLaMA",
      title: "New model",
      url: "https://huggingface.co/x",
      permalink: "https://www.reddit.com/r/LocalLLaMA/comments/1p3abc/new_model/",
      score: 900,
      num_comments: 120,
      created_utc: "2026-11-21T08:00:00.000Z",
      author: "u",
      flair: "New Model",
    },
  ],
};
const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => ({
  type: "forum-trending", date: "2026-11-22", lastSuccess: "2026-11-22T13:00:09.000Z", lastAttempt: "2026-11-22T13:00:09.000Z", lastChanged: "2026-11-22T13:00:09.000Z",
  lastError: null, rows: 1, provenance: "live", slaSeconds: 172800, cadence: "daily at 13:00 UTC", sources: [], ...over,
});
function ctx(snapshot: LoadedSnapshot<unknown> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "forum-trending" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => [],
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T14:00:00Z") };
}

describe("forum routes", () => {
  it("renderForumTrending() returns ok, the snapshot and updated = lastSuccess", () => {
    const body = ForumTrendingResponse.parse(renderForumTrending(ctx({ type: "forum-trending", data, meta: meta() })));
    expect(body).toEqual({ ok: true, snapshot: data, updated: "2026-11-22T13:00:09.000Z" });
  });

  it("renderForumTrending() answers 503 snapshot_unavailable when missing or malformed", () => {
    expect(() => renderForumTrending(ctx(undefined))).toThrow(expect.objectContaining({ status: 503, code: "snapshot_unavailable" }));
    expect(() => renderForumTrending(ctx({ type: "forum-trending", data: { posts: [] }, meta: meta() }))).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("forumRoutes declare a free route over the forum-trending snapshot", () => {
    expect(forumRoutes[0]).toMatchObject({ path: "/api/forum/trending", tier: "free", snapshots: ["forum-trending"], freshness: { cadence: "daily at 13:00 UTC" } });
  });
});
