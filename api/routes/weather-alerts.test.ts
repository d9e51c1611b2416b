import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../../pipelines/lib/http/client.ts";
import { startTestServer, type TestHandler, type TestServer } from "../../pipelines/lib/http/test-server.ts";
import type { WeatherAlertsSnapshot } from "../../pipelines/contract/snapshots/weather-alerts.ts";
import { createLiveWeatherSource } from "../../pipelines/feeds/weather-alerts-live.ts";
import { createApp, type ServedSnapshots } from "../app.ts";
import type { LoadedSnapshot } from "../registry/types.ts";
import { createWeatherAlertsReader, type WeatherAlertsReader } from "../weather/reader.ts";
import {
  createWeatherAlertsRoutes,
  DEFAULT_LIMIT,
  WeatherAlertsQuery,
  WeatherAlertsResponse,
  weatherAlertsRoutes,
  type WeatherAlertsBody,
} from "./weather-alerts.ts";

const FIXTURE = readFileSync("pipelines/fixtures/api.weather.gov/alerts/active", "utf8");
const T0 = Date.parse("2026-11-22T12:00:00Z");
const PATH = "/api/climate/weather-alerts";

const serveFixture: TestHandler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/geo+json" });
  res.end(FIXTURE);
};
const serveError: TestHandler = (_req, res) => {
  res.writeHead(500);
  res.end();
};

let upstream: TestServer;
let http: ClosableHttpClient;
let t: number;
let reader: WeatherAlertsReader;

