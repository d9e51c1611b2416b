/**
 * Counts requests from known AI agents and crawlers, as the server sees them: today's count (UTC day), counts
 * per bot, and the most recent requests. In memory, per process: a restart starts a new count.
 */
import { recognizeBot } from "./known-bots.ts";

/** One recognised request. */
export interface BotRequest {
  bot: string;
  endpoint: string;
  timestamp: string;
}

/** What /api/agents/activity reports. */
export interface ActivityReport {
  today_count: number;
  day: string;
  last_updated: string | null;
  by_bot: Record<string, number>;
  recent: BotRequest[];
}

export class ActivityTracker {
  readonly recentLimit: number;
  #day = "";
  #count = 0;
  #byBot = new Map<string, number>();
  #recent: BotRequest[] = [];
  #lastUpdated: string | null = null;

  constructor(options: { recentLimit?: number } = {}) {
    this.recentLimit = options.recentLimit ?? 50;
  }

  /** Record a request if its User-Agent names a known bot; returns the bot's token or undefined. */
  record(userAgent: string | undefined | null, path: string, now = new Date()): string | undefined {
    const bot = recognizeBot(userAgent);
    if (!bot) return undefined;
    this.#rollDay(now);
    const timestamp = now.toISOString();
    this.#count += 1;
    this.#byBot.set(bot.token, (this.#byBot.get(bot.token) ?? 0) + 1);
    // Only the path: query strings may carry an agent's private parameters.
    this.#recent.unshift({ bot: bot.token, endpoint: path.split("?")[0] ?? path, timestamp });
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
      recent: this.#recent.map((r) => ({ ...r })),
    };
  }

  #rollDay(now: Date): void {
    const day = now.toISOString().slice(0, 10);
    if (day === this.#day) return;
    this.#day = day;
    this.#count = 0;
    this.#byBot.clear();
  }
}

/** The server's tracker (api/server.ts records every request into it). */
export const serverActivity = new ActivityTracker();
