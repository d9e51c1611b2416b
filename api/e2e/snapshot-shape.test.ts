/**
 * Snapshots of the wrong shape (a folder written by another version, a hand-edited file): every contract type
 * present, each body an object the contract does not describe. Every GET route (its documented example, or
 * its path when it has no path parameter) must answer without a 500; a free route that reads a type answers
 * 503 snapshot_unavailable instead of data built from it, and /api/today lists the types it could not use as missing. Premium routes run their handlers
 * here (PREMIUM_BILLING=off), so their reads are exercised too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotTypes } from "../../pipelines/contract/snapshots/index.ts";
import { routes } from "../registry/index.ts";
import { startServer, type RunningServer } from "../server.ts";
import { createSnapshotFixture, type SnapshotFixture } from "./snapshot-fixture.ts";

let fx: SnapshotFixture;
let server: RunningServer;

beforeAll(async () => {
  fx = await createSnapshotFixture(Object.keys(snapshotTypes).map((type) => ({ type, dated: { "2025-01-15": { gpus: "not a list", services: {}, articles: 3 } } })));
  server = await startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: fx.dir, rateLimitPerMinute: 0, trustProxy: null, premiumBilling: false, onWarn: () => {} });
});
afterAll(async () => {
  await server?.close();
  await fx?.remove();
});

describe("snapshots that do not match the contract", () => {
  it("no GET route answers 500; every free route that reads a snapshot answers 503", async () => {
    // Answered from other data (the warehouse's tables) or, for /api/today, with the unusable types named as missing.
    const notFromSnapshots = new Set(["/api/today", "/api/providers/uptime-leaderboard", "/api/x402-index/publishers"]);
    let called = 0;
    for (const route of routes.filter((r) => r.method === "GET" && (r.example || !r.path.includes(":")))) {
      const url = route.example ?? route.path;
      const res = await fetch(`${server.url}${url}`);
      const body = (await res.text()).slice(0, 200);
      called++;
      expect(res.status, `${url}: ${body}`).not.toBe(500);
      if (route.tier === "free" && (route.snapshots ?? []).length > 0 && !notFromSnapshots.has(route.path)) {
        expect(res.status, `${url}: ${body}`).toBe(503);
        expect(body).toContain("snapshot_unavailable");
      }
    }
    expect(called).toBeGreaterThan(80);
  });

  it("/api/today answers with the sections it could read and names the others missing", async () => {
    const res = await fetch(`${server.url}/api/today?sections=news,status,inference`);
    const body = (await res.json()) as { ok: boolean; missing: string[] };
    expect(res.status).toBe(200);
    expect(body.missing).toEqual(expect.arrayContaining(["news", "status", "gpu-pricing"]));
  });

  it("names the snapshot and its date in the 503", async () => {
    const res = await fetch(`${server.url}/api/gpu/pricing/cheapest?gpu=H100`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, error: "snapshot_unavailable", message: "snapshot gpu-pricing of 2025-01-15 does not match its schema" });
  });

  it("/api/health is degraded and names each type it lists that no route can serve", async () => {
    const res = await fetch(`${server.url}/api/health`);
    const body = (await res.json()) as { reasons: string[]; "gpu-pricing": { available: boolean }; status: { available: boolean } };
    expect(res.status).toBe(503);
    expect(body["gpu-pricing"].available).toBe(false);
    expect(body.status.available).toBe(false);
    expect(body.reasons).toContain("snapshot gpu-pricing cannot be served: its latest.json is missing, unreadable or not of its schema (routes reading it answer 503)");
  });
});
