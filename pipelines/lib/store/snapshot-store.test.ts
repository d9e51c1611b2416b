import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ageSeconds, isStale } from "../../contract/freshness.ts";
import { createSnapshotStore, type SnapshotStore } from "./snapshot-store.ts";

const facts = { provenance: "live" as const, slaSeconds: 600, cadence: "every 10 minutes" };

describe("createSnapshotStore()", () => {
  let dir: string;
  let store: SnapshotStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-store-"));
    store = createSnapshotStore({ dir });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("recordSuccess() writes the dated file, latest.json and the manifest entry", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    const r = await store.recordSuccess({ type: "news", data: { b: 2, a: 1 }, rows: 2, now, ...facts });
    expect(r).toEqual({ changed: true, date: "2026-03-01" });
    const dated = await readFile(join(dir, "news/2026-03-01.json"), "utf8");
    expect(dated).toBe('{\n  "a": 1,\n  "b": 2\n}\n');
    expect(await readFile(join(dir, "news/latest.json"), "utf8")).toBe(dated);
    const m = await store.manifest();
    expect(m.version).toBe(1);
    expect(m.types.news).toMatchObject({
      type: "news",
      date: "2026-03-01",
      lastSuccess: now.toISOString(),
      lastAttempt: now.toISOString(),
      lastChanged: now.toISOString(),
      lastError: null,
      rows: 2,
      provenance: "live",
      slaSeconds: 600,
      cadence: "every 10 minutes",
      sources: [],
    });
    expect(await store.latest("news")).toEqual({ a: 1, b: 2 });
    expect(await store.dated("news", "2026-03-01")).toEqual({ a: 1, b: 2 });
    expect(await store.dated("news", "2026-03-02")).toBeUndefined();
  });

  it("recordSuccess() with the same content writes no body but moves lastSuccess", async () => {
    const t1 = new Date("2026-03-01T10:00:00Z");
    const t2 = new Date("2026-03-02T10:00:00Z");
    await store.recordSuccess({ type: "news", data: { a: 1 }, rows: 1, now: t1, ...facts });
    const before = await stat(join(dir, "news/latest.json"));
    const r = await store.recordSuccess({ type: "news", data: { a: 1 }, rows: 1, now: t2, ...facts });
    expect(r).toEqual({ changed: false, date: "2026-03-01" });
    expect((await stat(join(dir, "news/latest.json"))).mtimeMs).toBe(before.mtimeMs);
    expect(await store.dates("news")).toEqual(["2026-03-01"]);
    const meta = (await store.manifest()).types.news!;
    expect(meta.lastSuccess).toBe(t2.toISOString());
    expect(meta.lastChanged).toBe(t1.toISOString());
  });

  it("recordSuccess() with new content on a later day adds a dated file", async () => {
    await store.recordSuccess({ type: "news", data: { a: 1 }, rows: 1, now: new Date("2026-03-01T10:00:00Z"), ...facts });
    await store.recordSuccess({ type: "news", data: { a: 2 }, rows: 1, now: new Date("2026-03-03T10:00:00Z"), ...facts });
    expect(await store.dates("news")).toEqual(["2026-03-01", "2026-03-03"]);
    expect(await store.latest("news")).toEqual({ a: 2 });
    expect((await store.manifest()).types.news!.date).toBe("2026-03-03");
  });

  it("recordFailure() keeps bodies and lastSuccess, records lastAttempt and lastError", async () => {
    const t1 = new Date("2026-03-01T10:00:00Z");
    await store.recordSuccess({ type: "status", data: { ok: true }, rows: 1, now: t1, ...facts });
    const bytes = await readFile(join(dir, "status/latest.json"));
    const t2 = new Date("2026-03-01T10:10:00Z");
    await store.recordFailure({ type: "status", error: "HttpError(http_500): boom", now: t2, ...facts, sources: [{ id: "s", ok: false, error: "boom" }] });
    expect(await readFile(join(dir, "status/latest.json"))).toEqual(bytes);
    const meta = (await store.manifest()).types.status!;
    expect(meta.lastSuccess).toBe(t1.toISOString());
    expect(meta.lastAttempt).toBe(t2.toISOString());
    expect(meta.lastError).toBe("HttpError(http_500): boom");
    expect(meta.sources).toEqual([{ id: "s", ok: false, error: "boom" }]);
  });

  it("recordFailure() on a type that never succeeded creates an entry with no success", async () => {
    await store.recordFailure({ type: "agents", error: "x", now: new Date("2026-03-01T00:00:00Z"), ...facts });
    const meta = (await store.manifest()).types.agents!;
    expect(meta.lastSuccess).toBeNull();
    expect(meta.date).toBe("");
    expect(await store.latest("agents")).toBeUndefined();
  });

  it("recordSuccess() from concurrent feeds keeps every manifest entry", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    const types = ["a", "b", "c", "d", "e", "f"];
    await Promise.all(types.map((type) => store.recordSuccess({ type, data: { type }, rows: 1, now, ...facts })));
    expect(Object.keys((await store.manifest()).types).sort()).toEqual(types);
  });

  it("two stores on one folder (two processes' runs) keep every manifest entry, each type's written under the shared lock", async () => {
    // Each store serializes only its own updates, as each process does: the lock beside the manifest is shared.
    const other = createSnapshotStore({ dir });
    const now = new Date("2026-03-01T10:00:00Z");
    const types = Array.from({ length: 24 }, (_, i) => `type-${String(i).padStart(2, "0")}`);
    await Promise.all(
      types.map((type, i) =>
        i % 3 === 2
          ? (i % 2 ? store : other).recordFailure({ type, error: "offline", now, ...facts })
          : (i % 2 ? store : other).recordSuccess({ type, data: { type }, rows: 1, now, ...facts }),
      ),
    );
    const manifest = await store.manifest();
    expect(Object.keys(manifest.types).sort()).toEqual(types);
    expect(manifest.types["type-02"]).toMatchObject({ lastError: "offline", lastSuccess: null });
    expect(manifest.types["type-03"]).toMatchObject({ lastError: null, date: "2026-03-01" });
    expect(await readdir(dir)).not.toContain(".manifest.lock");
  });

  it("recordSuccess() leaves no temp files behind", async () => {
    await store.recordSuccess({ type: "news", data: [1], rows: 1, now: new Date("2026-03-01T10:00:00Z"), ...facts });
    expect((await readdir(join(dir, "news"))).sort()).toEqual(["2026-03-01.json", "latest.json"]);
    expect((await readdir(dir)).sort()).toEqual(["manifest.json", "news"]);
  });

  it("wouldChange() compares the stable serialization with latest.json", async () => {
    expect(await store.wouldChange("news", { a: 1 })).toBe(true);
    await store.recordSuccess({ type: "news", data: { a: 1, b: 2 }, rows: 1, now: new Date(), ...facts });
    expect(await store.wouldChange("news", { b: 2, a: 1 })).toBe(false);
    expect(await store.wouldChange("news", { a: 1 })).toBe(true);
  });

  it("latest() rejects a type that could escape the folder", async () => {
    await expect(store.latest("../etc")).rejects.toThrow(/invalid type/);
    await expect(store.dated("news", "../x")).rejects.toThrow(/invalid date/);
  });
});

