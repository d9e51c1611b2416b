import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NEWS_SOURCES } from "../catalog/news-sources.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import { FeedParseError, articleId, canonicalUrl, parseDate, parseFeed, rss, type RssMeta } from "./rss.ts";

const fixture = (url: string) => `pipelines/fixtures/${replayPathFor(url)}`;
const NOW = new Date("2026-11-20T12:00:00Z");

testSource(
  rss,
  NEWS_SOURCES.map((s) => ({ fixture: fixture(s.url), url: s.url, meta: { name: s.name, categories: [...s.categories] } satisfies RssMeta, now: NOW, minRows: 2 })),
);

function run(id: string) {
  const s = NEWS_SOURCES.find((x) => x.id === id)!;
  return rss.normalize(rss.parse(readFileSync(fixture(s.url), "utf8")), { url: s.url, now: NOW, meta: { name: s.name, categories: [...s.categories] } });
}

describe("rss", () => {
  it("parse() reads RSS 2.0 with CDATA, content:encoded and entities", () => {
    const rows = run("techcrunch-ai");
    expect(rows[0]!.title).toBe("OpenAI’s GPT-5.5 lands in the API with a 1M-token context window");
    expect(rows[1]!.snippet).toBe("Paris-based Mistral AI has closed a new round led by ASML & existing investors.");
    expect(rows[0]!.categories).toEqual(["press", "ai", "apps", "openai"]);
    expect(rows[0]!.publishedAt).toBe("2026-11-18T18:05:00.000Z");
  });

  it("normalize() strips utm_* parameters and builds a stable id from the canonical URL", () => {
    const rows = run("techcrunch-ai");
    const comet = rows.find((r) => r.title.startsWith("Perplexity"))!;
    expect(comet.url).toBe("https://techcrunch.com/2026/11/03/perplexitys-comet-browser-android/");
    expect(comet.id).toBe(articleId(comet.url));
    expect(comet.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("parse() reads Atom with rel=alternate links, published dates and html content", () => {
    const rows = run("the-verge-ai");
    expect(rows).toHaveLength(3);
    expect(rows[0]!.url).toBe("https://www.theverge.com/news/820114/anthropic-claude-opus-5-release");
    expect(rows[0]!.publishedAt).toBe("2026-11-17T17:05:00.000Z");
    expect(rows[0]!.snippet).toBe("The new model is Anthropic’s most capable yet.");
    expect(rows[2]!.snippet).toBe("Ad networks are paying for synthetic pages.");
    expect(rows[0]!.sourceDomain).toBe("theverge.com");
  });

  it("normalize() resolves relative links against the channel link and keeps non-Latin titles", () => {
    const rows = run("huggingface");
    expect(rows.map((r) => r.url)).toContain("https://huggingface.co/blog/open-asr-leaderboard-nov-2026");
    expect(rows.map((r) => r.title)).toContain("在 Hugging Face 上使用 Inference Providers 部署 Qwen4");
    expect(run("simon-willison").map((r) => r.title)).toContain("「日本語で考える」: testing PLaMo 3 locally");
  });

  it("normalize() drops an item without a link (a non-permalink guid is not a URL)", () => {
    const rows = run("import-ai");
    expect(rows).toHaveLength(2);
    expect(rows.some((r) => r.title.includes("437"))).toBe(false);
  });

  it("normalize() neutralizes an injection in a description and removes invisible characters in titles", () => {
    const mtp = run("marktechpost");
    expect(mtp[0]!.snippet).toContain("[filtered]");
    expect(mtp[0]!.snippet.toLowerCase()).not.toContain("ignore all previous instructions");
    expect(mtp.find((r) => r.title.startsWith("A Coding Guide"))!.snippet).toBe("In this tutorial…");
    const wired = run("wired-ai");
    expect(wired[0]!.title).toBe("The Data Center Boom Is Hitting a Power Wall");
    expect(wired[1]!.title).toBe("Inside the Race to Build an AI That Can Do Your Taxes");
    const simon = run("simon-willison");
    expect(simon.find((r) => r.url.includes("prompt-injection"))!.snippet).toBe("[filtered]system [filtered]. [filtered].");
  });

  it("normalize() clips snippets to 200 characters", () => {
    const long = `<rss version="2.0"><channel><link>https://example.com/</link><item><title>T</title><link>/a</link><description>${"word ".repeat(100)}</description><pubDate>Mon, 16 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>`;
    const [row] = rss.normalize(rss.parse(long), { url: "https://example.com/feed", now: NOW, meta: { name: "Ex", categories: ["press"] } });
    expect(row!.snippet.length).toBeLessThanOrEqual(200);
    expect(row!.snippet.endsWith("…")).toBe(true);
    expect(row!.url).toBe("https://example.com/a");
  });

  it("parse() reads RSS 1.0 (RDF) with dc:date", () => {
    const rdf = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel rdf:about="https://example.org/"><title>Ex</title><link>https://example.org/</link></channel>
      <item rdf:about="https://example.org/1"><title>First &amp; best</title><link>https://example.org/1</link><dc:date>2026-11-02T10:00:00+09:00</dc:date><dc:subject>Robotics</dc:subject></item>
    </rdf:RDF>`;
    const parsed = parseFeed(rdf);
    expect(parsed.format).toBe("rdf");
    const rows = rss.normalize(parsed, { url: "https://example.org/index.rdf", now: NOW, meta: { name: "Ex", categories: ["research"] } });
    expect(rows).toEqual([
      expect.objectContaining({ title: "First & best", url: "https://example.org/1", publishedAt: "2026-11-02T01:00:00.000Z", categories: ["research", "robotics"] }),
    ]);
  });

  it("normalize() dates an undated item with the run clock", () => {
    const body = `<rss version="2.0"><channel><item><title>x</title><link>https://a.example/x</link></item></channel></rss>`;
    const [row] = rss.normalize(rss.parse(body), { url: "https://a.example/feed", now: NOW, meta: { name: "A", categories: ["press"] } });
    expect(row!.publishedAt).toBe(NOW.toISOString());
  });

  it("parse() throws a clear error on a body that is not a feed", () => {
    expect(() => parseFeed("<html><body><p>Just a page</p></body></html>")).toThrow(FeedParseError);
    expect(() => parseFeed("<html><body><p>Just a page</p></body></html>")).toThrow(/not an RSS, Atom or RDF feed \(root elements: html/);
    expect(() => parseFeed('{"items": []}')).toThrow(/not an RSS, Atom or RDF feed/);
  });

  it("canonicalUrl() drops fragments and tracking parameters, keeps others, rejects non-http", () => {
    expect(canonicalUrl("https://Example.com/a?utm_source=x&id=3&fbclid=y#top")).toBe("https://example.com/a?id=3");
    expect(canonicalUrl("../b", "https://example.com/x/y/")).toBe("https://example.com/x/b");
    expect(canonicalUrl("javascript:alert(1)")).toBeUndefined();
    expect(canonicalUrl("not a url")).toBeUndefined();
  });

  it("parseDate() reads RFC 822 and ISO 8601 and rejects junk", () => {
    expect(parseDate("Tue, 17 Nov 2026 00:00:00 +0000", NOW)).toBe("2026-11-17T00:00:00.000Z");
    expect(parseDate("2026-11-17T12:05:00-05:00", NOW)).toBe("2026-11-17T17:05:00.000Z");
    expect(parseDate("sometime soon", NOW)).toBeUndefined();
  });

  it("parseDate() rejects dates before 1990 or more than a day after the fetch time", () => {
    expect(parseDate("Fri, 31 Dec 9999 23:59:59 +0000", NOW)).toBeUndefined();
    expect(parseDate("+010000-01-01T00:00:00Z", NOW)).toBeUndefined();
    expect(parseDate("Thu, 01 Jan 1970 00:00:00 +0000", NOW)).toBeUndefined();
    expect(parseDate("Sat, 21 Nov 2026 11:00:00 +0000", NOW)).toBe("2026-11-21T11:00:00.000Z");
    expect(parseDate("Sat, 21 Nov 2026 13:00:00 +0000", NOW)).toBeUndefined();
  });

  it("normalize() gives a recorded feed's far-future item the run time and leaves the others as they were", () => {
    const s = NEWS_SOURCES.find((x) => x.id === "techcrunch-ai")!;
    const recorded = readFileSync(fixture(s.url), "utf8");
    const dates = [...recorded.matchAll(/<pubDate>([^<]*)<\/pubDate>/g)].map((m) => m[1]!);
    expect(dates.length).toBeGreaterThanOrEqual(3);
    const hostile = recorded
      .replace(`<pubDate>${dates[1]}</pubDate>`, "<pubDate>Fri, 31 Dec 9999 23:59:59 +0000</pubDate>")
      .replace(`<pubDate>${dates[2]}</pubDate>`, "<pubDate>+010000-01-01T00:00:00Z</pubDate>");
    const meta = { name: s.name, categories: [...s.categories] };
    const before = rss.normalize(rss.parse(recorded), { url: s.url, now: NOW, meta });
    const after = rss.normalize(rss.parse(hostile), { url: s.url, now: NOW, meta });
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    for (const a of after) expect(() => rss.row.parse(a)).not.toThrow();
    expect(after[1]!.publishedAt).toBe(NOW.toISOString());
    expect(after[2]!.publishedAt).toBe(NOW.toISOString());
    expect(after.filter((_, i) => i !== 1 && i !== 2)).toEqual(before.filter((_, i) => i !== 1 && i !== 2));
  });
});

describe("rss titles that mention tags", () => {
  it("normalize() keeps an escaped <template> in a title as text instead of dropping the words after it", () => {
    const body = `<?xml version="1.0"?><rss version="2.0"><channel><title>Dev blog</title><link>https://example.com/</link>
<item><title>Using the &amp;lt;template&amp;gt; element for faster rendering</title><link>https://example.com/a</link><pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate></item>
<item><title>Why &lt;svg&gt; sprites still win</title><link>https://example.com/b</link><pubDate>Fri, 20 Nov 2026 09:00:00 GMT</pubDate></item>
</channel></rss>`;
    const rows = rss.normalize(rss.parse(body), { url: "https://example.com/feed", now: NOW, meta: { name: "Dev blog", categories: ["press"] } });
    expect(rows.map((r) => r.title)).toEqual(["Using the <template> element for faster rendering", "Why sprites still win"]);
  });
});
