import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpRegistryFeed } from "../../feeds/mcp-registry.ts";
import { statusFeed } from "../../feeds/status.ts";
import { createSnapshotStore } from "../store/snapshot-store.ts";
import { main } from "./cli.ts";
import { rebuildFromHistory } from "./rebuild.ts";

const run = promisify(execFile);
const BUNDLED = new URL("../../../snapshots/", import.meta.url);
const feeds = { status: statusFeed, "mcp-registry": mcpRegistryFeed };

interface StatusBody {
  services: { provider: string; status: string }[];
}

async function bundled<T>(type: string): Promise<T> {
  return JSON.parse(await readFile(new URL(`${type}/latest.json`, BUNDLED), "utf8")) as T;
}

async function rows(dir: string, table: string, date: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    await conn.run("SET TimeZone = 'UTC'");
    const sql = `SELECT * EXCLUDE (date), CAST(date AS VARCHAR) AS date FROM read_parquet($1) ORDER BY ALL`;
    const reader = await conn.runAndReadAll(sql, [join(dir, "warehouse", table, `${date}.parquet`)]);
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function mtimes(dir: string, files: string[]): Promise<number[]> {
  return Promise.all(files.map(async (f) => (await stat(join(dir, "warehouse", f))).mtimeMs));
}

describe("rebuildFromHistory()", () => {
  let repo: string;
  let dir: string;
  let plain: string;

  // A repository whose snapshots/ folder has commits on three UTC days, two of them on the second day.
  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), "af-whgit-"));
    plain = await mkdtemp(join(tmpdir(), "af-whfiles-"));
    dir = join(repo, "snapshots");
    const git = (args: string[], env: Record<string, string> = {}) => run("git", ["-C", repo, ...args], { env: { ...process.env, ...env } });
    await git(["init", "-q"]);
    await git(["config", "user.email", "ci@example.test"]);
    await git(["config", "user.name", "ci"]);
    const commit = (iso: string) => git(["add", "-A"]).then(() => git(["commit", "-qm", `snapshots ${iso}`], { GIT_AUTHOR_DATE: iso, GIT_COMMITTER_DATE: iso }));
    const store = createSnapshotStore({ dir });
    const status = await bundled<StatusBody>("status");
    const mcp = await bundled<unknown>("mcp-registry");
    const record = (type: string, data: unknown, iso: string) =>
      store.recordSuccess({ type, now: new Date(iso), provenance: "live", slaSeconds: 600, cadence: "test", data, rows: 1 });

    await record("status", status, "2026-01-10T10:00:00.000Z");
    await record("mcp-registry", mcp, "2026-01-10T10:01:00.000Z");
    await commit("2026-01-10T10:05:00Z");
    await record("status", status, "2026-01-11T09:00:00.000Z");
    await commit("2026-01-11T09:05:00Z");
    const down = { services: status.services.map((s, i) => (i === 0 ? { ...s, status: "down" } : s)) };
    await record("status", down, "2026-01-11T18:00:00.000Z");
    await commit("2026-01-11T18:05:00Z");
    await record("mcp-registry", mcp, "2026-01-12T06:00:00.000Z");
    await commit("2026-01-12T06:05:00Z");
    await cp(dir, plain, { recursive: true });
  });
  afterAll(async () => {
    await rm(repo, { recursive: true, force: true });
    await rm(plain, { recursive: true, force: true });
  });

  it("rebuildFromHistory() writes each day's rows from that day's last commit, and a second run changes nothing", async () => {
    const status = await bundled<StatusBody>("status");
    const progress: string[] = [];
    const first = await rebuildFromHistory(dir, { feeds, onProgress: (done, total, date) => progress.push(`${done}/${total} ${date}`) });
    expect(first).toMatchObject({ source: "git", days: 3, first: "2026-01-10", last: "2026-01-12", written: 4, unchanged: 0, skipped: [] });
    expect(first.tables).toEqual([
      { table: "mcp_registry_daily", days: 2, rows: 2 },
      { table: "status_samples", days: 2, rows: 2 * status.services.length },
    ]);
    expect(progress).toEqual(["1/3 2026-01-10", "2/3 2026-01-11", "3/3 2026-01-12"]);

    const day1 = await rows(dir, "status_samples", "2026-01-10");
    expect(day1).toHaveLength(status.services.length);
    expect(new Set(day1.map((r) => r.ts))).toEqual(new Set([new Date("2026-01-10T10:00:00Z").toISOString().replace("T", " ").replace(".000Z", "+00")]));
    // Day 2 has two commits: only the later one (18:00, first provider down) stands for the day.
    const day2 = await rows(dir, "status_samples", "2026-01-11");
    expect(day2).toHaveLength(status.services.length);
    expect(day2.every((r) => String(r.ts).startsWith("2026-01-11 18:00:00"))).toBe(true);
    expect(day2.find((r) => r.provider === status.services[0]!.provider)?.status).toBe("down");
    // mcp-registry succeeded on days 1 and 3 only; status did not run on day 3.
    expect(await rows(dir, "mcp_registry_daily", "2026-01-10")).toEqual([{ count: "6", delta_1d: null, date: "2026-01-10" }]);
    expect(await rows(dir, "mcp_registry_daily", "2026-01-12")).toEqual([{ count: "6", delta_1d: null, date: "2026-01-12" }]);
    await expect(stat(join(dir, "warehouse/mcp_registry_daily/2026-01-11.parquet"))).rejects.toThrow(/ENOENT/);
    await expect(stat(join(dir, "warehouse/status_samples/2026-01-12.parquet"))).rejects.toThrow(/ENOENT/);

    const files = ["status_samples/2026-01-10.parquet", "status_samples/2026-01-11.parquet", "mcp_registry_daily/2026-01-10.parquet", "mcp_registry_daily/2026-01-12.parquet"];
    const before = await mtimes(dir, files);
    const second = await rebuildFromHistory(dir, { feeds });
    expect(second).toMatchObject({ days: 3, written: 0, unchanged: 4, retyped: 0 });
    expect(second.tables).toEqual(first.tables);
    expect(await mtimes(dir, files)).toEqual(before);
  });

  it("rebuildFromHistory() without git uses the dated snapshot files present", async () => {
    const summary = await rebuildFromHistory(plain, { feeds, git: false });
    // Dated files: status on days 1 and 2, mcp-registry on day 1 (its day-3 body was unchanged, so no file).
    expect(summary).toMatchObject({ source: "files", days: 2, first: "2026-01-10", last: "2026-01-11", written: 3 });
    const day2 = await rows(plain, "status_samples", "2026-01-11");
    expect(day2.find((r) => r.status === "down")).toBeDefined();
    expect(await rows(plain, "mcp_registry_daily", "2026-01-10")).toEqual([{ count: "6", delta_1d: null, date: "2026-01-10" }]);
  });

  it("main() with --from-git prints a progress bar and the summary table, then builds the database", async () => {
    let out = "";
    let err = "";
    const code = await main({ argv: ["--from-git"], dir, feeds, stdout: (s) => void (out += s), stderr: (s) => void (err += s), tty: false });
    expect(code).toBe(0);
    expect(err).toContain("[##############################] 3/3 2026-01-12");
    expect(out).toMatch(/rebuilt from git history: 3 days \(2026-01-10 … 2026-01-12\), 0 partitions written, 4 unchanged, 0 retyped, in \d+\.\d s/);
    expect(out).toMatch(/^status_samples\s+2\s+28$/m);
    expect(out).toMatch(/^mcp_registry_daily\s+2$/m);
    expect(await main({ argv: ["--nope"], dir, stdout: () => undefined, stderr: (s) => void (err += s) })).toBe(2);
  });
});
