/** /api/health against snapshot states a pipeline leaves: healthy, failing but fresh, failing and stale. */
import { mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { startServer, type RunningServer } from "../server.ts";
import { newsBody, STATUS_BODY, createSnapshotFixture, type SnapshotFixture } from "./snapshot-fixture.ts";

let fx: SnapshotFixture;
let server: RunningServer;
const serverWarnings: string[] = [];
const now = Date.now();
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

beforeAll(async () => {
  fx = await createSnapshotFixture([
    { type: "news", dated: { "2025-01-15": newsBody(5) }, meta: { lastSuccess: ago(60), lastAttempt: ago(60), lastError: null, slaSeconds: 1800 } },
    { type: "status", dated: { "2025-01-15": STATUS_BODY }, meta: { lastSuccess: ago(60), lastAttempt: ago(60), lastError: null, slaSeconds: 600 } },
  ]);
  server = await startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: fx.dir, rateLimitPerMinute: 0, trustProxy: null, pollMs: 50, onWarn: (m) => serverWarnings.push(m) });
});
afterAll(async () => {
  await server?.close();
  await fx?.remove();
});

async function health(): Promise<{ status: number; body: { health: string; reasons: string[]; warnings: string[]; status: { failing: boolean; last_error: string | null; age_seconds: number } } }> {
  const res = await fetch(`${server.url}/api/health`);
  return { status: res.status, body: (await res.json()) as never };
}

