/**
 * `npm start` leaves the tracked tree alone: the server with its scheduler on the tracked snapshots/ folder
 * writes only into its data folder (DATA_DIR/snapshots), and `git status --porcelain` is the same after as
 * before. Also the layered view it serves: the newer of the bundled and the local copy, per type.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../server.ts";
import { spawnApi } from "../testing/spawn-api.ts";
import { createSnapshotFixture, STATUS_BODY, type SnapshotFixture } from "./snapshot-fixture.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const porcelain = () => execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT, encoding: "utf8" });
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe("nothing left behind", () => {
  it("the server with its scheduler on leaves git status unchanged and writes into DATA_DIR/snapshots, a folder it makes 0700", { timeout: 90_000 }, async () => {
    const parent = await mkdtemp(join(tmpdir(), "agentfeed-start-"));
    cleanup.push(() => rm(parent, { recursive: true, force: true }));
    // A data folder that does not exist yet: the server creates it, readable by its owner only.
    const dataDir = join(parent, "data");
    const before = porcelain();
    const api = await spawnApi({ DATA_DIR: dataDir, DATABASE_URL: "", PAYMENTS_TEST_CHAIN: "off", RECEIPT_SIGNING_KEY: "" }, { schedule: true, timeoutMs: 60_000 });
    try {
      expect((await fetch(`${api.base}/api/meta`)).status).toBe(200);
    } finally {
      expect(await api.stop()).toBe(0);
    }
    expect((await stat(join(dataDir, "snapshots"))).isDirectory()).toBe(true);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect(porcelain()).toBe(before);
  });

  it("serves, per type, the newer of the bundled and the local snapshot, and the dates of both", async () => {
    const older = { lastSuccess: "2026-01-01T00:00:00.000Z", slaSeconds: 600 };
    const newerMeta = { lastSuccess: "2026-02-01T00:00:00.000Z", slaSeconds: 600 };
    const bundled: SnapshotFixture = await createSnapshotFixture([{ type: "status", dated: { "2026-01-01": STATUS_BODY }, meta: older }]);
    const local: SnapshotFixture = await createSnapshotFixture([
      { type: "status", dated: { "2026-02-01": { services: STATUS_BODY.services.slice(0, 1) } }, meta: newerMeta },
    ]);
    cleanup.push(() => bundled.remove(), () => local.remove());
    const s = await startServer({ state: false, port: 0, host: "127.0.0.1", snapshotsDir: bundled.dir, localSnapshotsDir: local.dir, rateLimitPerMinute: 0, trustProxy: null, onWarn: () => {} });
    cleanup.push(() => s.close());
    const status = (await (await fetch(`${s.url}/api/status`)).json()) as { services: unknown[]; checked: string };
    expect(status.services).toHaveLength(1);
    expect(status.checked).toBe(newerMeta.lastSuccess);
    const history = await (await fetch(`${s.url}/api/history`)).text();
    expect(history).toContain("2026-01-01");
    expect(history).toContain("2026-02-01");
    expect((await fetch(`${s.url}/api/history/2026-01-01/status`)).status).toBe(200);
  });
});
