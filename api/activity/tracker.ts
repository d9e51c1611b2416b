/**
 * Counts answered requests from known AI agents and crawlers, as the server sees them: today's count (UTC
 * day), counts per bot, and the most recent requests. Only what the server itself decides is published: the
 * bot's name from the fixed list (known-bots.ts), the ROUTE TEMPLATE that answered (never the raw path, so
 * no request text reaches the feed), and whether the client address lies in the operator's published ranges
 * (`verified`) or the identity is only claimed by User-Agent. In memory, per process.
 */
import { createVerifier, PUBLISHED_RANGE_FILES, type BotVerifier } from "./crawler-ranges.ts";
import { recognizeBot } from "./known-bots.ts";

/** One recognised request. */
export interface BotRequest {
  bot: string;
  /** Route template, e.g. /api/history/:date/:type. */
  endpoint: string;
  timestamp: string;
  verified: boolean;
}

/** What /api/agents/activity reports. */
export interface ActivityReport {
  today_count: number;
  day: string;
  last_updated: string | null;
  by_bot: Record<string, number>;
  /** Of today's count, requests whose address matched the bot's published ranges. */
  verified_count: number;
  recent: BotRequest[];
  verification: {
    method: string;
    /** Bots whose published ranges are loaded on this server; every other count is claimed by User-Agent only. */
    verified_bots: string[];
    sources: Record<string, { source: string; fetched: string }>;
    /** Operators that publish range files (loadable with CRAWLER_RANGES_FILE). */
    published_range_files: Record<string, string>;
  };
}

export class ActivityTracker {
  readonly recentLimit: number;
  #day = "";
  #count = 0;
  #verified = 0;
  #byBot = new Map<string, number>();
  #recent: BotRequest[] = [];
  #lastUpdated: string | null = null;
  #verifier: BotVerifier;

  constructor(options: { recentLimit?: number; verifier?: BotVerifier } = {}) {
    this.recentLimit = options.recentLimit ?? 50;
    this.#verifier = options.verifier ?? createVerifier({});
  }

  /** Replace the address-range verifier (the server loads CRAWLER_RANGES_FILE at start). */
  useVerifier(verifier: BotVerifier): void {
    this.#verifier = verifier;
  }

  /**
   * Record an answered request on route `template` if its User-Agent names a known bot; the verifier checks
   * `address` against the bot's published ranges. A function for `address` is called only for a known bot (the
   * server passes one, so requests from anyone else never resolve their address). Returns the bot's token or
   * undefined.
   */
  record(
    userAgent: string | undefined | null,
    template: string,
    options: { address?: string | (() => string); now?: Date } = {},
  ): string | undefined {
    const bot = recognizeBot(userAgent);
    if (!bot) return undefined;
    const now = options.now ?? new Date();
    this.#rollDay(now);
    const timestamp = now.toISOString();
    const address = typeof options.address === "function" ? options.address() : options.address;
    const verified = Boolean(address && this.#verifier.verify(bot.token, address));
    this.#count += 1;
    if (verified) this.#verified += 1;
    this.#byBot.set(bot.token, (this.#byBot.get(bot.token) ?? 0) + 1);
    this.#recent.unshift({ bot: bot.token, endpoint: template, timestamp, verified });
    if (this.#recent.length > this.recentLimit) this.#recent.length = this.recentLimit;
    this.#lastUpdated = timestamp;
    return bot.token;
  }

  /** Today's figures (a new UTC day starts from zero; recent requests are kept across the day change). */
  report(now = new Date()): ActivityReport {
    this.#rollDay(now);
    return {
      today_count: this.#count,
      day: this.#day,
      last_updated: this.#lastUpdated,
      by_bot: Object.fromEntries([...this.#byBot].sort(([, a], [, b]) => b - a)),
      verified_count: this.#verified,
      recent: this.#recent.map((r) => ({ ...r })),
      verification: {
        method: "client address inside the address ranges the bot's operator publishes; otherwise the bot name is only claimed by its User-Agent",
        verified_bots: [...this.#verifier.verifiable],
        sources: { ...this.#verifier.sources },
        published_range_files: { ...PUBLISHED_RANGE_FILES },
      },
    };
  }

  #rollDay(now: Date): void {
    const day = now.toISOString().slice(0, 10);
    if (day === this.#day) return;
    this.#day = day;
    this.#count = 0;
    this.#verified = 0;
    this.#byBot.clear();
  }
}

/** The server's tracker (the app records every answered route into it). */
export const serverActivity = new ActivityTracker();
