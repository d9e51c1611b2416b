/**
 * The one HTTP client every pipeline source goes through, live or replay: a User-Agent with a contact,
 * timeouts, a streamed size cap, content-type checks, retries with backoff and jitter (cockatiel),
 * per-host concurrency (p-queue), a per-host circuit breaker (cockatiel) and conditional requests
 * (ETag / Last-Modified) against an on-disk cache. Replay sends the same requests to a local server that
 * answers from recorded fixtures, so replay exercises this exact code.
 */
import { resolve } from "node:path";
import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  DelegateBackoff,
  ExponentialBackoff,
  circuitBreaker,
  handleWhen,
  retry,
  type CircuitBreakerPolicy,
  type IBackoff,
  type IRetryBackoffContext,
} from "cockatiel";
import PQueue from "p-queue";
import type { HttpClient, HttpRequestOptions, HttpResponse, TimedRequestOptions, TimedResponse } from "../types.ts";
import { cacheFileFor, conditionalHeaders, readCacheEntry, writeCacheEntry, type CacheEntry } from "./cache.ts";
import { HttpError, isRetryable } from "./errors.ts";
import { BodyTooLargeError, readCappedText } from "./read-body.ts";
import { REPLAY_MISSING_HEADER, startReplayServer, type ReplayServer } from "./replay-server.ts";
import { parseRetryAfter } from "./retry-after.ts";

export { HttpError, type HttpErrorCode } from "./errors.ts";

/** Default User-Agent: names the project and where to reach its maintainers. */
export const DEFAULT_USER_AGENT =
  "agentfeed/0.1 (+https://github.com/agentfeed/agentfeed; contact via repository issues)";

/** Options of `createHttpClient`; every field is optional. */
export interface HttpClientOptions {
  /** User-Agent sent with every request (default DEFAULT_USER_AGENT). */
  userAgent?: string;
  /** Per-attempt timeout covering headers and body, in ms (default 15000). */
  timeoutMs?: number;
  /** Retries after the first attempt for network errors, timeouts, 5xx and 429 (default 2). */
  retries?: number;
  /** First backoff delay in ms; later ones grow exponentially with decorrelated jitter (default 500). */
  backoffInitialMs?: number;
  /** Largest backoff delay in ms (default 10000). */
  backoffMaxMs?: number;
  /** Cap on a Retry-After wait, in ms (default 60000). */
  maxRetryAfterMs?: number;
  /** Requests in flight per host (default 2). */
  perHostConcurrency?: number;
  /** Response size cap in bytes, counted on the decoded body (default 5 MiB). */
  maxBytes?: number;
  /** Consecutive host failures that open the host's circuit (default 5). */
  breakerThreshold?: number;
  /** How long an open circuit fails fast before one trial request, in ms (default 60000). */
  breakerCooldownMs?: number;
  /** Conditional-request cache folder (default `.cache/http` under cwd); `false` turns the cache off. */
  cacheDir?: string | false;
  /** Answer every request from recorded fixtures under this folder (see replayPathFor). No cache is used. */
  replayDir?: string;
  /** Waits between retries (default setTimeout); tests inject a recorder. */
  sleep?: (ms: number) => Promise<void>;
  /** Clock in ms since the epoch, for Retry-After dates (default Date.now). */
  now?: () => number;
  /** Told about problems that do not fail the request (a cache write that failed). */
  onWarning?: (message: string, cause: unknown) => void;
}

/** The shared client plus `close()`, which stops the replay server if one was started. */
export interface ClosableHttpClient extends HttpClient {
  close(): Promise<void>;
}

interface HostState {
  queue: PQueue;
  breaker: CircuitBreakerPolicy;
}

const MiB = 1024 * 1024;