function snapshots(data?: WeatherAlertsSnapshot, lastSuccess = "2026-11-22T11:53:00.000Z"): ServedSnapshots {
  const loaded =
    data === undefined
      ? undefined
      : ({
          type: "weather-alerts",
          data,
          meta: {
            type: "weather-alerts", date: "2026-11-22", lastSuccess, lastAttempt: lastSuccess, lastChanged: lastSuccess, lastError: null,
            rows: data.alerts.length, provenance: "replay", slaSeconds: 3600, cadence: "every 10 minutes", sources: [],
          },
        } satisfies LoadedSnapshot<WeatherAlertsSnapshot>);
  return {
    generation: 1,
    get: <T,>(type: string) => (type === "weather-alerts" ? (loaded as unknown as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (loaded ? ["weather-alerts"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
}

function appWith(served: ServedSnapshots = snapshots()) {
  return createApp({ routes: createWeatherAlertsRoutes(reader), snapshots: served, baseUrl: "http://x.test", rateLimitPerMinute: 0, trustProxy: null }).app;
}

async function get(query = "", served?: ServedSnapshots): Promise<{ status: number; body: WeatherAlertsBody & Record<string, unknown>; headers: Headers }> {
  const res = await appWith(served).request(`${PATH}${query}`);
  return { status: res.status, body: (await res.json()) as WeatherAlertsBody & Record<string, unknown>, headers: res.headers };
}

beforeAll(async () => {
  upstream = await startTestServer(serveFixture);
});
afterAll(async () => {
  await http?.close();
  await upstream.close();
});
beforeEach(async () => {
  await http?.close();
  http = createHttpClient({ retries: 1, backoffInitialMs: 1, backoffMaxMs: 2, cacheDir: false, timeoutMs: 2000 });
  upstream.handler = serveFixture;
  upstream.requests.length = 0;
  t = T0;
  reader = createWeatherAlertsReader({ source: createLiveWeatherSource({ url: upstream.url("/alerts/active"), http }), now: () => t });
});

describe("GET /api/climate/weather-alerts", () => {
  it("answers live with the spec's envelope, only active alerts, newest first", async () => {
    const { status, body, headers } = await get();
    expect(status).toBe(200);
    WeatherAlertsResponse.parse(body);
    expect(body).toMatchObject({ ok: true, tier: "free", source: "live", fetched_at: "2026-11-22T12:00:00.000Z", stale: null });
    expect(body.query).toEqual({ area: null, event: null, severity: null, urgency: null, status: null, limit: null });
    expect(body.feed_metadata).toEqual({
      title: "Current watches, warnings, and advisories for the United States",
      updated: "2026-11-22T11:58:00.000Z",
      upstream_count: 24,
    });
    expect(body.count).toBe(22);
    expect(body.matched).toBe(22);
    expect(body.alerts.map((a) => a.event)).not.toContain("Dense Fog Advisory"); // expired at 10:00Z
    expect(body.alerts.filter((a) => /cancelled/.test(a.headline))).toEqual([]); // the Cancel message is never served
    expect(body.alerts[0]!.event).toBe("Tornado Warning");
    expect(Object.keys(body.alerts[0]!)).not.toContain("ugc");
    expect(body.allowed).toEqual({
      severities: ["Extreme", "Severe", "Moderate", "Minor", "Unknown"],
      urgencies: ["Immediate", "Expected", "Future", "Past", "Unknown"],
      statuses: ["actual", "exercise", "system", "test", "draft"],
    });
    expect(body.attribution.license).toMatch(/public domain/i);
    expect(headers.get("cache-control")).toBe("no-store");
  });

  it("filters by state, territory and marine area codes, case-insensitively", async () => {
    const events = async (q: string) => (await get(q)).body.alerts.map((a) => a.event);
    expect(await events("?area=pr")).toEqual(["High Surf Advisory"]);
    expect(await events("?area=GU")).toEqual(["High Surf Advisory"]);
    expect(await events("?area=MP")).toEqual(["High Surf Advisory"]);
    expect(await events("?area=GM")).toEqual(["Small Craft Advisory"]);
    expect(await events("?area=PZ")).toEqual(["Small Craft Advisory"]);
    expect(await events("?area=LS")).toEqual(["Gale Warning"]);
    expect(await events("?area=LA")).toEqual(["Tornado Warning"]);
    expect((await events("?area=AK")).sort()).toEqual(["Special Weather Statement", "Tsunami Warning"]);
    expect(await events("?area=WY")).toEqual([]);
    expect((await get("?area=pz")).body.query.area).toBe("PZ");
  });

  it("filters by exact event name, case-insensitively", async () => {
    const { body } = await get("?event=small%20craft%20advisory");
    expect(body.count).toBe(2);
    expect(body.alerts.every((a) => a.event === "Small Craft Advisory")).toBe(true);
    expect(body.query.event).toBe("small craft advisory");
    expect((await get("?event=Small%20Craft")).body.count).toBe(0);
  });

  it("filters by severity, urgency and status and echoes canonical values", async () => {
    const extreme = (await get("?severity=EXTREME")).body;
    expect(extreme.query.severity).toBe("Extreme");
    expect(extreme.alerts.map((a) => a.event).sort()).toEqual(["Tornado Warning", "Tsunami Warning"]);
    const future = (await get("?urgency=future")).body;
    expect(future.query.urgency).toBe("Future");
    expect(future.alerts.map((a) => a.event).sort()).toEqual(["Flood Watch", "Freeze Warning", "Hydrologic Outlook"]);
    const test = (await get("?status=Test")).body;
    expect(test.query.status).toBe("test");
    expect(test.alerts.map((a) => [a.event, a.status])).toEqual([["Test Message", "Test"]]);
    expect((await get("?status=exercise")).body.alerts.map((a) => a.status)).toEqual(["Exercise"]);
    const actual = (await get("?status=actual")).body;
    expect(actual.count).toBe(20);
    expect(actual.alerts.every((a) => a.status === "Actual")).toBe(true);
    const combined = (await get("?area=TX&severity=severe&urgency=immediate&status=actual")).body;
    expect(combined.alerts.map((a) => a.event)).toEqual(["Flood Warning"]);
  });

  it("applies limit and reports matched before the limit", async () => {
    const { body } = await get("?limit=5");
    expect([body.count, body.matched, body.query.limit]).toEqual([5, 22, 5]);
    expect((await get("?limit=500")).body.count).toBe(22);
    expect(DEFAULT_LIMIT).toBe(100);
  });

  it.each([
    ["?area=XX", /area must be one of .*PR.*GM/],
    ["?area=Texas", /area must be one of/],
    ["?severity=bad", /severity must be one of Extreme, Severe, Moderate, Minor, Unknown/],
    ["?urgency=soon", /urgency must be one of Immediate, Expected, Future, Past, Unknown/],
    ["?status=real", /status must be one of actual, exercise, system, test, draft/],
    ["?limit=0", /limit must be between 1 and 500/],
    ["?limit=501", /limit must be between 1 and 500/],
    ["?limit=2.5", /integer/],
    ["?limit=many", /limit/],
    ["?event=", /event must not be empty/],
  ])("answers 400 invalid_query for %s", async (query, message) => {
    const { status, body } = await get(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, error: "invalid_query" });
    expect(String(body.message)).toMatch(message);
    expect(upstream.requests).toHaveLength(0);
  });

  it("ignores an unknown parameter, as every route does (api/security.md)", async () => {
    const plain = await get("?limit=5");
    const junk = await get("?limit=5&colour=red");
    expect(junk.status).toBe(200);
    expect(junk.body.count).toBe(plain.body.count);
  });

  it("is served from the reader's 60-second cache, then refetched", async () => {
    await get();
    t += 30_000;
    await get("?area=TX");
    expect(upstream.requests).toHaveLength(1);
    t += 30_000;
    const { body } = await get();
    expect(upstream.requests).toHaveLength(2);
    expect(body.fetched_at).toBe("2026-11-22T12:01:00.000Z");
  });

  it("drops alerts that expire while the copy is held", async () => {
    expect((await get("?event=Tornado%20Warning")).body.count).toBe(1);
    t = Date.parse("2026-11-22T12:15:00Z"); // the tornado warning expires at 12:15Z; cache refetches the same body
    expect((await get("?event=Tornado%20Warning")).body.count).toBe(0);
  });

  it("answers from the last good copy with its age when upstream answers 500", async () => {
    await get();
    upstream.handler = serveError;
    t += 120_000;
    const { status, body } = await get("?area=PR");
    expect(status).toBe(200);
    expect(body.source).toBe("stale");
    expect(body.fetched_at).toBe("2026-11-22T12:00:00.000Z");
    expect(body.stale).toEqual({ age_seconds: 120, reason: "upstream answered HTTP 500" });
    expect(body.count).toBe(1);
  });

  it("answers 503 upstream_unavailable with no copy at all", async () => {
    upstream.handler = serveError;
    const { status, body } = await get();
    expect(status).toBe(503);
    expect(body).toMatchObject({ ok: false, error: "upstream_unavailable" });
    expect(String(body.message)).toMatch(/HTTP 500/);
  });

  it("answers from the snapshot on a fresh start with upstream down, recomputing active-ness", async () => {
    const live = (await createWeatherAlertsReader({ source: createLiveWeatherSource({ url: upstream.url("/alerts/active"), http }), now: () => t }).read()).collection;
    upstream.handler = serveError;
    t = Date.parse("2026-11-22T13:00:00Z");
    const { status, body } = await get("?limit=500", snapshots(live, "2026-11-22T11:53:00.000Z"));
    expect(status).toBe(200);
    expect(body.source).toBe("snapshot");
    expect(body.fetched_at).toBe("2026-11-22T11:53:00.000Z");
    expect(body.stale).toEqual({ age_seconds: 4020, reason: "upstream answered HTTP 500" });
    // By 13:00Z the tornado warning (12:15Z), the test message (12:30Z) and the exercise (13:00Z) have expired too.
    expect(body.count).toBe(19);
    for (const a of body.alerts) expect(a.expires === null || Date.parse(a.expires) > t).toBe(true);
  });

  it("the default route family is one handle route for the process-wide reader", () => {
    expect(weatherAlertsRoutes).toHaveLength(1);
    const route = weatherAlertsRoutes[0]!;
    expect([route.path, route.tier, Boolean(route.handle), Boolean(route.render)]).toEqual([PATH, "free", true, false]);
    expect(route.snapshots).toEqual([]);
    expect(WeatherAlertsQuery.parse({ severity: "minor", limit: "7" })).toEqual({ severity: "Minor", limit: 7 });
  });
});
