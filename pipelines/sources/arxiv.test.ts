import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PREPRINT_CATEGORIES } from "../feeds/papers-preprint-recent.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import { ArxivApiError, ArxivParseError, PREPRINT_SUMMARY_MAX, arxiv, arxivCategoryUrl, parseArxiv, splitArxivId } from "./arxiv.ts";

const fixture = (url: string) => `pipelines/fixtures/${replayPathFor(url)}`;
const read = (url: string) => readFileSync(fixture(url), "utf8");

/** Recorded edge cases: arXiv's error feed, an empty result, a body cut off mid-entry. */
const ARXIV_ERROR_URL = "https://export.arxiv.org/api/query?id_list=2611.1337x&max_results=50";
const ARXIV_EMPTY_URL = "https://export.arxiv.org/api/query?search_query=cat:cs.AI+AND+ti:zzqxvw&sortBy=submittedDate&sortOrder=descending&max_results=50";
const ARXIV_TRUNCATED_URL = "https://export.arxiv.org/api/query?search_query=cat:cs.CV&sortBy=submittedDate&sortOrder=descending&start=50&max_results=50";

testSource(
  arxiv,
  PREPRINT_CATEGORIES.map((category) => ({ url: arxivCategoryUrl(category), fixture: fixture(arxivCategoryUrl(category)), meta: { category }, minRows: 10 })),
);

const NOW = new Date("2026-11-20T12:00:00Z");
const run = (category: string) => arxiv.normalize(arxiv.parse(read(arxivCategoryUrl(category))), { now: NOW, meta: { category } });

