import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AI_BOTS, WEB_DOMAINS } from "../catalog/web-domains.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures, type Recording } from "../lib/testing/replay-fixtures.ts";
import { crawlDomain, runWebReadiness, webReadinessFeed, webReadinessRows } from "./web-readiness.ts";

const NOW = new Date("2026-11-23T04:13:00Z");
const fixtures = replayFixtures();
const client = fixtures.client;

/** A replay folder holding only `files`. */
const replay = (files: Record<string, Recording>): string => fixtures.replayOf("web-readiness-", files);

const site = { domain: "example.com", sector: "commerce" } as const;
const nf: [number, string] = [404, "Not Found"];

describe("webReadinessFeed", () => {
  it("declares a weekly crawl with an 8-day SLA and six URLs per domain", () => {
    expect(webReadinessFeed.slaSeconds).toBe(8 * 86_400);
    expect(webReadinessFeed.urls()).toHaveLength(WEB_DOMAINS.length * 6);
    expect(WEB_DOMAINS.length).toBeGreaterThanOrEqual(100);
  });

  it("replays every curated domain from the recorded fixtures, with warehouse rows per domain and per bot", async () => {
    const out = await runWebReadiness(testFeedContext({ http: client("pipelines/fixtures"), now: NOW }));
    expect(out.data.domains).toHaveLength(WEB_DOMAINS.length);
    const nyt = out.data.domains.find((d) => d.domain === "nytimes.com")!;
    expect(nyt.bots.GPTBot).toBe("blocked");
    expect(nyt.robotsStatus).toBe("present");
    const [daily, bots, payees] = out.warehouse!;
    expect(payees!.table).toBe("x402_publishers_daily");
    expect(payees!.rows.find((r) => r["domain"] === "base.org")).toMatchObject({ network: "eip155:8453" });
    expect(daily!.rows).toHaveLength(WEB_DOMAINS.length);
    expect(bots!.rows).toHaveLength(WEB_DOMAINS.length * AI_BOTS.length);
    expect(out.data.domains.some((d) => d.robotsStatus === "unreachable")).toBe(true);
  });

  it("reads each surface, its size, and calls a soft-404 HTML page absent", async () => {
    const dir = replay({
      "https://example.com/robots.txt": "User-agent: GPTBot\nDisallow: /\n",
      "https://example.com/llms.txt": "# Example\n\n> hi\n",
      "https://example.com/ai.txt": "<!doctype html><html></html>",
      "https://example.com/.well-known/agent.json": '{"name":"Ex"}',
      "https://example.com/openapi.json": nf,
      "https://example.com/.well-known/x402": '{"x402Version":2,"items":[]}',
    });
    const { result } = await crawlDomain(testFeedContext({ http: client(dir), now: NOW }), site);
    expect(result).toMatchObject({ robotsStatus: "present", llmsTxt: "present", llmsTxtBytes: 16, aiTxt: "absent", agentJson: "present", openapi: "absent", x402: "present" });
    expect(result.bots.GPTBot).toBe("blocked");
    expect(result.bots.ClaudeBot).toBe("allowed");
  });

  it("reads an x402 publisher's offer and its fair-trade manifest, and writes its registry row", async () => {
    const discovery = JSON.stringify({
      x402Version: 2,
      items: [
        { resource: "https://api.example.com/a", accepts: [{ scheme: "exact", network: "eip155:8453", amount: "10000", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C" }] },
        { resource: "https://partner.example.org/b", accepts: [{ scheme: "exact", network: "eip155:84532", amount: "0", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C" }] },
      ],
    });
    const manifest = JSON.stringify({ standard: "agent-fair-trade", version: "1.0", publisher: { name: "Example", url: "https://example.com" }, no_charge_guarantees: ["no charge on 5xx"] });
    const files = { "https://example.com/robots.txt": "User-agent: *\nAllow: /\n", "https://example.com/.well-known/x402": discovery };
    const withManifest = await crawlDomain(testFeedContext({ http: client(replay({ ...files, "https://example.com/.well-known/agent-fair-trade.json": manifest })), now: NOW }), site);
    expect(withManifest.result).toMatchObject({ x402: "present", x402Resources: { paid: 1, free: 1, federated: true }, fairTrade: "present" });
    const without = await crawlDomain(testFeedContext({ http: client(replay({ ...files, "https://example.com/.well-known/agent-fair-trade.json": nf })), now: NOW }), site);
    expect(without.result.fairTrade).toBe("absent");
    const unrecorded = await crawlDomain(testFeedContext({ http: client(replay(files)), now: NOW }), site);
    expect(unrecorded.result.fairTrade).toBe("unknown");

    // A document whose resources were not recorded (a body from before the registry) has null counts, not zeros.
    const older = { ...withManifest.result, domain: "older.example", x402Resources: null };
    const registry = webReadinessRows({ domains: [withManifest.result, { ...unrecorded.result, domain: "gone.example", x402: "unknown", x402Payees: [], x402Resources: null }, { ...without.result, domain: "none.example", x402: "absent" }, older] }, "2026-11-23").find((b) => b.table === "x402_registry_daily")!;
    expect(registry.rows).toEqual([
      { date: "2026-11-23", domain: "example.com", status: "ok", paid_endpoints: 1, free_endpoints: 1, federated: true, networks: "eip155:8453,eip155:84532", agent_fair_trade: true },
      { date: "2026-11-23", domain: "gone.example", status: "error", paid_endpoints: null, free_endpoints: null, federated: null, networks: null, agent_fair_trade: null },
      { date: "2026-11-23", domain: "older.example", status: "ok", paid_endpoints: null, free_endpoints: null, federated: null, networks: null, agent_fair_trade: true },
    ]);
  });

  it("reads the 402 challenges of the site's own listed resources (v2 header, v1 body), obeying each host's robots.txt", async () => {
    const discovery = JSON.stringify({
      x402Version: 2,
      items: [
        { resource: "https://api.example.com/v2", accepts: [{ scheme: "exact", network: "eip155:8453", amount: "5", payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C" }] },
        { resource: "https://example.com/v1" },
        { resource: "https://example.com/private/x" },
        { resource: "https://elsewhere.test/not-ours" },
      ],
    });
    const v2 = Buffer.from(JSON.stringify({ x402Version: 2, accepts: [{ scheme: "exact", network: "eip155:8453", amount: "5", payTo: "0x209693bc6afc0c5328ba36faf03c514ef312287c" }] })).toString("base64");
    const dir = replay({
      "https://example.com/robots.txt": "User-agent: *\nDisallow: /private/\n",
      "https://example.com/.well-known/x402": discovery,
      "https://api.example.com/robots.txt": nf,
      "https://api.example.com/v2": [402, "{}"],
      "https://example.com/v1": [402, JSON.stringify({ x402Version: 1, accepts: [{ scheme: "exact", network: "base", maxAmountRequired: "5", payTo: "0x0000000000000000000000000000000000000007" }] })],
    });
    // The v2 challenge's header rides in the fixture's sidecar.
    writeFileSync(join(dir, `${replayPathFor("https://api.example.com/v2")}.meta.json`), JSON.stringify({ status: 402, headers: { "payment-required": v2 } }));
    const { result } = await crawlDomain(testFeedContext({ http: client(dir), now: NOW }), site);
    expect(result.x402Payees).toEqual([
      { payTo: "0x0000000000000000000000000000000000000007", network: "eip155:8453", source: "challenge" },
      { payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", network: "eip155:8453", source: "both" },
    ]);
  });

  it("stores an unreachable robots.txt as unknown for every bot and surface, never allowed", async () => {
    const dir = replay({ "https://example.com/robots.txt": [500, "oops"] });
    const { result, error } = await crawlDomain(testFeedContext({ http: client(dir), now: NOW }), site);
    expect(error).toMatch(/500/);
    expect(result.robotsStatus).toBe("unreachable");
    expect(new Set(Object.values(result.bots))).toEqual(new Set(["unknown"]));
    expect([result.llmsTxt, result.aiTxt, result.agentJson, result.openapi, result.x402]).toEqual(["unknown", "unknown", "unknown", "unknown", "unknown"]);
  });

  it("treats a 4xx robots.txt as no policy (every bot allowed), and a surface whose fetch fails as unknown", async () => {
    const dir = replay({
      "https://example.com/robots.txt": nf,
      "https://example.com/llms.txt": [500, "x"],
      "https://example.com/ai.txt": nf,
      "https://example.com/.well-known/agent.json": nf,
      "https://example.com/openapi.json": nf,
      "https://example.com/.well-known/x402": nf,
    });
    const { result } = await crawlDomain(testFeedContext({ http: client(dir), now: NOW }), site);
    expect(result.robotsStatus).toBe("missing");
    expect(result.bots.GPTBot).toBe("allowed");
    expect(result.llmsTxt).toBe("unknown");
    expect(result.aiTxt).toBe("absent");
  });

  it("obeys the site's robots.txt for its own agent: disallowed paths are not fetched and stay unknown", async () => {
    // No fixture but robots.txt: any surface request would fail as replay_missing, which is also unknown, so check ai.txt is read when allowed.
    const dir = replay({ "https://example.com/robots.txt": "User-agent: agentfeed\nDisallow: /\nAllow: /ai.txt\n", "https://example.com/ai.txt": "User-Agent: *\nDisallow: /\n" });
    const { result } = await crawlDomain(testFeedContext({ http: client(dir), now: NOW }), site);
    expect(result.aiTxt).toBe("present");
    expect([result.llmsTxt, result.agentJson, result.openapi, result.x402]).toEqual(["unknown", "unknown", "unknown", "unknown"]);
  });

  it("fails the run only when every robots.txt is unreachable", async () => {
    const dir = replay({ "https://example.com/robots.txt": [500, "x"] });
    await expect(runWebReadiness(testFeedContext({ http: client(dir), now: NOW }), [site])).rejects.toThrow(/unreachable/);
  });
});
