import { describe, expect, it } from "vitest";
import { recognizeBot } from "./known-bots.ts";
import { ActivityTracker } from "./tracker.ts";

describe("recognizeBot()", () => {
  it("recognizeBot() finds documented AI crawler and agent tokens in real User-Agent strings", () => {
    expect(recognizeBot("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)")?.token).toBe("GPTBot");
    expect(recognizeBot("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot")?.token).toBe("ChatGPT-User");
    expect(recognizeBot("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)")?.operator).toBe("Anthropic");
    expect(recognizeBot("Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)")?.kind).toBe("search");
    expect(recognizeBot("CCBot/2.0 (https://commoncrawl.org/faq/)")?.token).toBe("CCBot");
  });

  it("recognizeBot() ignores browsers, ordinary tools and tokens inside longer words", () => {
    expect(recognizeBot("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36")).toBeUndefined();
    expect(recognizeBot("curl/8.5.0")).toBeUndefined();
    expect(recognizeBot("NotGPTBotReally/1.0")).toBeUndefined();
    expect(recognizeBot(undefined)).toBeUndefined();
  });
});

describe("ActivityTracker", () => {
  it("record() counts known bots only, keeps the newest first and drops query strings", () => {
    const t = new ActivityTracker({ recentLimit: 2 });
    const at = (m: number) => new Date(Date.UTC(2026, 10, 22, 10, m));
    expect(t.record("GPTBot/1.2", "/api/news?limit=5", at(1))).toBe("GPTBot");
    expect(t.record("curl/8", "/api/news", at(2))).toBeUndefined();
    t.record("ClaudeBot/1.0", "/api/status", at(3));
    t.record("GPTBot/1.2", "/api/models", at(4));
    const r = t.report(at(5));
    expect(r.today_count).toBe(3);
    expect(r.by_bot).toEqual({ GPTBot: 2, ClaudeBot: 1 });
    expect(r.recent).toEqual([
      { bot: "GPTBot", endpoint: "/api/models", timestamp: at(4).toISOString() },
      { bot: "ClaudeBot", endpoint: "/api/status", timestamp: at(3).toISOString() },
    ]);
    expect(r.last_updated).toBe(at(4).toISOString());
  });

  it("report() starts a new UTC day from zero but keeps the recent list", () => {
    const t = new ActivityTracker();
    t.record("GPTBot/1.2", "/api/news", new Date("2026-11-22T23:59:00Z"));
    const next = t.report(new Date("2026-11-23T00:01:00Z"));
    expect(next.today_count).toBe(0);
    expect(next.day).toBe("2026-11-23");
    expect(next.by_bot).toEqual({});
    expect(next.recent).toHaveLength(1);
  });
});