/** Rewrite the status type and wait until the server serves the new manifest entry (not merely any reload). */
async function setStatus(meta: { lastSuccess: string; lastAttempt: string; lastError: string | null; slaSeconds: number }): Promise<void> {
  await fx.write({ type: "status", dated: { "2025-01-15": STATUS_BODY }, meta });
  const served = () => server.store.meta("status");
  const current = () => served()?.lastSuccess === meta.lastSuccess && served()?.lastError === meta.lastError;
  // a loaded machine may take a while to notice the change; fail clearly rather than assert on the old state
  for (let i = 0; i < 600 && !current(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!current()) throw new Error("the server did not reload the rewritten status snapshot within 30 s");
}

describe("/api/health", () => {
  it("is 200 ok while feeds succeed, warns on a failed run within the SLA, and turns 503 degraded once a failing feed is stale", async () => {
    const ok = await health();
    expect(ok.status).toBe(200);
    expect(ok.body.health).toBe("ok");
    expect(ok.body.status.age_seconds).toBeGreaterThanOrEqual(59);

    await setStatus({ lastSuccess: ago(120), lastAttempt: ago(10), lastError: "all 14 sources failed: ENOTFOUND", slaSeconds: 600 });
    const failingFresh = await health();
    expect(failingFresh.status).toBe(200);
    expect(failingFresh.body.status).toMatchObject({ failing: true, last_error: "all 14 sources failed: ENOTFOUND" });
    expect(failingFresh.body.warnings.join()).toContain("feed status");

    await setStatus({ lastSuccess: ago(3600), lastAttempt: ago(10), lastError: "all 14 sources failed: ENOTFOUND", slaSeconds: 600 });
    const degraded = await health();
    expect(degraded.status).toBe(503);
    expect(degraded.body.health).toBe("degraded");
    expect(degraded.body.reasons.join()).toMatch(/feed status is failing \(all 14 sources failed: ENOTFOUND\) and its data is stale/);
  });

  it("shows a type whose first pipeline run failed as failing and never succeeded, with no date", async () => {
    // The pipelines' runner records the failed run in the served folder, replaying from a folder with no recording.
    const empty = await mkdtemp(join(tmpdir(), "agentfeed-no-recordings-"));
    try {
      const [result] = await runFeeds({ feeds: { "gpu-pricing": feeds["gpu-pricing"] }, snapshotsDir: fx.dir, replayDir: empty });
      expect(result?.status).toBe("failed");
      await expect.poll(() => server.store.meta("gpu-pricing")?.lastError, { timeout: 30_000, interval: 50 }).toBe(result?.error);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    const res = await fetch(`${server.url}/api/health`);
    const body = (await res.json()) as { reasons: string[]; "gpu-pricing": Record<string, unknown> };
    expect(res.status).toBe(503);
    expect(body["gpu-pricing"]).toMatchObject({ available: false, date: null, last_success: null, stale: true, failing: true, rows: 0 });
    expect(body.reasons.join()).toContain("feed gpu-pricing is failing");
    expect(body.reasons.join()).toContain("never succeeded");
    expect((await fetch(`${server.url}/api/gpu/pricing`)).status).toBe(503);
    expect(serverWarnings.join("\n")).not.toContain("is invalid");
  });
});

describe("/api/health with the server's own snapshots folder beside the bundled one", () => {
  it("turns 503 degraded when the snapshots folder it served is removed, and 200 again when it is back", async () => {
    const own = await createSnapshotFixture([{ type: "status", dated: { "2025-01-15": STATUS_BODY }, meta: { lastSuccess: ago(60), lastAttempt: ago(60), lastError: null, slaSeconds: 600 } }]);
    const alone = await startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: own.dir, rateLimitPerMinute: 0, trustProxy: null, pollMs: 50, onWarn: () => {} });
    try {
      const check = async () => {
        const res = await fetch(`${alone.url}/api/health`);
        return { status: res.status, body: (await res.json()) as { reasons: string[] } };
      };
      expect((await check()).status).toBe(200);
      await rename(own.dir, `${own.dir}.gone`);
      await expect.poll(async () => (await check()).status, { timeout: 30_000, interval: 50 }).toBe(503);
      expect((await check()).body.reasons.join()).toContain(`the snapshots manifest ${join(own.dir, "manifest.json")} was served and is gone`);
      await rename(`${own.dir}.gone`, own.dir);
      await expect.poll(async () => (await check()).status, { timeout: 30_000, interval: 50 }).toBe(200);
    } finally {
      await alone.close();
      await own.remove();
    }
  });

  it("reports the served data's age and this server's latest failed run of the type", async () => {
    const bundled = await createSnapshotFixture([
      { type: "status", dated: { "2025-01-15": STATUS_BODY }, meta: { lastSuccess: ago(7200), lastAttempt: ago(7200), lastError: null, slaSeconds: 600 } },
    ]);
    const local = await createSnapshotFixture([]);
    const empty = await mkdtemp(join(tmpdir(), "agentfeed-no-recordings-"));
    const layered = await startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: bundled.dir, localSnapshotsDir: local.dir, rateLimitPerMinute: 0, trustProxy: null, pollMs: 50, onWarn: () => {} });
    try {
      const statusHealth = async () => {
        const res = await fetch(`${layered.url}/api/health`);
        return { status: res.status, body: (await res.json()) as { reasons: string[]; warnings: string[]; status: Record<string, unknown> } };
      };
      const before = await statusHealth();
      expect(before.status).toBe(200);
      expect(before.body.status).toMatchObject({ failing: false, stale: true, last_error: null, last_success: ago(7200) });

      // This server's scheduler runs the feed into its own folder and every source fails (no recording to replay).
      const [result] = await runFeeds({ feeds: { status: feeds.status }, snapshotsDir: local.dir, replayDir: empty });
      expect(result?.status).toBe("failed");
      await expect.poll(async () => (await statusHealth()).status, { timeout: 30_000, interval: 50 }).toBe(503);
      const after = await statusHealth();
      expect(after.body.status).toMatchObject({ available: true, failing: true, stale: true, last_success: ago(7200), last_error: result?.error, date: "2025-01-15" });
      expect(after.body.reasons.join()).toContain("feed status is failing");
      expect((await fetch(`${layered.url}/api/status`)).status).toBe(200);
      // What the start banner reads: both folders, each type as served (the bundled success, not the failed run).
      expect(layered.localSnapshotsDir).toBe(resolve(local.dir));
      expect(layered.served.meta("status")).toMatchObject({ lastSuccess: ago(7200), date: "2025-01-15" });
    } finally {
      await layered.close();
      await rm(empty, { recursive: true, force: true });
      await bundled.remove();
      await local.remove();
    }
  });
});
