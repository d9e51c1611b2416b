import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, type ClosableHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { HttpClient } from "../lib/types.ts";
import { MODELHUB_DAILY_PAPERS_URL } from "../sources/modelhub.ts";
import { PapersModelhubDailyError, papersModelhubDailyFeed, papersModelhubDailySnapshotSchema } from "./papers-modelhub-daily.ts";

const NOW = new Date("2026-11-20T14:30:00Z");
const ctxFor = (http: HttpClient) => ({ ...testFeedContext({ http, now: NOW }), provenance: "replay" as const });

describe("papersModelhubDailyFeed with the replay client", () => {
  let http: ClosableHttpClient;
  beforeAll(() => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
  });
  afterAll(() => http.close());

  it("run() lists the daily papers by upvotes with comment counts, passing the strict schema", async () => {
    const out = await papersModelhubDailyFeed.run(ctxFor(http));
    papersModelhubDailySnapshotSchema.parse(out.data);
    expect(out.rows).toBe(10);
    expect(out.sources).toEqual([{ id: "modelhub-daily-papers", ok: true, rows: 10 }]);
    expect(out.data.papers.map((p) => p.upvotes)).toEqual([142, 118, 97, 97, 78, 64, 55, 41, 23, 0]);
    expect(out.data.papers[2]).toMatchObject({ id: "2611.12503", comments: 11 });
  });

  it("schema rejects papers out of upvote order", async () => {
    const out = await papersModelhubDailyFeed.run(ctxFor(http));
    const reversed = { papers: [...out.data.papers].reverse() };
    expect(papersModelhubDailySnapshotSchema.safeParse(reversed).success).toBe(false);
  });

  it("run() fails with a named error when the listing fails or is not an array", async () => {
    const down: HttpClient = {
      getText: async (url) => { throw new Error(`GET ${url} failed: 502 Bad Gateway`); },
      getJson: async (url) => { throw new Error(`GET ${url} failed: 502 Bad Gateway`); },
    };
    await expect(papersModelhubDailyFeed.run(ctxFor(down))).rejects.toThrow(PapersModelhubDailyError);
    const html: HttpClient = {
      getText: async (url) => ({ url, status: 200, headers: new Headers(), body: '{"error":"Rate limited"}', fromCache: false }),
      getJson: async () => { throw new Error("unused"); },
    };
    await expect(papersModelhubDailyFeed.run(ctxFor(html))).rejects.toThrow(/not a JSON array: Rate limited/);
  });

  it("urls() lists the daily papers endpoint; the feed runs daily at 14:30 UTC", () => {
    expect(papersModelhubDailyFeed.urls()).toEqual([MODELHUB_DAILY_PAPERS_URL]);
    expect(papersModelhubDailyFeed.cron).toBe("30 14 * * *");
  });
});