describe("isStale()", () => {
  const now = new Date("2026-03-01T10:10:00Z");
  it("isStale() is false within the SLA and true past it", () => {
    expect(isStale({ lastSuccess: "2026-03-01T10:05:00Z", slaSeconds: 600 }, now)).toBe(false);
    expect(isStale({ lastSuccess: "2026-03-01T09:59:59Z", slaSeconds: 600 }, now)).toBe(true);
  });
  it("isStale() reads a last success up to two minutes ahead of the clock as just now, and one further ahead as of unknown age", () => {
    expect(isStale({ lastSuccess: "2026-03-01T10:12:00Z", slaSeconds: 600 }, now)).toBe(false);
    expect(ageSeconds({ lastSuccess: "2026-03-01T10:12:00Z" }, now)).toBe(0);
    expect(isStale({ lastSuccess: "2026-03-01T10:12:01Z", slaSeconds: 600 }, now)).toBe(true);
    expect(ageSeconds({ lastSuccess: "2026-03-01T13:10:00Z" }, now)).toBeNull();
    // Within two minutes of the record (the clocks caught up) the data reads as fresh again.
    expect(isStale({ lastSuccess: "2026-03-01T13:10:00Z", slaSeconds: 600 }, new Date("2026-03-01T13:09:00Z"))).toBe(false);
  });
  it("isStale() is true when the type never succeeded", () => {
    expect(isStale({ lastSuccess: null, slaSeconds: 600 }, now)).toBe(true);
  });
});
