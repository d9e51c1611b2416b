import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { buildWarehouseDb } from "../../pipelines/lib/warehouse/build.ts";
import { WarehouseFiles, type WarehouseBuildJob } from "./warehouse-files.ts";

/** A committed day file to serve. */
const DAY_FILE = resolve(import.meta.dirname, "../../snapshots/warehouse/model_prices/2026-11-22.parquet");

describe("WarehouseFiles", () => {
  let dir: string;
  let builds: WarehouseBuildJob[];
  const warnings: string[] = [];
  /** The real builder, counting its calls. */
  const build = async (job: WarehouseBuildJob) => {
    builds.push(job);
    await buildWarehouseDb(job.manifestDir, { target: job.target, partitions: job.partitions, ...(job.manifest ? { manifest: job.manifest } : {}) });
  };
  const files = () => new WarehouseFiles({ dirs: [join(dir, "local"), join(dir, "bundled")], tables: WAREHOUSE_TABLES, dbPath: join(dir, "db", "warehouse.duckdb"), build, onWarn: (m) => warnings.push(m) });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentfeed-whfiles-"));
    builds = [];
    warnings.length = 0;
    await mkdir(join(dir, "bundled/warehouse/model_prices"), { recursive: true });
    await copyFile(DAY_FILE, join(dir, "bundled/warehouse/model_prices/2026-11-22.parquet"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("database() builds once for callers arriving together, reuses the build until the day files change, and can answer the previous build while it rebuilds", { timeout: 60_000 }, async () => {
    const wh = files();
    const [a, b] = await Promise.all([wh.database(), wh.database()]);
    expect(builds).toHaveLength(1);
    expect(builds[0]!.partitions.model_prices).toEqual([join(dir, "bundled/warehouse/model_prices/2026-11-22.parquet")]);
    expect(a).toEqual(b);
    await wh.database();
    expect(builds).toHaveLength(1);

    await mkdir(join(dir, "local/warehouse/model_prices"), { recursive: true });
    await copyFile(DAY_FILE, join(dir, "local/warehouse/model_prices/2026-11-23.parquet"));
    wh.invalidate();
    // The listing's way: the previous build at once, the rebuild behind it.
    expect(await wh.database({ waitForFresh: false })).toEqual(a);
    await wh.idle();
    expect(builds).toHaveLength(2);
    expect(builds[1]!.partitions.model_prices).toHaveLength(2);
    expect((await wh.database())!.builtAt.getTime()).toBeGreaterThanOrEqual(a!.builtAt.getTime());
    expect(builds).toHaveLength(2);
  });

  it("a new server adopts a database left by an earlier one when no day file is newer, and rebuilds one that is older", { timeout: 60_000 }, async () => {
    const built = await files().database();
    expect(builds).toHaveLength(1);
    await files().database();
    expect(builds).toHaveLength(1);

    const past = new Date(Date.now() - 3_600_000);
    await utimes(built!.path, past, past);
    await files().database();
    expect(builds).toHaveLength(2);
  });

  it("a failed build keeps serving the previous database with a warning, and throws when there is none", { timeout: 60_000 }, async () => {
    const wh = files();
    const first = await wh.database();
    await writeFile(join(dir, "bundled/warehouse/model_prices/2026-11-23.parquet"), "not parquet");
    wh.invalidate();
    expect(await wh.database()).toEqual(first);
    expect(warnings.join("\n")).toMatch(/rebuild failed, serving the previous build/);

    await rm(join(dir, "db"), { recursive: true });
    wh.invalidate();
    await expect(wh.database()).rejects.toThrow(/buildWarehouseDb/);
  });

  it("each build records the manifest entries served at that moment", { timeout: 60_000 }, async () => {
    const at = "2026-11-22T10:00:00.000Z";
    let served = [{ type: "pricing", date: "2026-11-22", lastSuccess: at, lastAttempt: at, lastChanged: at, lastError: null, rows: 3, provenance: "replay" as const, slaSeconds: 3600, cadence: "hourly", sources: [] }];
    const wh = new WarehouseFiles({ dirs: [join(dir, "local"), join(dir, "bundled")], tables: WAREHOUSE_TABLES, dbPath: join(dir, "db", "warehouse.duckdb"), build, manifest: () => served });
    await wh.database();
    expect(builds[0]!.manifest).toEqual(served);
    served = [...served, { ...served[0]!, type: "status" }];
    await mkdir(join(dir, "local/warehouse/model_prices"), { recursive: true });
    await copyFile(DAY_FILE, join(dir, "local/warehouse/model_prices/2026-11-23.parquet"));
    wh.invalidate();
    await wh.database();
    expect(builds[1]!.manifest!.map((m) => m.type)).toEqual(["pricing", "status"]);
  });

  it("candidates() names only declared tables and real days; listing() skips other names", async () => {
    const wh = files();
    expect(wh.candidates("model_prices", "2026-11-22")).toEqual([join(dir, "local/warehouse/model_prices/2026-11-22.parquet"), join(dir, "bundled/warehouse/model_prices/2026-11-22.parquet")]);
    expect(wh.candidates("nope", "2026-11-22")).toEqual([]);
    expect(wh.candidates("model_prices", "2026-02-30")).toEqual([]);
    expect(wh.candidates("model_prices", "../x")).toEqual([]);
    await writeFile(join(dir, "bundled/warehouse/model_prices/latest.parquet"), "x");
    await writeFile(join(dir, "bundled/warehouse/model_prices/2026-02-30.parquet"), "x");
    const listing = await wh.listing();
    expect(listing.tables.model_prices!.map((p) => p.date)).toEqual(["2026-11-22"]);
    expect(Object.keys(listing.tables).sort()).toEqual(Object.keys(WAREHOUSE_TABLES).sort());
  });
});