/** Build the shared HTTP client (live, or replay when `replayDir` is set). */
export function createHttpClient(options: HttpClientOptions = {}): ClosableHttpClient {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const defaultTimeoutMs = options.timeoutMs ?? 15_000;
  const retries = options.retries ?? 2;
  const backoffInitialMs = options.backoffInitialMs ?? 500;
  const backoffMaxMs = options.backoffMaxMs ?? 10_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const perHostConcurrency = options.perHostConcurrency ?? 2;
  const defaultMaxBytes = options.maxBytes ?? 5 * MiB;
  const breakerThreshold = options.breakerThreshold ?? 5;
  const breakerCooldownMs = options.breakerCooldownMs ?? 60_000;
  const replayDir = options.replayDir === undefined ? undefined : resolve(options.replayDir);
  const cacheDir =
    replayDir !== undefined || options.cacheDir === false ? undefined : resolve(options.cacheDir ?? ".cache/http");
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((ok) => setTimeout(ok, ms)));
  const now = options.now ?? Date.now;

  const hosts = new Map<string, HostState>();
  let replayServer: Promise<ReplayServer> | undefined;

  function hostState(host: string): HostState {
    let state = hosts.get(host);
    if (!state) {
      state = {
        queue: new PQueue({ concurrency: perHostConcurrency }),
        breaker: circuitBreaker(handleWhen(isRetryable), {
          breaker: new ConsecutiveBreaker(breakerThreshold),
          halfOpenAfter: breakerCooldownMs,
        }),
      };
      hosts.set(host, state);
    }
    return state;
  }

  function replayServerFor(dir: string): Promise<ReplayServer> {
    replayServer ??= startReplayServer(dir).catch((error: unknown) => {
      replayServer = undefined;
      throw error;
    });
    return replayServer;
  }

  /** One attempt: one real request, read and checked. */
  async function attempt(url: string, opts: HttpRequestOptions): Promise<HttpResponse> {
    const headers: Record<string, string> = { "user-agent": userAgent };
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
    const post = opts.jsonBody !== undefined;
    const GET = post ? "POST" : "GET";
    if (post) headers["content-type"] = "application/json";

    let cacheFile: string | undefined;
    let cached: CacheEntry | undefined;
    if (cacheDir !== undefined && !post) {
      cacheFile = cacheFileFor(cacheDir, url, opts.headers ?? {});
      cached = await readCacheEntry(cacheFile, url);
      Object.assign(headers, conditionalHeaders(cached));
    }

    const requestUrl = replayDir === undefined ? url : (await replayServerFor(replayDir)).urlFor(url, opts.jsonBody);
    const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const cap = new AbortController();
    const signal = AbortSignal.any([timeout, cap.signal]);
    const transportError = (error: unknown): HttpError =>
      timeout.aborted
        ? new HttpError(`${GET} ${url} failed: timed out after ${timeoutMs} ms`, { code: "timeout", url, cause: error })
        : new HttpError(`${GET} ${url} failed: network error: ${describe(error)}`, { code: "network", url, cause: error });

    let response: Response;
    try {
      response = await fetch(requestUrl, { method: GET, headers, signal, redirect: "follow", ...(post ? { body: opts.jsonBody } : {}) });
    } catch (error) {
      throw transportError(error);
    }

    if (replayDir !== undefined && response.status === 404 && response.headers.has(REPLAY_MISSING_HEADER)) {
      await discard(response);
      const path = response.headers.get(REPLAY_MISSING_HEADER) ?? "";
      // The fixture path relative to the replay folder: the message lands in manifests, never a machine's own paths.
      throw new HttpError(`${GET} ${url} failed: no replay fixture at ${path} in the replay folder`, {
        code: "replay_missing",
        url,
        status: 404,
      });
    }

    if (response.status === 304 && cached) {
      await discard(response);
      const fromCache = new Headers(cached.headers);
      checkContentType(url, fromCache, opts.expectContentType, cached.status);
      return { url, status: cached.status, headers: fromCache, body: cached.body, fromCache: true };
    }

    if (!response.ok && !opts.acceptStatus?.includes(response.status)) {
      await discard(response);
      const status = response.status;
      const retryAfterMs =
        status === 429 || status === 503 ? parseRetryAfter(response.headers.get("retry-after"), now()) : undefined;
      throw new HttpError(`${GET} ${url} failed: ${status} ${response.statusText}`.trimEnd(), {
        code: "http_status",
        url,
        status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }

    try {
      checkContentType(url, response.headers, opts.expectContentType, response.status);
    } catch (error) {
      await discard(response);
      throw error;
    }

    const maxBytes = opts.maxBytes ?? defaultMaxBytes;
    let body: string;
    try {
      body = await readCappedText(response, maxBytes, () => cap.abort());
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw new HttpError(`${GET} ${url} failed: body exceeds ${maxBytes} bytes`, {
          code: "too_large",
          url,
          status: response.status,
          cause: error,
        });
      }
      throw transportError(error);
    }

    const etag = response.headers.get("etag") ?? undefined;
    const lastModified = response.headers.get("last-modified") ?? undefined;
    if (cacheFile !== undefined && !post && response.status === 200 && (etag !== undefined || lastModified !== undefined)) {
      const entry: CacheEntry = {
        url,
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body,
        ...(etag === undefined ? {} : { etag }),
        ...(lastModified === undefined ? {} : { lastModified }),
      };
      await writeCacheEntry(cacheFile, entry).catch((error: unknown) =>
        options.onWarning?.(`http cache: could not store ${url}`, error),
      );
    }

    return { url, status: response.status, headers: response.headers, body, fromCache: false };
  }

  async function getText(url: string, opts: HttpRequestOptions = {}): Promise<HttpResponse> {
    const host = hostOf(url);
    const { queue, breaker } = hostState(host);

    // cockatiel decides whether to retry and how long to back off (exponential, decorrelated jitter, or the
    // server's Retry-After, capped); the wait itself goes through `sleep` so tests can observe it.
    let plannedDelay = 0;
    const exponential = new ExponentialBackoff({ initialDelay: backoffInitialMs, maxDelay: backoffMaxMs });
    const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>, IBackoff<unknown>>((context, previous) => {
      const next = previous ? previous.next(context) : exponential.next();
      const error = "error" in context.result ? context.result.error : undefined;
      const retryAfterMs = error instanceof HttpError ? error.retryAfterMs : undefined;
      plannedDelay = retryAfterMs === undefined ? next.duration : Math.min(retryAfterMs, maxRetryAfterMs);
      return { delay: 0, state: next };
    });
    const policy = retry(handleWhen(isRetryable), { maxAttempts: retries, backoff });

    return policy.execute(async ({ attempt: n }) => {
      if (n > 0 && plannedDelay > 0) await sleep(plannedDelay);
      try {
        return await breaker.execute(() => queue.add(() => attempt(url, opts)));
      } catch (error) {
        if (error instanceof BrokenCircuitError) {
          throw new HttpError(
            `${opts.jsonBody === undefined ? "GET" : "POST"} ${url} failed: circuit open for ${host} after ${breakerThreshold} consecutive failures`,
            { code: "circuit_open", url, cause: error },
          );
        }
        throw error;
      }
    });
  }

  async function getJson(url: string, opts?: HttpRequestOptions): Promise<{ response: HttpResponse; json: unknown }> {
    const response = await getText(url, opts);
    try {
      return { response, json: JSON.parse(response.body) as unknown };
    } catch (error) {
      throw new HttpError(
        `${opts?.jsonBody === undefined ? "GET" : "POST"} ${url} failed: body is not JSON (${describe(error)}); it starts ${JSON.stringify(response.body.slice(0, 80))}`,
        { code: "malformed_body", url, status: response.status, cause: error },
      );
    }
  }

  /**
   * One timed request through the host's queue (the clock starts when the request leaves the queue): the
   * same User-Agent, replay rewriting and timeout as getText, but no retries, no breaker, no conditional
   * cache and no redirect following (a 3xx is the answer being timed). Never throws.
   */
  async function timed(url: string, opts: TimedRequestOptions = {}): Promise<TimedResponse> {
    let host: string;
    try {
      host = hostOf(url);
    } catch {
      return { url, status: null, ttfbMs: null, totalMs: 0, bytes: 0, ok: false, error: "network" };
    }
    const { queue } = hostState(host);
    return queue.add(() => timedAttempt(url, opts));
  }

  async function timedAttempt(url: string, opts: TimedRequestOptions): Promise<TimedResponse> {
    const headers: Record<string, string> = { "user-agent": userAgent };
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
    const failed = (error: NonNullable<TimedResponse["error"]>, totalMs: number, status: number | null = null, ttfbMs: number | null = null, bytes = 0): TimedResponse => ({
      url, status, ttfbMs, totalMs, bytes, ok: false, error,
    });

    let requestUrl = url;
    if (replayDir !== undefined) {
      try {
        requestUrl = (await replayServerFor(replayDir)).urlFor(url);
      } catch (error) {
        options.onWarning?.(`timed: replay server for ${replayDir} did not start`, error);
        return failed("network", 0);
      }
    }
    const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs;
    const maxBytes = opts.maxBytes ?? defaultMaxBytes;
    const timeout = AbortSignal.timeout(timeoutMs);
    const cap = new AbortController();
    const signal = AbortSignal.any([timeout, cap.signal]);
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    const transportCode = (): "timeout" | "network" => (timeout.aborted ? "timeout" : "network");

    let response: Response;
    try {
      response = await fetch(requestUrl, { method: opts.method ?? "GET", headers, signal, redirect: "manual" });
    } catch {
      return failed(transportCode(), elapsed());
    }
    const ttfbMs = elapsed();
    if (replayDir !== undefined && response.status === 404 && response.headers.has(REPLAY_MISSING_HEADER)) {
      await discard(response);
      return failed("replay_missing", elapsed());
    }

    let bytes = 0;
    if (response.body) {
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
          if (bytes > maxBytes) {
            cap.abort();
            await reader.cancel().catch(() => undefined);
            return failed("too_large", elapsed(), response.status, ttfbMs, bytes);
          }
        }
      } catch {
        return failed(transportCode(), elapsed(), response.status, ttfbMs, bytes);
      }
    }
    return { url, status: response.status, ttfbMs, totalMs: elapsed(), bytes, ok: true };
  }

  async function close(): Promise<void> {
    const server = replayServer;
    replayServer = undefined;
    if (server) await (await server).close();
  }

  return { getText, getJson, timed, close };
}

/** The host a request is queued and broken on (with its port); rejects what is not an http(s) URL. */
function hostOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new HttpError(`GET ${url} failed: not a valid URL`, { code: "network", url, cause: error });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new HttpError(`GET ${url} failed: unsupported protocol ${parsed.protocol}`, { code: "network", url });
  }
  return parsed.host;
}

function checkContentType(url: string, headers: Headers, expected: string[] | undefined, status: number): void {
  if (!expected || expected.length === 0) return;
  const actual = (headers.get("content-type") ?? "").toLowerCase();
  if (expected.some((type) => actual.includes(type.toLowerCase()))) return;
  throw new HttpError(
    `GET ${url} failed: content type ${JSON.stringify(actual)} is not one of ${expected.join(", ")}`,
    { code: "wrong_content_type", url, status },
  );
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** A readable one-line reason, including undici's underlying cause (ECONNREFUSED …). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return `${error.message} (${code ? `${code} ` : ""}${cause.message})`;
  }
  return error.message;
}
