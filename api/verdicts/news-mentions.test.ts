import { describe, expect, it } from "vitest";
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import { headlines, mentionPattern, recentMentions } from "./news-mentions.ts";

const a = (id: string, title: string, publishedAt: string, snippet = ""): Article => ({
  id: id.padStart(16, "0"), title, url: `https://e.com/${id}`, source: "E", sourceDomain: "e.com", snippet, categories: [], publishedAt, fetchedAt: publishedAt,
});
const now = new Date("2026-11-23T00:00:00Z");

describe("news mentions", () => {
  it("matches whole phrases case-insensitively in title or snippet, since midnight UTC 30 days before today, newest first", () => {
    const list = [
      a("1", "cursor raises", "2026-11-01T00:00:00Z"),
      a("2", "Precursor news", "2026-11-02T00:00:00Z"),
      a("3", "Other", "2026-11-03T00:00:00Z", "Cursor ships agents"),
      a("4", "Cursor old", "2026-10-01T00:00:00Z"),
      a("5", "Cursor at the window's first instant", "2026-10-24T00:00:00Z"),
      a("6", "Cursor just before it", "2026-10-23T23:59:59Z"),
    ];
    expect(recentMentions(list, ["Cursor"], new Date("2026-11-23T18:00:00Z")).map((x) => x.id.slice(-1))).toEqual(["3", "1", "5"]);
    expect(headlines(recentMentions(list, ["Cursor"], now), 1)).toEqual([{ title: "Other", url: "https://e.com/3", source: "E", published: "2026-11-03T00:00:00Z" }]);
  });
  it("ignores names shorter than 3 characters and escapes regex characters", () => {
    expect(mentionPattern(["o1"])).toBeNull();
    expect(mentionPattern(["gpt-4.1"])!.test("GPT-4.1 is out")).toBe(true);
    expect(mentionPattern(["gpt-4.1"])!.test("gpt-4x1")).toBe(false);
    expect(mentionPattern(["GPT-4o"])!.test("GPT-4o-mini lands")).toBe(false);
    expect(mentionPattern(["gpt-4"])!.test("gpt-4.1 lands")).toBe(false);
    expect(mentionPattern(["gpt-4"])!.test("gpt-4. Then")).toBe(true);
  });
});
