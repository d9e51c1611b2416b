import { afterAll, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { startTestServer, type TestServer } from "../lib/http/test-server.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { NWS_ALERTS_URL } from "../sources/nws-alerts.ts";
import { runWeatherAlerts, weatherAlertsFeed, weatherAlertsSnapshot } from "./weather-alerts.ts";

const NOW = new Date("2026-11-22T12:00:00Z");
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
});
