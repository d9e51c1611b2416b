import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../../pipelines/lib/http/client.ts";
import { startTestServer, type TestHandler, type TestServer } from "../../pipelines/lib/http/test-server.ts";
import type { WeatherAlertsSnapshot } from "../../pipelines/contract/snapshots/weather-alerts.ts";
import { createLiveWeatherSource } from "../../pipelines/feeds/weather-alerts-live.ts";
import type { LoadedSnapshot, SnapshotReader } from "../registry/types.ts";
import { weatherAlertsReader, weatherAlertsUrlFrom, wireWeatherAlertsSource } from "./default.ts";
import { createWeatherAlertsReader, WeatherAlertsUnavailableError, type WeatherAlertsReader } from "./reader.ts";

const FIXTURE = readFileSync("pipelines/fixtures/api.weather.gov/alerts/active", "utf8");
const T0 = Date.parse("2026-11-22T12:00:00Z");

const serveFixture: TestHandler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/geo+json" });
  res.end(FIXTURE);
};
const serveError: TestHandler = (_req, res) => {
  res.writeHead(500, { "content-type": "text/plain" });
  res.end("boom");
};

let server: TestServer;
let http: ClosableHttpClient;
let t: number;

beforeAll(async () => {
  server = await startTestServer(serveFixture);
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await http?.close();
  // A fresh client per test so one test's failures never open another's circuit.
  http = createHttpClient({ retries: 1, backoffInitialMs: 1, backoffMaxMs: 2, cacheDir: false, timeoutMs: 2000 });
  server.handler = serveFixture;
  server.requests.length = 0;
  t = T0;
});

function reader(extra: { retryAfterFailureMs?: number } = {}): WeatherAlertsReader {
  return createWeatherAlertsReader({ source: createLiveWeatherSource({ url: server.url("/alerts/active"), http }), now: () => t, ...extra });
}

/** A SnapshotReader holding one weather-alerts body whose last success is `lastSuccess`. */
function snapshotOf(data: WeatherAlertsSnapshot, lastSuccess: string): SnapshotReader {
  const loaded: LoadedSnapshot<WeatherAlertsSnapshot> = {
    type: "weather-alerts",
    data,
    meta: {
      type: "weather-alerts", date: lastSuccess.slice(0, 10), lastSuccess, lastAttempt: lastSuccess, lastChanged: lastSuccess,
      lastError: null, rows: data.alerts.length, provenance: "replay", slaSeconds: 3600, cadence: "every 10 minutes", sources: [],
    },
  };
  return {
    get: <T,>(type: string) => (type === "weather-alerts" ? (loaded as unknown as LoadedSnapshot<T>) : undefined),
    types: () => ["weather-alerts"],
    dates: () => [],
    dated: async () => undefined,
  };
}