describe("arxiv", () => {
  it("arxivCategoryUrl() lists a category newest first, 50 results", () => {
    expect(arxivCategoryUrl("cs.LG")).toBe("https://export.arxiv.org/api/query?search_query=cat:cs.LG&sortBy=submittedDate&sortOrder=descending&max_results=50");
  });

  it("parse() reads totalResults and entries with authors, categories and the primary category", () => {
    const parsed = parseArxiv(read(arxivCategoryUrl("cs.AI")));
    expect(parsed.totalResults).toBe(139871);
    expect(parsed.entries).toHaveLength(14);
    const revised = parsed.entries.find((e) => e.id.includes("2611.13377"))!;
    expect(revised.authors).toEqual(["Ana Lima", "Jakob Weiss", "Mei Chen"]);
    expect(revised.categories).toEqual(["cs.AI", "cs.CL", "cs.LG"]);
    expect(revised.primaryCategory).toBe("cs.AI");
  });

  it("normalize() strips the version from the id and keeps it apart", () => {
    const ai = run("cs.AI").find((p) => p.id === "2611.13377")!;
    const lg = run("cs.LG").find((p) => p.id === "2611.13377")!;
    expect(ai.version).toBe(1);
    expect(lg.version).toBe(2);
    expect(lg.url).toBe("https://arxiv.org/abs/2611.13377v2");
    expect(lg.pdfUrl).toBe("https://arxiv.org/pdf/2611.13377v2");
    expect(lg.updatedAt).toBe("2026-11-20T09:15:33.000Z");
    expect(lg.publishedAt).toBe("2026-11-19T17:42:10.000Z");
    expect(lg.listedIn).toEqual(["cs.LG"]);
  });

  it("normalize() collapses wrapped lines, keeps LaTeX and clips summaries to 500 characters", () => {
    const cl = run("cs.CL");
    expect(cl.find((p) => p.id === "2611.13012")!.title).toBe("Benchmarking Tokenizers for Multilingual Retrieval");
    const all = PREPRINT_CATEGORIES.flatMap(run);
    expect(all.every((p) => p.summary.length <= PREPRINT_SUMMARY_MAX && !p.summary.includes("\n"))).toBe(true);
    const body = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2611.00002v1</id><title>Bounds</title>
      <summary>We prove an $\\mathcal{O}(n \\log n)$ bound when $k &lt; n$ and
      the &lt;b&gt;graph&lt;/b&gt; is sparse.</summary><published>2026-11-19T10:00:00Z</published><category term="cs.DS"/></entry></feed>`;
    const [latex] = arxiv.normalize(parseArxiv(body), { now: NOW, meta: { category: "cs.AI" } });
    expect(latex!.summary).toBe("We prove an $\\mathcal{O}(n \\log n)$ bound when $k < n$ and the graph is sparse.");
    expect(latex!.primaryCategory).toBe("cs.DS");
    expect(latex!.authors).toEqual([]);
    const long = all.filter((p) => p.summary.endsWith("…"));
    expect(long.length).toBeGreaterThan(0);
  });

  it("normalize() keeps a DOI when the entry has one", () => {
    const withDoi = PREPRINT_CATEGORIES.flatMap(run).filter((p) => p.doi !== null);
    expect(withDoi.length).toBeGreaterThan(0);
    expect(withDoi[0]!.doi).toMatch(/^10\.\d+\//);
  });

  it("parse() and normalize() keep a DOI and a primary category only in their own syntax", () => {
    const entry = (extra: string) =>
      `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"><entry><id>http://arxiv.org/abs/2611.00003v1</id><title>T</title>
      <published>2026-11-19T10:00:00Z</published><category term="cs.LG"/><category term="I.2.6"/>${extra}</entry></feed>`;
    const one = (extra: string) => arxiv.normalize(parseArxiv(entry(extra)), { now: NOW, meta: { category: "cs.AI" } })[0]!;
    const hostile = one(`<arxiv:doi>10.1/x&lt;script&gt;${"y".repeat(3000)}</arxiv:doi><arxiv:primary_category term="&lt;b&gt;cs.AI"/>`);
    expect(hostile.doi).toBeNull();
    expect(hostile.primaryCategory).toBe("cs.LG");
    for (const doi of ["10.1234/x y", `10.1234/${"y".repeat(200)}`, "10.123/abc", "doi:10.1234/abc"]) expect(one(`<arxiv:doi>${doi}</arxiv:doi>`).doi).toBeNull();
    expect(one("<arxiv:doi>10.1002/(SICI)1097-4636(199812)43:4&lt;404::AID-JBM7&gt;3.0.CO;2-T</arxiv:doi>").doi).toBe("10.1002/(SICI)1097-4636(199812)43:4<404::AID-JBM7>3.0.CO;2-T");
    expect(one("<arxiv:doi> 10.1109/ICSTW58534.2023.00023 </arxiv:doi>").doi).toBe("10.1109/ICSTW58534.2023.00023");
    for (const term of ["cs.AI", "math.CO", "hep-th", "physics.comp-ph", "q-bio.NC", "stat.ML", "eess.SP", "cond-mat.mes-hall"]) {
      expect(one(`<arxiv:primary_category term="${term}"/>`).primaryCategory).toBe(term);
    }
    for (const term of ["cs.AI javascript:x", "CS.AI", "cs.", `cs.${"a".repeat(60)}`]) expect(one(`<arxiv:primary_category term="${term}"/>`).primaryCategory).toBe("cs.LG");
    const onlyOdd = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2611.00004v1</id><title>T</title><published>2026-11-19T10:00:00Z</published><category term="&lt;i&gt;x"/></entry></feed>`;
    expect(arxiv.normalize(parseArxiv(onlyOdd), { now: NOW, meta: { category: "cs.AI" } })[0]!.primaryCategory).toBe("cs.AI");
  });

  it("normalize() drops only the entry with an unusable published date and falls back on published for a bad updated", () => {
    const recorded = read(arxivCategoryUrl("cs.AI"));
    const before = run("cs.AI");
    const published = [...recorded.matchAll(/<entry>[\s\S]*?<published>([^<]*)<\/published>/g)].map((m) => m[1]!);
    const updated = [...recorded.matchAll(/<entry>[\s\S]*?<updated>([^<]*)<\/updated>/g)].map((m) => m[1]!);
    expect(published.length).toBeGreaterThanOrEqual(3);
    // The second entry gets an expanded-year published date, the third an updated date two days ahead.
    const entries = recorded.split("<entry>");
    entries[2] = entries[2]!.replace(`<published>${published[1]}</published>`, "<published>+010000-01-01T00:00:00Z</published>");
    entries[3] = entries[3]!.replace(`<updated>${updated[2]}</updated>`, "<updated>2026-11-22T12:00:01Z</updated>");
    const after = arxiv.normalize(arxiv.parse(entries.join("<entry>")), { now: NOW, meta: { category: "cs.AI" } });
    for (const p of after) expect(() => arxiv.row.parse(p)).not.toThrow();
    expect(after.map((p) => p.id)).toEqual(before.filter((_, i) => i !== 1).map((p) => p.id));
    expect(after[1]).toEqual({ ...before[2]!, updatedAt: before[2]!.publishedAt });
    expect(after.slice(2)).toEqual(before.slice(3));
  });

  it("parse() throws ArxivApiError on arXiv's error feed", () => {
    expect(() => parseArxiv(read(ARXIV_ERROR_URL))).toThrow(ArxivApiError);
    expect(() => parseArxiv(read(ARXIV_ERROR_URL))).toThrow("incorrect id format for 2611.1337x");
  });

  it("parse() reads an empty result as zero entries", () => {
    const parsed = parseArxiv(read(ARXIV_EMPTY_URL));
    expect(parsed).toEqual({ totalResults: 0, entries: [], skipped: 0 });
    expect(arxiv.normalize(parsed, { now: NOW, meta: { category: "cs.AI" } })).toEqual([]);
  });

  it("parse() throws ArxivParseError on a truncated body", () => {
    expect(() => parseArxiv(read(ARXIV_TRUNCATED_URL))).toThrow(ArxivParseError);
    expect(() => parseArxiv(read(ARXIV_TRUNCATED_URL))).toThrow(/not well-formed XML/);
  });

  it("parse() rejects a well-formed document that is not an Atom feed", () => {
    expect(() => parseArxiv("<html><body>Service Unavailable</body></html>")).toThrow(/not an Atom feed/);
  });

  it("splitArxivId() handles new and old style ids with and without a version", () => {
    expect(splitArxivId("http://arxiv.org/abs/2611.01234v12")).toEqual({ id: "2611.01234", version: 12 });
    expect(splitArxivId("https://arxiv.org/abs/2611.01234")).toEqual({ id: "2611.01234", version: 1 });
    expect(splitArxivId("http://arxiv.org/abs/hep-th/9901001v2")).toEqual({ id: "hep-th/9901001", version: 2 });
    expect(splitArxivId("http://arxiv.org/abs/math.GT/0309136v1")).toEqual({ id: "math.GT/0309136", version: 1 });
    expect(splitArxivId("http://arxiv.org/api/errors#bad")).toBeUndefined();
  });
});
