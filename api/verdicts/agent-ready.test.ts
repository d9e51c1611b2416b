import { describe, expect, it } from "vitest";
import type { WebReadinessDomain } from "../../pipelines/contract/snapshots/web-readiness.ts";
import { agentReady, READINESS_WEIGHTS, readinessOf, readinessSummary, tierOf } from "./agent-ready.ts";

const USER = ["Claude-User"];

/** A crawled domain with every surface absent. */
function domain(over: Partial<WebReadinessDomain> = {}): WebReadinessDomain {
  return { domain: "a.example", sector: "commerce", robotsStatus: "present", bots: {}, llmsTxt: "absent", llmsTxtBytes: null, aiTxt: "absent", aiTxtBytes: null, agentJson: "absent", openapi: "absent", x402: "absent", x402Payees: [], x402Resources: null, fairTrade: "unknown", ...over };
}
const open = { GPTBot: "blocked", "Claude-User": "allowed" } as const;

describe("agent-ready", () => {
  it("weights sum to 100", () => {
    expect(Object.values(READINESS_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it("places every tier boundary", () => {
    expect([0, 19, 20, 44, 45, 69, 70, 100].map(tierOf)).toEqual(["closed", "closed", "emerging", "emerging", "ready", "ready", "advanced", "advanced"]);
  });

  it("scores each surface with its weight", () => {
    const base = { bots: { "Claude-User": "blocked" } } as const;
    expect(readinessOf(domain(base), USER)!.score).toBe(0);
    expect(readinessOf(domain({ ...base, x402: "present" }), USER)!.score).toBe(25);
    expect(readinessOf(domain({ ...base, agentJson: "present" }), USER)!.score).toBe(20);
    expect(readinessOf(domain({ ...base, openapi: "present" }), USER)!.score).toBe(20);
    expect(readinessOf(domain({ ...base, llmsTxt: "present" }), USER)!.score).toBe(15);
    expect(readinessOf(domain({ ...base, aiTxt: "present" }), USER)!.score).toBe(5);
    expect(readinessOf(domain({ bots: open }), USER)).toEqual({ score: 15, tier: "closed", surfaces: { x402: false, agentJson: false, openapi: false, llmsTxt: false, crawlable: true, aiTxt: false } });
  });

  it("gives 100 and advanced to a domain with every surface", () => {
    const r = readinessOf(domain({ bots: open, x402: "present", agentJson: "present", openapi: "present", llmsTxt: "present", aiTxt: "present" }), USER)!;
    expect(r).toMatchObject({ score: 100, tier: "advanced" });
  });

  it("is not crawlable when a user-fetch bot is blocked or unknown; partial and a missing robots.txt are crawlable", () => {
    expect(readinessOf(domain({ bots: { "Claude-User": "partial" } }), USER)!.surfaces.crawlable).toBe(true);
    expect(readinessOf(domain({ robotsStatus: "missing", bots: { "Claude-User": "allowed" } }), USER)!.surfaces.crawlable).toBe(true);
    expect(readinessOf(domain({ bots: { "Claude-User": "unknown" } }), USER)!.surfaces.crawlable).toBe(false);
  });

  it("counts unknown surfaces as 0 and leaves unreachable domains unscored", () => {
    expect(readinessOf(domain({ bots: open, x402: "unknown", llmsTxt: "unknown" }), USER)!.score).toBe(15);
    const v = agentReady([domain({ robotsStatus: "unreachable" }), domain({ domain: "b.example", bots: open })], USER);
    expect(v.unscored).toBe(1);
    expect(v.domains.map((d) => d.domain)).toEqual(["b.example"]);
  });

  it("summarizes tiers, surfaces, mean score and sectors", () => {
    const v = agentReady(
      [domain({ bots: open, x402: "present", agentJson: "present", openapi: "present" }), domain({ sector: "ai-lab", bots: { "Claude-User": "blocked" } })],
      USER,
    );
    expect(readinessSummary(v.domains)).toEqual({
      domains: 2,
      meanScore: 40,
      tiers: { closed: 1, emerging: 0, ready: 0, advanced: 1 },
      surfaces: { x402: 1, agentJson: 1, openapi: 1, llmsTxt: 0, crawlable: 1, aiTxt: 0 },
      bySector: { "ai-lab": { domains: 1, meanScore: 0 }, commerce: { domains: 1, meanScore: 80 } },
    });
    expect(readinessSummary([]).meanScore).toBeNull();
  });
});
