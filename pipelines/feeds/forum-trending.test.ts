import { mkdirSync, mkdtempSync, readFileSync, rmSync, cpSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FORUM_COMMUNITIES } from "../catalog/forum-communities.ts";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { type ForumPostRow, forumHotUrl } from "../sources/forum.ts";
import { ForumTrendingSnapshotSchema, forumTrendingFeed, runForumTrending, selectTrendingPosts } from "./forum-trending.ts";

const NOW = new Date("2026-11-22T13:00:00Z");
const clients: ClosableHttpClient[] = [];
const temps: string[] = [];
const client = (dir = "pipelines/fixtures") => {
  const c = createHttpClient({ replayDir: dir, retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
};
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

let n = 0;
function post(over: Partial<ForumPostRow> = {}): ForumPostRow {
  n++;
  return {
    id: `p${n}`,
    community: "LocalLLaMA",
    title: `Post ${n}`,
    url: `https://www.reddit.com/r/LocalLLaMA/comments/p${n}/`,
    permalink: `https://www.reddit.com/r/LocalLLaMA/comments/p${n}/`,
    score: 100,
    num_comments: 5,
    created_utc: "2026-11-21T10:00:00.000Z",
    author: "u",
    flair: null,
    stickied: false,
    over_18: false,
    crosspost_of: null,
    ...over,
  };
}

describe("forum-trending selection rules", () => {
  it("selectTrendingPosts() removes a stickied post", () => {
    const out = selectTrendingPosts([[post({ stickied: true, score: 9999, title: "rules" }), post({ title: "kept" })]]);
    expect(out.map((p) => p.title)).toEqual(["kept"]);
  });

  it("selectTrendingPosts() removes an adult post", () => {
    const out = selectTrendingPosts([[post({ over_18: true, score: 9999 }), post({ title: "kept" })]]);
    expect(out.map((p) => p.title)).toEqual(["kept"]);
  });

  it("selectTrendingPosts() counts a crosspost and its original once, keeping the higher score", () => {
    const original = post({ id: "orig", score: 500 });
    const xpost = post({ id: "copy", community: "singularity", score: 80, crosspost_of: "orig" });
    expect(selectTrendingPosts([[original], [xpost]]).map((p) => p.id)).toEqual(["orig"]);
    const bigger = post({ id: "copy2", community: "singularity", score: 900, crosspost_of: "orig" });
    expect(selectTrendingPosts([[original], [bigger]]).map((p) => p.id)).toEqual(["copy2"]);
  });

  it("selectTrendingPosts() keeps one copy of the same post id seen in two listings", () => {
    const a = post({ id: "same", score: 10 });
    expect(selectTrendingPosts([[a], [{ ...a, score: 12 }]])).toHaveLength(1);
  });

  it("selectTrendingPosts() keeps the top 30 by score and strips the rule flags", () => {
    const rows = Array.from({ length: 40 }, (_, i) => post({ score: i }));
    const out = selectTrendingPosts([rows]);
    expect(out).toHaveLength(30);
    expect(out[0]!.score).toBe(39);
    expect(out.at(-1)!.score).toBe(10);
    expect(Object.keys(out[0]!).sort()).toEqual(["author", "community", "created_utc", "flair", "id", "num_comments", "permalink", "score", "title", "url"]);
  });
});

describe("forumTrendingFeed", () => {
  it("forumTrendingFeed declares 7 community URLs and the 13:00 schedule", () => {
    expect(forumTrendingFeed.type).toBe("forum-trending");
    expect(forumTrendingFeed.cron).toBe("0 13 * * *");
    expect(FORUM_COMMUNITIES).toHaveLength(7);
    expect(forumTrendingFeed.urls()).toEqual(FORUM_COMMUNITIES.map((c) => forumHotUrl(c.id)));
  });

  it("run() builds the top 30 from the recorded listings", async () => {
    const out = await forumTrendingFeed.run(testFeedContext({ http: client(), now: NOW }));
    const data = ForumTrendingSnapshotSchema.parse(out.data);
    expect(data.posts).toHaveLength(30);
    expect(data.communities.map((c) => c.id)).toEqual(FORUM_COMMUNITIES.map((c) => c.id));
    expect(out.sources?.every((s) => s.ok)).toBe(true);
    const titles = data.posts.map((p) => p.title);
    expect(titles.some((t) => /megathread|Self-Promotion|Weekly showcase/i.test(t))).toBe(false);
    expect(titles.some((t) => /NSFW/.test(t))).toBe(false);
    expect(titles.filter((t) => t.startsWith("Qwen3.5-72B weights"))).toHaveLength(1);
    expect(data.posts.find((p) => p.title.startsWith("Qwen3.5-72B"))?.community).toBe("LocalLLaMA");
    expect(new Set(data.posts.map((p) => p.id)).size).toBe(30);
    expect(data.posts[0]).toMatchObject({ community: "singularity", score: 2210 });
    expect(data.posts.map((p) => p.score)).toEqual([...data.posts.map((p) => p.score)].sort((a, b) => b - a));
    expect(JSON.stringify(data)).not.toMatch(/ignore previous instructions/i);
  });

  it("run() skips a failing community and fails only when all fail", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forum-"));
    temps.push(dir);
    for (const c of FORUM_COMMUNITIES.slice(1)) {
      const rel = replayPathFor(forumHotUrl(c.id));
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      cpSync(join("pipelines/fixtures", rel), join(dir, rel));
    }
    const ctx = testFeedContext({ http: client(dir), now: NOW });
    const out = await runForumTrending(ctx);
    expect(out.sources?.find((s) => s.id === "r/MachineLearning")?.ok).toBe(false);
    expect(out.data.posts.some((p) => p.community === "MachineLearning")).toBe(false);
    expect(ctx.notices.some((m) => m.includes("MachineLearning"))).toBe(true);
    const empty = mkdtempSync(join(tmpdir(), "forum-empty-"));
    temps.push(empty);
    await expect(runForumTrending(testFeedContext({ http: client(empty), now: NOW }))).rejects.toThrow(/every community failed/);
  });

  it("run() keeps a community's other posts when one post's created_utc is 1e16", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forum-created-"));
    temps.push(dir);
    for (const c of FORUM_COMMUNITIES) {
      const rel = replayPathFor(forumHotUrl(c.id));
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      cpSync(join("pipelines/fixtures", rel), join(dir, rel));
    }
    const baseline = await runForumTrending(testFeedContext({ http: client(), now: NOW }));
    const rel = replayPathFor(forumHotUrl("singularity"));
    const listing = JSON.parse(readFileSync(join(dir, rel), "utf8")) as { data: { children: { data: { id: string; score: number; created_utc: number } }[] } };
    const top = listing.data.children.reduce((a, b) => (b.data.score > a.data.score ? b : a));
    const other = listing.data.children.find((c) => c !== top && baseline.data.posts.some((p) => p.id === c.data.id))!;
    top.data.created_utc = 1e16;
    writeFileSync(join(dir, rel), JSON.stringify(listing));
    const ctx = testFeedContext({ http: client(dir), now: NOW });
    const out = await runForumTrending(ctx);
    const data = ForumTrendingSnapshotSchema.parse(out.data);
    expect(out.sources?.find((s) => s.id === "r/singularity")).toEqual({ id: "r/singularity", ok: true, rows: listing.data.children.length - 1 });
    expect(data.posts.some((p) => p.id === top.data.id)).toBe(false);
    expect(data.posts.some((p) => p.id === other.data.id)).toBe(true);
    expect(ctx.notices).toContain("forum-trending: r/singularity had 1 posts without a usable created_utc (skipped)");
  });
});
