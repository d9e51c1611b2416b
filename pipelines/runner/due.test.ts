import { describe, expect, it } from "vitest";
import type { Feed, SnapshotMeta } from "../lib/types.ts";
import { dueFeeds } from "./due.ts";

const feed = (type: string, cron: string) => ({ type, cron }) as Feed;
const attempted = (type: string, at: string) => ({ type, lastAttempt: at }) as SnapshotMeta;
const feeds = { news: feed("news", "*/10 * * * *"), papers: feed("papers", "0 11 * * *"), fresh: feed("fresh", "0 0 * * *") };

describe("dueFeeds()", () => {
  it("dueFeeds() picks feeds whose last scheduled time is after their last attempt, and never-attempted ones", () => {
    const manifest = {
      news: attempted("news", "2026-11-22T10:10:30Z"),
      papers: attempted("papers", "2026-11-21T11:00:40Z"),
    };
    expect(dueFeeds(feeds, manifest, new Date("2026-11-22T10:19:00Z"))).toEqual(["fresh"]);
    expect(dueFeeds(feeds, manifest, new Date("2026-11-22T10:20:05Z"))).toEqual(["news", "fresh"]);
    expect(dueFeeds(feeds, manifest, new Date("2026-11-22T11:03:00Z"))).toEqual(["news", "papers", "fresh"]);
  });

  it("dueFeeds() lets a late run catch up a daily feed whose slot passed hours ago", () => {
    const manifest = { papers: attempted("papers", "2026-11-21T11:00:40Z") };
    expect(dueFeeds({ papers: feeds.papers }, manifest, new Date("2026-11-22T17:45:00Z"))).toEqual(["papers"]);
    expect(dueFeeds({ papers: feeds.papers }, manifest, new Date("2026-11-22T10:59:00Z"))).toEqual([]);
  });
});
