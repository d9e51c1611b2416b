import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testSource } from "../lib/testing/contract.ts";
import type { StatusMeta } from "./status-common.ts";
import { rssStatusSource } from "./status-rss.ts";

const F = "pipelines/fixtures";
const XAI = `${F}/status.x.ai/feed.xml`;
const AZURE = `${F}/rssfeed.azure.status.microsoft/en-us/status/feed/index`;
const DEEPSEEK = `${F}/status.deepseek.com/history.rss`;
const NOW = new Date("2026-11-22T10:00:00Z");
const xai: StatusMeta = { provider: "xai", name: "xAI", statusPageUrl: "https://status.x.ai", activeHours: 24 };
const azure: StatusMeta = { provider: "azure-openai", name: "Azure OpenAI", statusPageUrl: "https://azure.status.microsoft/en-us/status", components: ["Azure OpenAI"] };
const deepseek: StatusMeta = { provider: "deepseek", name: "DeepSeek", statusPageUrl: "https://status.deepseek.com", activeHours: 24 };
const run = (body: string, m: StatusMeta, now = NOW) => rssStatusSource.normalize(rssStatusSource.parse(body), { url: "u", now, meta: m })[0]!;

testSource(rssStatusSource, [
  { fixture: XAI, url: "https://status.x.ai/feed.xml", meta: xai, now: NOW },
  { fixture: AZURE, url: "https://rssfeed.azure.status.microsoft/en-us/status/feed/", meta: azure, now: NOW },
  { fixture: DEEPSEEK, url: "https://status.deepseek.com/history.rss", meta: deepseek, now: NOW },
]);

describe("rss status source", () => {
  it("parse() reads Atom entries with their categories and dates", () => {
    const items = rssStatusSource.parse(readFileSync(XAI, "utf8"));
    expect(items).toHaveLength(3);
    expect(items[0]!.title).toBe("Elevated error rates for grok-4 on the API");
    expect(items[0]!.categories).toEqual(["API"]);
    expect(items[0]!.date).toBe("2026-11-21T18:44:10.000Z");
  });

  it("parse() reads RSS items with repeated categories", () => {
    const items = rssStatusSource.parse(readFileSync(AZURE, "utf8"));
    expect(items.map((i) => i.categories)).toEqual([["Storage", "West Europe"], ["Azure Kubernetes Service", "East US 2"]]);
  });

  it("normalize() ignores resolved items and unresolved items older than activeHours", () => {
    const e = run(readFileSync(XAI, "utf8"), xai);
    expect(e.status).toBe("operational");
    // Without the window, the unresolved 2026-11-09 item counts as current.
    expect(run(readFileSync(XAI, "utf8"), { ...xai, activeHours: undefined } as StatusMeta).status).toBe("degraded");
  });

  it("normalize() counts only items naming a catalog keyword", () => {
    const body = readFileSync(AZURE, "utf8");
    expect(run(body, azure)).toMatchObject({ status: "operational", components: [{ name: "Azure OpenAI", status: "operational" }] });
    const withOpenAi = body.replace("<category>Storage</category>", "<category>Azure OpenAI</category>");
    expect(run(withOpenAi, azure)).toMatchObject({ status: "degraded", components: [{ name: "Azure OpenAI", status: "degraded" }] });
  });

  it("normalize() never reports down from a feed", () => {
    const body = `<rss version="2.0"><channel><title>t</title><item><title>Major outage: API down</title><description>All requests failing</description></item></channel></rss>`;
    expect(run(body, { ...deepseek, activeHours: undefined } as StatusMeta).status).toBe("degraded");
  });

  it("parse() rejects XML that is neither RSS nor Atom, and non-XML", () => {
    expect(() => rssStatusSource.parse("<html><body>hi</body></html>")).toThrow(/neither RSS/);
    expect(() => rssStatusSource.parse("<rss><channel>")).toThrow(/well-formed/);
  });
});
