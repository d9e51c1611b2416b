/** A FeedContext for feed tests: the given HTTP client and clock, stored bodies from plain objects. */
import type { FeedContext, HttpClient } from "../types.ts";

export interface TestFeedContextOptions {
  http: HttpClient;
  now: Date;
  /** Latest body per snapshot type. */
  latest?: Record<string, unknown>;
  /** Dated bodies per snapshot type: { <type>: { <YYYY-MM-DD>: body } }. */
  dated?: Record<string, Record<string, unknown>>;
}

/** Build a FeedContext whose notices are collected in `notices`. */
export function testFeedContext(options: TestFeedContextOptions): FeedContext & { notices: string[] } {
  const notices: string[] = [];
  return {
    http: options.http,
    now: options.now,
    notices,
    previous: async <T>(type: string) => options.latest?.[type] as T | undefined,
    dated: async <T>(type: string, date: string) => options.dated?.[type]?.[date] as T | undefined,
    dates: async (type: string) => Object.keys(options.dated?.[type] ?? {}).sort(),
    notice: (message) => notices.push(message),
  };
}
