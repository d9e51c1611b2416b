import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { createSnapshotFixture, STATUS_BODY, type SnapshotFixture } from "../e2e/snapshot-fixture.ts";
import { SnapshotStore } from "./snapshot-store.ts";

let fx: SnapshotFixture | undefined;
afterEach(async () => {
  await fx?.remove();
});

describe("SnapshotStore", () => {
  it("load() holds latest bodies and lists dates; dated() reads on demand", async () => {
    fx = await createSnapshotFixture([{ type: "status", dated: { "2025-01-14": { services: [] }, "2025-01-15": STATUS_BODY } }]);
    const store = new SnapshotStore(fx.dir, { watch: false, pollMs: 0 });
    await store.start();
    expect(store.types()).toEqual(["status"]);
    expect(store.get("status")?.data).toEqual(STATUS_BODY);
    expect(store.dates("status")).toEqual(["2025-01-14", "2025-01-15"]);
    expect(await store.dated("status", "2025-01-14")).toEqual({ services: [] });
    expect(await store.dated("status", "2020-01-01")).toBeUndefined();
    expect(await store.dated("../status", "2025-01-14")).toBeUndefined();
    store.close();
  });

  it("a corrupt latest.json makes only that type absent", async () => {
    fx = await createSnapshotFixture([
      { type: "status", dated: { "2025-01-15": STATUS_BODY } },
      { type: "news", dated: { "2025-01-15": { articles: [] } } },
    ]);
    await writeFile(join(fx.dir, "news", "latest.json"), "{ not json");
    const warnings: string[] = [];
    const store = new SnapshotStore(fx.dir, { watch: false, pollMs: 0, onWarn: (m) => warnings.push(m) });
    await store.start();
    expect(store.get("news")).toBeUndefined();
    expect(store.get("status")).toBeDefined();
    expect(warnings.join("\n")).toContain("news");
    store.close();
  });

  it("a type whose first pipeline run failed is listed with its error and no snapshot, without a warning", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentfeed-first-failure-"));
    try {
      // The pipelines' own runner and store, replaying from a folder with no recording: every source fails.
      const empty = join(dir, "no-recordings");
      await mkdir(empty);
      const [result] = await runFeeds({ feeds: { "gpu-pricing": feeds["gpu-pricing"] }, snapshotsDir: join(dir, "snapshots"), replayDir: empty });
      expect(result?.status).toBe("failed");
      const warnings: string[] = [];
      const store = new SnapshotStore(join(dir, "snapshots"), { watch: false, pollMs: 0, onWarn: (m) => warnings.push(m) });
      await store.start();
      expect(warnings).toEqual([]);
      expect(store.types()).toEqual(["gpu-pricing"]);
      expect(store.get("gpu-pricing")).toBeUndefined();
      expect(store.meta("gpu-pricing")).toMatchObject({ date: "", lastSuccess: null, lastError: result?.error });
      expect(store.meta("gpu-pricing")?.lastAttempt).not.toBeNull();
      store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a missing or corrupt manifest leaves the store empty without throwing", async () => {
    fx = await createSnapshotFixture([{ type: "status", dated: { "2025-01-15": STATUS_BODY } }]);
    await writeFile(join(fx.dir, "manifest.json"), "[]");
    const store = new SnapshotStore(fx.dir, { watch: false, pollMs: 0, onWarn: () => {} });
    await store.start();
    expect(store.types()).toEqual([]);
    const empty = new SnapshotStore(join(fx.dir, "nowhere"), { watch: false, pollMs: 0, onWarn: () => {} });
    await empty.start();
    expect(empty.types()).toEqual([]);
  });

  it("lostManifest() names a manifest that was served and is gone, until it comes back; a folder that never had one is not lost", async () => {
    fx = await createSnapshotFixture([{ type: "status", dated: { "2025-01-15": STATUS_BODY } }]);
    const store = new SnapshotStore(fx.dir, { watch: false, pollMs: 0, onWarn: () => {} });
    await store.start();
    expect(store.lostManifest()).toBeNull();
    await rename(fx.dir, `${fx.dir}.gone`);
    await store.reload();
    expect([store.types(), store.lostManifest()]).toEqual([[], join(fx.dir, "manifest.json")]);
    await rename(`${fx.dir}.gone`, fx.dir);
    await store.reload();
    expect([store.types(), store.lostManifest()]).toEqual([["status"], null]);
    store.close();
    const never = new SnapshotStore(join(fx.dir, "nowhere"), { watch: false, pollMs: 0, onWarn: () => {} });
    await never.start();
    expect(never.lostManifest()).toBeNull();
    never.close();
  });

  it("the mtime poll reloads after the manifest changes and bumps the generation", async () => {
    fx = await createSnapshotFixture([{ type: "status", dated: { "2025-01-15": STATUS_BODY } }]);
    const store = new SnapshotStore(fx.dir, { watch: false, pollMs: 30 });
    await store.start();
    const gen = store.generation;
    await mkdir(join(fx.dir, "news"), { recursive: true });
    await fx.write({ type: "news", dated: { "2025-01-16": { articles: [] } } });
    await expect.poll(() => store.get("news") !== undefined, { timeout: 3000, interval: 30 }).toBe(true);
    expect(store.generation).toBeGreaterThan(gen);
    store.close();
  });

  it("a watcher event that brings no new manifest (a chmod) keeps the generation; a new manifest moves it", async () => {
    fx = await createSnapshotFixture([{ type: "status", dated: { "2025-01-15": STATUS_BODY } }]);
    const store = new SnapshotStore(fx.dir, { watch: true, pollMs: 0 });
    await store.start();
    try {
      const gen = store.generation;
      await chmod(join(fx.dir, "manifest.json"), 0o644);
      await new Promise((r) => setTimeout(r, 300));
      expect(store.generation).toBe(gen);
      await mkdir(join(fx.dir, "news"), { recursive: true });
      await fx.write({ type: "news", dated: { "2025-01-16": { articles: [] } } });
      await expect.poll(() => store.get("news") !== undefined, { timeout: 3000, interval: 30 }).toBe(true);
      expect(store.generation).toBe(gen + 1);
    } finally {
      store.close();
    }
  });
});
