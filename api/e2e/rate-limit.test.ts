import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server.ts";
import { standardFixture } from "./helpers.ts";
import type { SnapshotFixture } from "./snapshot-fixture.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../testing/openapi-contract.ts";

let fx: SnapshotFixture;
beforeAll(async () => {
  fx = await standardFixture();
});
afterAll(async () => {
  await fx?.remove();
});

const start = (trustProxy: string | null): Promise<RunningServer> =>
  startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: fx.dir, rateLimitPerMinute: 3, trustProxy, onWarn: () => {} });

describe("rate limit on free routes", () => {
  it("sends RateLimit headers on every free response and 429 rate_limited with Retry-After past the limit", async () => {
    const s = await start(null);
    try {
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${s.url}/api/history`);
        expect(res.status).toBe(200);
        expect(res.headers.get("ratelimit-limit")).toBe("3");
        expect(res.headers.get("ratelimit-policy")).toBe("3;w=60");
        remaining.push(res.headers.get("ratelimit-remaining") ?? "");
      }
      expect(remaining).toEqual(["2", "1", "0"]);
      const refused = await fetch(`${s.url}/api/meta`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(refused.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
      expect(refused.headers.get("access-control-allow-origin")).toBe("*");
      expect(await refused.json()).toMatchObject({ ok: false, error: "rate_limited" });
    } finally {
      await s.close();
    }
  });

  it("a forged X-Forwarded-For from an untrusted peer does not escape the limit", async () => {
    const s = await start(null);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${s.url}/api/history`, { headers: { "x-forwarded-for": `203.0.113.${i}` } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await s.close();
    }
  });

  it("a peer outside TRUST_PROXY is not trusted even when a proxy list is set", async () => {
    const s = await start("10.0.0.0/8");
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await fetch(`${s.url}/api/history`, { headers: { "x-forwarded-for": `198.51.100.${i}` } })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await s.close();
    }
  });

  it("a trusted proxy's X-Forwarded-For gives each client its own bucket", async () => {
    const s = await start("loopback");
    try {
      for (let i = 0; i < 3; i++) {
        expect((await fetch(`${s.url}/api/history`, { headers: { "x-forwarded-for": "198.51.100.7" } })).status).toBe(200);
      }
      expect((await fetch(`${s.url}/api/history`, { headers: { "x-forwarded-for": "198.51.100.7" } })).status).toBe(429);
      // Another client behind the same proxy still has its full allowance.
      const other = await fetch(`${s.url}/api/history`, { headers: { "x-forwarded-for": "198.51.100.8" } });
      expect(other.status).toBe(200);
      expect(other.headers.get("ratelimit-remaining")).toBe("2");
    } finally {
      await s.close();
    }
  });
});
