/**
 * The contracts every pipeline part speaks: the shared HTTP client, a source (one upstream protocol),
 * a feed (one snapshot type) and what a feed run returns to the runner.
 */
import type { z } from "zod";
import type { SnapshotType } from "../contract/snapshot-type.ts";
import type { SourceHealth } from "../contract/snapshot-meta.ts";

export type { SnapshotMeta, SourceHealth } from "../contract/snapshot-meta.ts";

/** A response read through the shared client; `fromCache` is true when a 304 let us reuse the cached body. */
export interface HttpResponse {
  url: string;
  status: number;
  headers: Headers;
  body: string;
  fromCache: boolean;
}

export interface HttpRequestOptions {
  /** Extra request headers (Accept, an API version header …). */
  headers?: Record<string, string>;
  /** Override the default response size cap, in bytes. */
  maxBytes?: number;
  /** Content types this caller accepts; anything else fails as `wrong_content_type`. Substring match. */
  expectContentType?: string[];
  /** Override the default timeout, in milliseconds. */
  timeoutMs?: number;
  /**
   * Non-2xx statuses answered as a response instead of failing (an x402 resource's 402 challenge, whose headers and
   * body are the answer). Never cached, never retried.
   */
  acceptStatus?: readonly number[];
  /**
   * A JSON request body: the request becomes a POST with `content-type: application/json` (an upstream query
   * API such as OSV's). Never cached; in replay the fixture is keyed by a digest of the body (replayPathFor).
   */
  jsonBody?: string;
}

/** Options of a timed request (a latency probe). */
export interface TimedRequestOptions {
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** HTTP method (default GET). */
  method?: "GET" | "HEAD";
  /** Override the default timeout, in milliseconds (covers headers and body). */
  timeoutMs?: number;
  /** Override the default response size cap, in bytes. */
  maxBytes?: number;
}

/**
 * One timed request. `ok` means an HTTP answer was read to its end, whatever its status (judging the status
 * is the caller's job); otherwise `error` names the failure and `status`/`ttfbMs` are null when no headers
 * arrived. `totalMs` is the time until the body was read, or until the request failed.
 */
export interface TimedResponse {
  url: string;
  status: number | null;
  /** Milliseconds from sending the request to receiving the response headers. */
  ttfbMs: number | null;
  /** Milliseconds from sending the request to the end of the body (or the failure). */
  totalMs: number;
  /** Body bytes received (decoded size). */
  bytes: number;
  ok: boolean;
  error?: "timeout" | "network" | "too_large" | "replay_missing";
}

/** The one HTTP client every source goes through (live or replay). */
export interface HttpClient {
  getText(url: string, options?: HttpRequestOptions): Promise<HttpResponse>;
  /** getText, then JSON.parse; a body that is not JSON fails as `malformed_body`. */
  getJson(url: string, options?: HttpRequestOptions): Promise<{ response: HttpResponse; json: unknown }>;
  /** One request timed to first byte and to the end of the body; never throws, never retries. */
  timed?(url: string, options?: TimedRequestOptions): Promise<TimedResponse>;
}

/** What a feed can ask of the runner while it runs. */
export interface FeedContext {
  http: HttpClient;
  /** The run's clock: feeds never read Date.now() themselves. */
  now: Date;
  /**
   * Whether upstream answers come from recorded fixtures (`replay`) or the network (`live`, the default when
   * absent). Feeds that pace requests for an upstream's rate limit skip the waits in replay.
   */
  provenance?: "live" | "replay";
  /** The latest stored snapshot body of a type (this feed's own or another's), if any. */
  previous<T = unknown>(type: string): Promise<T | undefined>;
  /** The stored body of a type as of a UTC day (YYYY-MM-DD), if that day has a dated file. */
  dated<T = unknown>(type: string, date: string): Promise<T | undefined>;
  /** Days (YYYY-MM-DD, ascending) that have a dated file for a type. */
  dates(type: string): Promise<string[]>;
  /** A line for the run summary (a source skipped, a value clipped …). */
  notice(message: string): void;
}

/** A scalar a warehouse column may hold. */
export type WarehouseValue = string | number | boolean | null;

/** Rows for one warehouse table, stored as Parquet under snapshots/warehouse/<table>/<date>.parquet. */
export interface WarehouseBatch {
  table: string;
  /** Columns that identify a row within one day's file; a later row with the same key replaces the earlier. */
  key: string[];
  rows: Record<string, WarehouseValue>[];
}

export interface FeedOutput<T> {
  /** The snapshot body: stable, no run timestamps (those live in the manifest). */
  data: T;
  /** Row count for the summary and the manifest. */
  rows: number;
  sources?: SourceHealth[];
  warehouse?: WarehouseBatch[];
}

/** One snapshot type (its contract: pipelines/contract/snapshots/) and how to build it. */
export interface Feed<T = unknown> extends SnapshotType<T> {
  /** Every upstream URL a run at `now` (default: the current time) would request (for --list-urls). */
  urls(now?: Date): string[];
  run(ctx: FeedContext): Promise<FeedOutput<T>>;
  /**
   * The warehouse rows a snapshot body stands for on one UTC day, for rebuilding history from past snapshots
   * (`npm run warehouse -- --from-git`). Absent when the body does not hold what the rows need.
   */
  historyRows?(data: T, at: HistoryMoment): WarehouseBatch[];
}

/** When a past snapshot body was observed: its UTC day and the run's time (ISO 8601, UTC). */
export interface HistoryMoment {
  date: string;
  observedAt: string;
}

/** Context handed to a source's normalize step. */
export interface NormalizeContext {
  /** The URL the body came from. */
  url: string;
  now: Date;
}

/**
 * One upstream protocol: `parse` is the only place raw data is trusted (tolerant zod, throws on a body it
 * cannot read); `normalize` maps to our strict rows.
 */
export interface Source<Parsed, Row, Meta = undefined> {
  id: string;
  /** Upstream, docs, rate limit, in one line. */
  description: string;
  parse(body: string): Parsed;
  normalize(parsed: Parsed, ctx: NormalizeContext & { meta: Meta }): Row[];
  /** Strict schema of one output row. */
  row: z.ZodType<Row>;
}

/**
 * A feed's failure with the health of each source it tried (every one failed): the runner records them in the
 * manifest as it does a success's, so health says which sources failed and how, not an empty list.
 */
export function withSourceHealth<E extends Error>(error: E, sources: readonly SourceHealth[]): E & { sources: SourceHealth[] } {
  return Object.assign(error, { sources: [...sources] });
}

/** The source health a failure carries (see withSourceHealth), or undefined. */
export function sourceHealthOf(error: unknown): SourceHealth[] | undefined {
  const sources = (error as { sources?: unknown } | null)?.sources;
  return Array.isArray(sources) && sources.every((s) => typeof (s as SourceHealth)?.id === "string" && typeof (s as SourceHealth)?.ok === "boolean") ? (sources as SourceHealth[]) : undefined;
}