describe("createWeatherAlertsReader()", () => {
  it("read() fetches once and answers from memory for 60 seconds", async () => {
    const r = reader();
    const first = await r.read();
    expect(first.origin).toBe("live");
    expect(first.collection.alerts).toHaveLength(23);
    expect(first.fetchedAt.toISOString()).toBe("2026-11-22T12:00:00.000Z");
    t += 59_000;
    const second = await r.read();
    expect(second.origin).toBe("live");
    expect(second.ageSeconds).toBe(59);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.accept).toBe("application/geo+json");
    expect(server.requests[0]!.headers["user-agent"]).toMatch(/agentfeed.*contact/);
  });

  it("read() asks upstream again once 60 seconds have passed", async () => {
    const r = reader();
    await r.read();
    t += 60_000;
    const again = await r.read();
    expect(server.requests).toHaveLength(2);
    expect(again.ageSeconds).toBe(0);
    expect(again.fetchedAt.getTime()).toBe(t);
  });

  it("read() shares one upstream request among concurrent misses", async () => {
    const r = reader();
    const copies = await Promise.all([r.read(), r.read(), r.read()]);
    expect(copies.every((c) => c.origin === "live")).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("read() answers from the last live copy with its age when upstream fails, after one retry", async () => {
    const r = reader();
    await r.read();
    server.handler = serveError;
    t += 95_000;
    const stale = await r.read();
    expect(stale.origin).toBe("stale");
    expect(stale.ageSeconds).toBe(95);
    expect(stale.reason).toBe("upstream answered HTTP 500");
    expect(stale.fetchedAt.toISOString()).toBe("2026-11-22T12:00:00.000Z");
    expect(server.requests).toHaveLength(3); // first fetch, then the failing attempt and its one retry
  });

  it("read() pauses upstream reads after a failure, then tries again", async () => {
    const r = reader({ retryAfterFailureMs: 15_000 });
    await r.read();
    server.handler = serveError;
    t += 61_000;
    await r.read();
    const afterFailure = server.requests.length;
    t += 10_000;
    expect((await r.read()).origin).toBe("stale");
    expect(server.requests).toHaveLength(afterFailure);
    server.handler = serveFixture;
    t += 6_000;
    const back = await r.read();
    expect(back.origin).toBe("live");
    expect(back.reason).toBeNull();
    expect(server.requests).toHaveLength(afterFailure + 1);
  });

  it("read() throws WeatherAlertsUnavailableError when upstream fails and there is no copy", async () => {
    server.handler = serveError;
    const error = await reader().read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeatherAlertsUnavailableError);
    expect((error as WeatherAlertsUnavailableError).reason).toBe("upstream answered HTTP 500");
    expect((error as Error).name).toBe("WeatherAlertsUnavailableError");
  });

  it("read() answers from the pipeline's snapshot on a fresh start with upstream down", async () => {
    const live = await reader().read();
    server.handler = serveError;
    const fresh = reader();
    const copy = await fresh.read(snapshotOf(live.collection, "2026-11-22T11:50:00.000Z"));
    expect(copy.origin).toBe("snapshot");
    expect(copy.ageSeconds).toBe(600);
    expect(copy.fetchedAt.toISOString()).toBe("2026-11-22T11:50:00.000Z");
    expect(copy.collection.alerts).toHaveLength(23);
  });

  it("read() prefers the newer of the in-memory copy and the snapshot", async () => {
    const r = reader();
    const live = await r.read();
    server.handler = serveError;
    t += 300_000;
    const newer = await r.read(snapshotOf({ ...live.collection, alerts: live.collection.alerts.slice(0, 2) }, "2026-11-22T12:03:00.000Z"));
    expect([newer.origin, newer.collection.alerts.length, newer.ageSeconds]).toEqual(["snapshot", 2, 120]);
    r.reset();
    await expect(r.read()).rejects.toBeInstanceOf(WeatherAlertsUnavailableError);
  });

  it("read() ignores a snapshot that does not match the schema", async () => {
    server.handler = serveError;
    const broken = snapshotOf({ title: null, updated: null, upstream_count: 1, alerts: [{ id: "x" }] } as unknown as WeatherAlertsSnapshot, "2026-11-22T11:50:00.000Z");
    await expect(reader().read(broken)).rejects.toBeInstanceOf(WeatherAlertsUnavailableError);
  });

  it("read() treats an unreadable upstream body as a failure", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/geo+json" });
      res.end('{"type":"Feature"}');
    };
    await expect(reader().read()).rejects.toMatchObject({ reason: "upstream body unreadable" });
  });
});

describe("weatherAlertsReader (process-wide)", () => {
  it("answers from the snapshot until a live source is wired, then reads it, and falls back again once unwired", async () => {
    const stored = snapshotOf((await reader().read()).collection, "2026-11-22T11:50:00.000Z");
    server.requests.length = 0;
    weatherAlertsReader.reset();
    const before = await weatherAlertsReader.read(stored);
    expect(before).toMatchObject({ origin: "snapshot", reason: "no live upstream on this instance" });
    expect(server.requests).toHaveLength(0);

    const unwire = wireWeatherAlertsSource(createLiveWeatherSource({ url: server.url("/alerts/active"), http }));
    try {
      expect(weatherAlertsReader.url).toBe(server.url("/alerts/active"));
      expect((await weatherAlertsReader.read(stored)).origin).toBe("live");
      expect(server.requests).toHaveLength(1);
    } finally {
      unwire();
    }
    expect((await weatherAlertsReader.read(stored)).origin).toBe("snapshot");
  });
});

describe("weatherAlertsUrlFrom()", () => {
  it("weatherAlertsUrlFrom() defaults to NWS and rejects a non-http URL", () => {
    expect(weatherAlertsUrlFrom({})).toBe("https://api.weather.gov/alerts/active");
    expect(weatherAlertsUrlFrom({ WEATHER_ALERTS_URL: " http://127.0.0.1:9/alerts " })).toBe("http://127.0.0.1:9/alerts");
    expect(() => weatherAlertsUrlFrom({ WEATHER_ALERTS_URL: "ftp://x" })).toThrow(/WEATHER_ALERTS_URL.*ftp:\/\/x/);
  });
});
