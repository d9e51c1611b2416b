/**
 * Verification of a bot's claimed identity against the address ranges its operator publishes as a file.
 * Operators that publish such files (as of 2026-11): OpenAI (gptbot.json, chatgpt-user.json, searchbot.json),
 * Perplexity (perplexitybot.json, perplexity-user.json), Anthropic (claude.com/crawling/bots.json), Apple
 * (applebot.json), DuckDuckGo (duckassistbot.json), Mistral AI (mistralai-user-ips.json), Common Crawl
 * (ccbot ranges). This build ships the list of those files but no copy of their contents: it was built
 * without network access, and a stale copy would verify the wrong addresses. An operator downloads them and
 * points CRAWLER_RANGES_FILE at one JSON object `{ "<bot token>": { "source", "fetched", "prefixes": [...] } }`
 * whose prefixes use the published format (`{ "ipv4Prefix": "…" }` / `{ "ipv6Prefix": "…" }`). Bots without
 * ranges are reported as claimed by User-Agent only.
 */
import { readFileSync } from "node:fs";
import proxyaddr from "proxy-addr";
import { z } from "zod";

/** Where each bot's operator publishes its address ranges. */
export const PUBLISHED_RANGE_FILES: Readonly<Record<string, string>> = {
  GPTBot: "https://openai.com/gptbot.json",
  "ChatGPT-User": "https://openai.com/chatgpt-user.json",
  "OAI-SearchBot": "https://openai.com/searchbot.json",
  PerplexityBot: "https://www.perplexity.com/perplexitybot.json",
  "Perplexity-User": "https://www.perplexity.com/perplexity-user.json",
  ClaudeBot: "https://claude.com/crawling/bots.json",
  "Claude-User": "https://claude.com/crawling/bots.json",
  "Claude-SearchBot": "https://claude.com/crawling/bots.json",
  Applebot: "https://search.developer.apple.com/applebot.json",
  DuckAssistBot: "https://duckduckgo.com/duckassistbot.json",
  "MistralAI-User": "https://mistral.ai/mistralai-user-ips.json",
};

const Prefix = z.union([z.strictObject({ ipv4Prefix: z.string().max(50) }), z.strictObject({ ipv6Prefix: z.string().max(60) })]);
/** The CRAWLER_RANGES_FILE format. */
export const RangesFile = z.record(
  z.string().max(64),
  z.object({ source: z.string().max(300), fetched: z.string().max(40), prefixes: z.array(Prefix).max(10_000) }),
);

/** Decides whether an address belongs to a bot's published ranges. */
export interface BotVerifier {
  /** Bots that have ranges loaded (their requests can be verified). */
  readonly verifiable: readonly string[];
  /** Where the loaded ranges came from, per bot. */
  readonly sources: Readonly<Record<string, { source: string; fetched: string }>>;
  verify(bot: string, address: string): boolean;
}

/** A verifier over parsed ranges; a prefix proxy-addr cannot compile throws. */
export function createVerifier(file: z.infer<typeof RangesFile>): BotVerifier {
  const checks = new Map<string, (addr: string) => boolean>();
  const sources: Record<string, { source: string; fetched: string }> = {};
  for (const [bot, entry] of Object.entries(file)) {
    const cidrs = entry.prefixes.map((p) => ("ipv4Prefix" in p ? p.ipv4Prefix : p.ipv6Prefix));
    if (cidrs.length === 0) continue;
    const trust = proxyaddr.compile(cidrs);
    checks.set(bot, (addr) => trust(addr, 0));
    sources[bot] = { source: entry.source, fetched: entry.fetched };
  }
  return {
    verifiable: [...checks.keys()].sort(),
    sources,
    verify(bot, address) {
      const check = checks.get(bot);
      if (!check) return false;
      try {
        return check(address.replace(/^::ffff:/, ""));
      } catch {
        return false;
      }
    },
  };
}

/** The verifier named by CRAWLER_RANGES_FILE, or one that verifies nobody when it is unset. */
export function loadVerifier(path: string | undefined = process.env.CRAWLER_RANGES_FILE): BotVerifier {
  if (!path) return createVerifier({});
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw new Error(`CRAWLER_RANGES_FILE ${path.slice(0, 200)}: cannot read it as JSON (${(cause as Error).message.slice(0, 200)})`, { cause });
  }
  const result = RangesFile.safeParse(parsed);
  if (!result.success) throw new Error(`CRAWLER_RANGES_FILE ${path.slice(0, 200)}: ${result.error.issues[0]?.message ?? "invalid"}`);
  return createVerifier(result.data);
}
