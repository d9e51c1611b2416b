/**
 * The state database goes away under a running server: paid and payment paths answer 503 state_unavailable
 * with Retry-After (never 500), and /api/health turns 503 degraded naming the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { BUNDLED_SNAPSHOTS } from "../testing/bundled-server.ts";

let temp: TempDatabase | undefined;
let server: RunningServer | undefined;
const warnings: string[] = [];

beforeAll(async () => {
  temp = await openTempDatabase();
  server = await startServer({
    port: 0,
    host: "127.0.0.1",
    snapshotsDir: BUNDLED_SNAPSHOTS,
    rateLimitPerMinute: 0,
    paymentRateLimitPerMinute: 0,
    trustProxy: null,
    pollMs: 0,
    onWarn: (m) => warnings.push(m),
    state: { databaseUrl: temp.url, env: { PAYMENTS_TEST_CHAIN: "off" } },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await temp?.close();
});

const bearer = { authorization: `Bearer afk_${"0".repeat(64)}` };

describe("losing the state database while serving", () => {
  it("answers 503 state_unavailable with Retry-After on paid paths, and health turns 503 degraded", async () => {
    const s = server!;
    const healthy = await fetch(`${s.url}/api/health`);
    expect(healthy.status).toBe(200);
    expect(((await healthy.json()) as { checks: { database: { status: string } } }).checks.database.status).toBe("ok");
    const before = await fetch(`${s.url}/api/premium/routing`, { headers: bearer });
    expect(before.status).toBe(402); // unknown token: the ordinary challenge

    await temp!.close();
    temp = undefined;

    const lost = await fetch(`${s.url}/api/premium/routing`, { headers: bearer });
    expect(lost.status).toBe(503);
    expect(Number(lost.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await lost.json()).toMatchObject({ ok: false, error: "state_unavailable" });

    const health = await fetch(`${s.url}/api/health`);
    expect(health.status).toBe(503);
    const body = (await health.json()) as { ok: boolean; health: string; reasons: string[]; checks: { database: { status: string } } };
    expect(body).toMatchObject({ ok: false, health: "degraded", error: "degraded" });
    expect(body.checks.database.status).toBe("failed");
    expect(body.reasons.some((r) => r.startsWith("database:"))).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/postgres:\/\/[^…]/);

    // free data keeps flowing
    expect((await fetch(`${s.url}/api/meta`)).status).toBe(200);

    // Every paid call fails the same way while the database is away: one short line says so, not a stack trace per call.
    const before503 = warnings.length;
    for (let i = 0; i < 20; i++) expect((await fetch(`${s.url}/api/premium/routing`, { headers: bearer })).status).toBe(503);
    const written = warnings.slice(before503).filter((w) => w.includes("state_unavailable") || w.includes("failed:"));
    expect(written.length, written.join("\n")).toBeLessThanOrEqual(2);
    expect(written.join("\n")).not.toMatch(/\n\s+at /);
  });
});
