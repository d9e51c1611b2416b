import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { startTestServer, type TestServer } from "../lib/http/test-server.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import { NWS_ALERTS_URL } from "../sources/nws-alerts.ts";
import { runWeatherAlerts, weatherAlertsFeed, weatherAlertsSnapshot } from "./weather-alerts.ts";
import { createLiveWeatherSource } from "./weather-alerts-live.ts";

const NOW = new Date("2026-11-22T12:00:00Z");
const fixtures = replayFixtures();

/** The recorded collection with one alert's `expires` in the valid expanded-year form and another's `sent` two days ahead. */
function hostileCollection(): { body: string; expiresId: string; sentId: string } {
  const recorded = JSON.parse(readFileSync("pipelines/fixtures/api.weather.gov/alerts/active", "utf8")) as { features: { properties: Record<string, unknown> }[] };
  const [a, b] = [recorded.features[1]!.properties, recorded.features[2]!.properties];
  a["expires"] = "+010000-01-01T00:00:00Z";
  b["sent"] = "2026-11-24T12:00:00+00:00";
  return { body: JSON.stringify(recorded), expiresId: a["id"] as string, sentId: b["id"] as string };
}
const clients: ClosableHttpClient[] = [];
const servers: TestServer[] = [];

function client(replayDir?: string): ClosableHttpClient {
  const c = createHttpClient({ ...(replayDir ? { replayDir } : { cacheDir: false }), retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
}

afterAll(async () => {
  await Promise.all([...clients.map((c) => c.close()), ...servers.map((s) => s.close())]);
});

describe("weatherAlertsFeed", () => {
  it("weatherAlertsFeed declares the type, a 10-minute cadence, a 1-hour SLA and the NWS URL", () => {
    expect(weatherAlertsFeed.type).toBe("weather-alerts");
    expect(weatherAlertsFeed.cron).toBe("3-59/10 * * * *");
    expect(weatherAlertsFeed.slaSeconds).toBe(3600);
    expect(weatherAlertsFeed.urls()).toEqual([NWS_ALERTS_URL]);
  });

  it("run() stores the whole normalized collection from the recorded fixture", async () => {
    const ctx = testFeedContext({ http: client("pipelines/fixtures"), now: NOW });
    const out = await weatherAlertsFeed.run(ctx);
    const data = weatherAlertsSnapshot.parse(out.data);
    expect(data.upstream_count).toBe(24);
    expect(data.alerts).toHaveLength(23);
    expect(out.rows).toBe(23);
    expect(data.updated).toBe("2026-11-22T11:58:00.000Z");
    expect(data.title).toMatch(/United States/);
    // Expired alerts stay in the stored copy; readers judge active-ness against their own clock.
    expect(data.alerts.some((a) => a.event === "Dense Fog Advisory")).toBe(true);
    expect(out.sources).toEqual([{ id: "nws-alerts", ok: true, rows: 23 }]);
    expect(ctx.notices.join("\n")).toMatch(/skipped 1 cancellations/);
    expect(JSON.stringify(data)).not.toMatch(/"ugc":\[\]/);
  });

  it("run() sends Accept: application/geo+json and the project User-Agent", async () => {
    const server = await startTestServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/geo+json" });
      res.end(JSON.stringify({ type: "FeatureCollection", features: [], title: "t", updated: "2026-11-22T11:00:00+00:00" }));
    });
    servers.push(server);
    const out = await runWeatherAlerts(testFeedContext({ http: client(), now: NOW }), server.url("/alerts/active"));
    expect(out.data).toEqual({ title: "t", updated: "2026-11-22T11:00:00.000Z", upstream_count: 0, alerts: [] });
    expect(server.requests[0]!.headers.accept).toBe("application/geo+json");
    expect(server.requests[0]!.headers["user-agent"]).toMatch(/^agentfeed\//);
  });

  it("run() fails when the upstream fails, so the runner keeps the previous snapshot", async () => {
    const server = await startTestServer((_req, res) => {
      res.writeHead(502);
      res.end();
    });
    servers.push(server);
    await expect(runWeatherAlerts(testFeedContext({ http: client(), now: NOW }), server.url("/alerts/active"))).rejects.toThrow(/502/);
  });

  it("run() fails on a body that is not an alert collection", async () => {
    const server = await startTestServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/geo+json" });
      res.end(JSON.stringify({ type: "Feature", properties: {} }));
    });
    servers.push(server);
    await expect(runWeatherAlerts(testFeedContext({ http: client(), now: NOW }), server.url("/alerts/active"))).rejects.toThrow(/FeatureCollection/);
  });

  it("run() keeps every other alert when one has an expanded-year expires and another a far-future sent", async () => {
    const { body, expiresId, sentId } = hostileCollection();
    const dir = fixtures.replayOf("weather-alerts-", { [NWS_ALERTS_URL]: body });
    const ctx = testFeedContext({ http: fixtures.client(dir), now: NOW });
    const out = await weatherAlertsFeed.run(ctx);
    const data = weatherAlertsSnapshot.parse(out.data);
    expect(data.alerts).toHaveLength(22);
    const kept = data.alerts.find((a) => a.id === expiresId);
    expect(kept?.expires).toBeNull();
    expect(kept?.ends).not.toBeNull();
    expect(data.alerts.some((a) => a.id === sentId)).toBe(false);
    expect(ctx.notices.join("\n")).toMatch(/skipped 2 cancellations, duplicates or features with an unknown status or an unusable sent time/);
  });

  it("the live source (the API's /api/climate/weather-alerts read) answers the same hostile collection", async () => {
    const { body, expiresId } = hostileCollection();
    const dir = fixtures.replayOf("weather-alerts-live-", { [NWS_ALERTS_URL]: body });
    const live = createLiveWeatherSource({ http: fixtures.client(dir) });
    const collection = await live.fetch(NOW);
    expect(collection.alerts).toHaveLength(22);
    expect(collection.alerts.find((a) => a.id === expiresId)?.expires).toBeNull();
  });
});
