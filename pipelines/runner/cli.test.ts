import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSnapshotStore, type SnapshotStore } from "../lib/store/snapshot-store.ts";
import type { Feed, HttpClient } from "../lib/types.ts";
import { main } from "./cli.ts";
import { fnFeed } from "./test-feeds.ts";

const noHttp: HttpClient = {
  getText: async (url) => {
    throw new Error(`unexpected request ${url}`);
  },
  getJson: async (url) => {
    throw new Error(`unexpected request ${url}`);
  },
};

describe("main()", () => {
  let dir: string;
  let store: SnapshotStore;
  let out: string;
  let err: string;
  const ok = fnFeed("ok", () => ({ data: { items: [{ id: "a", value: 1 }] }, rows: 1 }), {
    urls: () => ["https://b.example.test/2", "https://a.example.test/1"],
  });
  const broken = fnFeed("broken", () => {
    throw new Error("upstream returned garbage");
  }, { urls: () => ["https://a.example.test/1", "https://c.example.test/3"] });

  const cli = (argv: string[], feeds: Record<string, Feed>) =>
    main(argv, {
      feeds,
      stdout: (s) => void (out += s),
      stderr: (s) => void (err += s),
      run: { store, http: noHttp, now: new Date("2026-03-01T10:00:00Z") },
    });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-cli-"));
    store = createSnapshotStore({ dir });
    out = "";
    err = "";
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("main() exits 0 when one feed of two fails, printing progress to stderr and the table to stdout", async () => {
    expect(await cli([], { ok, broken })).toBe(0);
    expect(err).toMatch(/ok started/);
    expect(err).toMatch(/broken failed/);
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^feed\s+status\s+rows\s+ms\s+notices$/);
    expect(out).toMatch(/^ok\s+changed\s+1\s+\d+\s+0$/m);
    expect(out).toMatch(/^broken\s+failed\s+0\s+\d+\s+0$/m);
    expect(out).toMatch(/broken: error: Error: upstream returned garbage/);
    expect((await store.manifest()).types.broken!.lastError).toBe("Error: upstream returned garbage");
  });

  it("main() --due runs only the feeds whose cron slot came after their last attempt", async () => {
    const daily = fnFeed("daily", () => ({ data: { items: [] }, rows: 0 }), { cron: "0 6 * * *" });
    expect(await cli([], { ok, daily })).toBe(0); // both attempted at 10:00
    out = "";
    err = "";
    const later = (at: string) =>
      main(["--due"], { feeds: { ok, daily }, stdout: (t) => void (out += t), stderr: (t) => void (err += t), run: { store, http: noHttp, now: new Date(at) } });
    expect(await later("2026-03-01T10:04:00Z")).toBe(0);
    expect(err).toMatch(/no feed is due/);
    expect(await later("2026-03-01T10:06:00Z")).toBe(0);
    expect(out).toMatch(/^ok\s+unchanged/m);
    expect(out).not.toMatch(/^daily/m);
  });

  it("main() exits 1 when every selected feed fails", async () => {
    expect(await cli(["broken"], { ok, broken })).toBe(1);
    expect(out).toMatch(/1 feeds: 0 changed, 0 unchanged, 1 failed/);
  });

  it("main() exits 2 on an unknown feed name and runs nothing", async () => {
    expect(await cli(["ok", "nope"], { ok, broken })).toBe(2);
    expect(err).toMatch(/unknown feed "nope"; known feeds: ok, broken/);
    expect(await readdir(dir)).toEqual([]);
  });

  it("main() exits 2 on a --replay folder that does not exist, and writes nothing", async () => {
    expect(await cli(["--replay", join(dir, "no-such-fixtures"), "ok"], { ok, broken })).toBe(2);
    expect(err).toMatch(/--replay .*no-such-fixtures: no such folder of recorded fixtures/);
    expect(await readdir(dir)).toEqual([]);
  });

  it("main() exits 2 on an unknown flag", async () => {
    expect(await cli(["--frobnicate"], { ok })).toBe(2);
    expect(err).toMatch(/usage:/);
  });

  it("main() --list-urls prints every URL once, sorted, and runs nothing", async () => {
    expect(await cli(["--list-urls"], { ok, broken })).toBe(0);
    expect(out).toBe("https://a.example.test/1\nhttps://b.example.test/2\nhttps://c.example.test/3\n");
    expect(await readdir(dir)).toEqual([]);
    out = "";
    expect(await cli(["--list-urls", "broken"], { ok, broken })).toBe(0);
    expect(out).toBe("https://a.example.test/1\nhttps://c.example.test/3\n");
  });

  it("main() --dry-run reports the status and writes nothing", async () => {
    expect(await cli(["--dry-run", "ok"], { ok, broken })).toBe(0);
    expect(out).toMatch(/^ok\s+changed/m);
    expect(await readdir(dir)).toEqual([]);
  });

  it("main() exits 1 when the run itself breaks", async () => {
    const misnamed = fnFeed("other-type", () => ({ data: { items: [] }, rows: 0 }));
    expect(await cli([], { mine: misnamed })).toBe(1);
    expect(err).toMatch(/run failed: .*"mine" has type "other-type"/);
  });
});
