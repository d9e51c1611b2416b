import { describe, expect, it } from "vitest";
import type { WebReadinessDomain } from "../../pipelines/contract/snapshots/web-readiness.ts";
import { botCounts, crawlerAccess, crawlerStats, pct } from "./crawler-access.ts";

/** A crawled domain with every surface absent and two bots. */
function domain(over: Partial<WebReadinessDomain> = {}): WebReadinessDomain {
  return {
    domain: "a.example",
    sector: "commerce",
    robotsStatus: "present",
    bots: { GPTBot: "allowed", ClaudeBot: "allowed" },
    llmsTxt: "absent",
    llmsTxtBytes: null,
    aiTxt: "absent",
    aiTxtBytes: null,
    agentJson: "absent",
    openapi: "absent",
    x402: "absent",
    x402Payees: [],
    x402Resources: null,
    fairTrade: "unknown",
    ...over,
  };
}

describe("crawlerAccess", () => {
  it("pct rounds to 1 decimal and is null without a denominator", () => {
    expect(pct(1, 3)).toBe(33.3);
    expect(pct(2, 3)).toBe(66.7);
    expect(pct(0, 0)).toBeNull();
  });

  it("maps each domain: presence true, false or null (unknown), size kept, checkedAt from the crawl", () => {
    const v = crawlerAccess(
      [domain({ llmsTxt: "present", llmsTxtBytes: 120, aiTxt: "unknown" }), domain({ domain: "b.example", robotsStatus: "unreachable", bots: { GPTBot: "unknown", ClaudeBot: "unknown" }, llmsTxt: "unknown", aiTxt: "unknown" })],
      "2026-11-23T04:13:00.000Z",
    );
    expect(v.domains[0]).toEqual({ domain: "a.example", sector: "commerce", checkedAt: "2026-11-23T04:13:00.000Z", robotsStatus: "present", bots: { GPTBot: "allowed", ClaudeBot: "allowed" }, hasLlmsTxt: true, hasAiTxt: null, llmsTxtBytes: 120 });
    expect(v.domains[1]).toMatchObject({ hasLlmsTxt: null, hasAiTxt: null, robotsStatus: "unreachable" });
  });

  it("counts blocked and allowed shares over known pairs only; partial counts in the denominator", () => {
    const s = crawlerStats([
      domain({ bots: { GPTBot: "blocked", ClaudeBot: "partial" } }),
      domain({ bots: { GPTBot: "allowed", ClaudeBot: "unknown" } }),
    ]);
    expect(s).toEqual({ domains: 2, domainsWithData: 2, botBlockedPct: 33.3, botAllowedPct: 33.3, llmsTxtAdoptionPct: 0, aiTxtAdoptionPct: 0 });
  });

  it("leaves unreachable domains out of domainsWithData and unknown files out of adoption", () => {
    const s = crawlerStats([
      domain({ robotsStatus: "missing", llmsTxt: "present", aiTxt: "present" }),
      domain({ robotsStatus: "unreachable", bots: { GPTBot: "unknown" }, llmsTxt: "unknown", aiTxt: "unknown" }),
      domain({ llmsTxt: "absent", aiTxt: "unknown" }),
    ]);
    expect(s.domainsWithData).toBe(2);
    expect(s.llmsTxtAdoptionPct).toBe(50);
    expect(s.aiTxtAdoptionPct).toBe(100);
  });

  it("gives null percentages when nothing is known", () => {
    const s = crawlerStats([domain({ robotsStatus: "unreachable", bots: { GPTBot: "unknown" }, llmsTxt: "unknown", aiTxt: "unknown" })]);
    expect(s).toEqual({ domains: 1, domainsWithData: 0, botBlockedPct: null, botAllowedPct: null, llmsTxtAdoptionPct: null, aiTxtAdoptionPct: null });
    expect(crawlerStats([])).toMatchObject({ domains: 0, botBlockedPct: null });
  });

  it("computes statistics per sector, sectors sorted", () => {
    const v = crawlerAccess([domain({ sector: "news-media", bots: { GPTBot: "blocked" } }), domain({ sector: "ai-lab", bots: { GPTBot: "allowed" } })], "t");
    expect(Object.keys(v.stats.bySector)).toEqual(["ai-lab", "news-media"]);
    expect(v.stats.bySector["news-media"]!.botBlockedPct).toBe(100);
    expect(v.stats.bySector["ai-lab"]!.botAllowedPct).toBe(100);
    expect(v.stats.botBlockedPct).toBe(50);
  });

  it("counts every access value per bot", () => {
    expect(botCounts([domain({ bots: { GPTBot: "blocked" } }), domain({ bots: { GPTBot: "partial" } }), domain({ bots: { GPTBot: "unknown" } }), domain({ bots: { GPTBot: "allowed" } })])).toEqual({
      GPTBot: { allowed: 1, blocked: 1, partial: 1, unknown: 1 },
    });
  });
});
