import { describe, expect, it } from "vitest";
import { KNOWN_BOTS, recognizeBot } from "./known-bots.ts";
import { createVerifier, RangesFile } from "./crawler-ranges.ts";
import { ActivityTracker } from "./tracker.ts";

describe("recognizeBot()", () => {
  it("recognizeBot() finds documented AI crawler and agent tokens in real User-Agent strings", () => {
    expect(recognizeBot("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)")?.token).toBe("GPTBot");
    expect(recognizeBot("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot")?.token).toBe("ChatGPT-User");
    expect(recognizeBot("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)")?.operator).toBe("Anthropic");
    expect(recognizeBot("Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)")?.kind).toBe("search");
    expect(recognizeBot("CCBot/2.0 (https://commoncrawl.org/faq/)")?.token).toBe("CCBot");
  });

  it("recognizeBot() knows every listed token in any case, and the first listed when a User-Agent names several", () => {
    for (const bot of KNOWN_BOTS) {
      expect(recognizeBot(`Mozilla/5.0 (compatible; ${bot.token}/1.0; +https://example.test/bot)`)?.token, bot.token).toBe(bot.token);
      expect(recognizeBot(bot.token.toUpperCase())?.token, bot.token).toBe(bot.token);
      expect(recognizeBot(`x${bot.token}`), bot.token).toBeUndefined();
    }
    expect(recognizeBot("Mozilla/5.0 (compatible; CCBot/2.0) GPTBot/1.2")?.token).toBe("GPTBot");
  });

  it("recognizeBot() ignores browsers, ordinary tools and tokens inside longer words", () => {
    expect(recognizeBot("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36")).toBeUndefined();
    expect(recognizeBot("curl/8.5.0")).toBeUndefined();
    expect(recognizeBot("NotGPTBotReally/1.0")).toBeUndefined();
    expect(recognizeBot(undefined)).toBeUndefined();
  });
});

describe("ActivityTracker", () => {
  it("record() counts known bots only and keeps the newest first, each marked claimed without ranges", () => {
    const t = new ActivityTracker({ recentLimit: 2 });
    const at = (m: number) => new Date(Date.UTC(2026, 10, 22, 10, m));
    expect(t.record("GPTBot/1.2", "/api/news", { now: at(1) })).toBe("GPTBot");
    expect(t.record("curl/8", "/api/news", { now: at(2) })).toBeUndefined();
    t.record("ClaudeBot/1.0", "/api/status", { now: at(3) });
    t.record("GPTBot/1.2", "/api/models", { now: at(4), address: "20.171.206.7" });
    const r = t.report(at(5));
    expect(r.today_count).toBe(3);
    expect(r.by_bot).toEqual({ GPTBot: 2, ClaudeBot: 1 });
    expect(r.recent).toEqual([
      { bot: "GPTBot", endpoint: "/api/models", timestamp: at(4).toISOString(), verified: false },
      { bot: "ClaudeBot", endpoint: "/api/status", timestamp: at(3).toISOString(), verified: false },
    ]);
    expect(r.verified_count).toBe(0);
    expect(r.verification.verified_bots).toEqual([]);
    expect(r.last_updated).toBe(at(4).toISOString());
  });

  it("report() starts a new UTC day from zero but keeps the recent list", () => {
    const t = new ActivityTracker();
    t.record("GPTBot/1.2", "/api/news", { now: new Date("2026-11-22T23:59:00Z") });
    const next = t.report(new Date("2026-11-23T00:01:00Z"));
    expect(next.today_count).toBe(0);
    expect(next.day).toBe("2026-11-23");
    expect(next.by_bot).toEqual({});
    expect(next.recent).toHaveLength(1);
  });
});

describe("createVerifier()", () => {
  // Documentation ranges (RFC 5737 / RFC 3849), not any operator's real addresses.
  const ranges = RangesFile.parse({
    GPTBot: { source: "test file", fetched: "2026-11-23", prefixes: [{ ipv4Prefix: "192.0.2.0/24" }, { ipv6Prefix: "2001:db8::/32" }] },
  });

  it("createVerifier() verifies an address inside the bot's ranges only, for that bot only", () => {
    const v = createVerifier(ranges);
    expect(v.verifiable).toEqual(["GPTBot"]);
    expect(v.verify("GPTBot", "192.0.2.44")).toBe(true);
    expect(v.verify("GPTBot", "::ffff:192.0.2.44")).toBe(true);
    expect(v.verify("GPTBot", "2001:db8::1")).toBe(true);
    expect(v.verify("GPTBot", "198.51.100.1")).toBe(false);
    expect(v.verify("ClaudeBot", "192.0.2.44")).toBe(false);
    expect(v.verify("GPTBot", "not an address")).toBe(false);
  });

  it("ActivityTracker marks a request verified when its address matches and counts it", () => {
    const t = new ActivityTracker({ verifier: createVerifier(ranges) });
    t.record("GPTBot/1.2", "/api/news", { address: "192.0.2.9" });
    t.record("GPTBot/1.2", "/api/news", { address: "203.0.113.9" });
    const r = t.report();
    expect(r.today_count).toBe(2);
    expect(r.verified_count).toBe(1);
    expect(r.recent.map((x) => x.verified)).toEqual([false, true]);
    expect(r.verification.sources).toEqual({ GPTBot: { source: "test file", fetched: "2026-11-23" } });
  });

  it("ActivityTracker resolves an address given as a function only for a known bot", () => {
    const t = new ActivityTracker({ verifier: createVerifier(ranges) });
    const asked: string[] = [];
    const address = (ip: string) => () => {
      asked.push(ip);
      return ip;
    };
    expect(t.record("Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0", "/api/news", { address: address("192.0.2.1") })).toBeUndefined();
    expect(t.record(null, "/api/news", { address: address("192.0.2.2") })).toBeUndefined();
    expect(asked).toEqual([]);
    expect(t.record("GPTBot/1.2", "/api/news", { address: address("192.0.2.9") })).toBe("GPTBot");
    expect(asked).toEqual(["192.0.2.9"]);
    expect(t.report().verified_count).toBe(1);
  });
});
