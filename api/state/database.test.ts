import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";
import { EmbeddedPostgresError, embeddedUrl, freePort, runningServer } from "./embedded.ts";
import { migrate, MigrationError, MIGRATIONS_DIR } from "./migrate.ts";
import type { Database } from "./types.ts";

let dataDir: string;
let db: Database;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agentfeed-dbtest-"));
  db = await openDatabase({ dataDir, databaseUrl: "" });
});

afterAll(async () => {
  await db?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("openDatabase()", () => {
  it("openDatabase() initialises an embedded cluster in <dataDir>/pg and applies every migration once", async () => {
    expect(db.kind).toBe("embedded");
    expect((await readdir(join(dataDir, "pg"))).includes("PG_VERSION")).toBe(true);
    const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith(".sql")).sort();
    const { rows } = await db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name");
    expect(rows.map((row) => row.name)).toEqual(files);
    expect(await migrate(db)).toEqual([]);
    const again = await db.query("SELECT count(*)::int AS n FROM schema_migrations");
    expect(again.rows[0]?.n).toBe(files.length);
  });

  it("openDatabase() keeps generated credentials in the data folder with mode 0600", async () => {
    const mode = (await stat(join(dataDir, "pg-credentials.json"))).mode & 0o777;
    expect(mode).toBe(0o600);
    const url = await embeddedUrl(dataDir);
    expect(url).toMatch(/^postgres:\/\/agentfeed:[0-9a-f]{48}@127\.0\.0\.1:\d+\/agentfeed$/);
  });

  it("openDatabase() on a folder whose server runs joins it and leaves it running on close", async () => {
    const before = await runningServer(join(dataDir, "pg"));
    const second = await openDatabase({ dataDir, databaseUrl: "" });
    await second.query("CREATE TABLE IF NOT EXISTS join_probe (n int)");
    await second.close();
    expect(await runningServer(join(dataDir, "pg"))).toEqual(before);
    const { rowCount } = await db.query("SELECT 1 FROM join_probe");
    expect(rowCount).toBe(0);
  });

  it("openDatabase() with a databaseUrl uses that server as kind server", async () => {
    const url = await embeddedUrl(dataDir);
    const server = await openDatabase({ databaseUrl: url });
    expect(server.kind).toBe("server");
    const { rows } = await server.query<{ n: number }>("SELECT 41 + 1 AS n");
    expect(rows[0]?.n).toBe(42);
    await server.close();
  });

  it("transaction() commits on success and rolls back on throw", async () => {
    await db.query("CREATE TABLE tx_probe (n int)");
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO tx_probe VALUES (1)");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_probe VALUES (2)");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const { rows } = await db.query<{ n: number }>("SELECT n FROM tx_probe ORDER BY n");
    expect(rows).toEqual([{ n: 1 }]);
  });

  it("query() with prepareAs keeps the statement prepared on its connection and answers each call with its own values", async () => {
    const sum = "SELECT $1::int + $2::int AS n";
    await db.transaction(async (tx) => {
      const first = await tx.query<{ n: number }>(sum, [1, 2], { prepareAs: "probe_sum" });
      const second = await tx.query<{ n: number }>(sum, [40, 2], { prepareAs: "probe_sum" });
      expect([first.rows[0]?.n, second.rows[0]?.n]).toEqual([3, 42]);
      const prepared = await tx.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements WHERE name = 'probe_sum'");
      expect(prepared.rows.map((r) => r.statement)).toEqual([sum]);
    });
  });
});

describe("openDatabase() against a server that never answers", () => {
  it("fails within its connect timeout, naming the server without the password, instead of waiting forever", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const silent = createServer((socket) => sockets.add(socket)).listen(0, "127.0.0.1");
    await new Promise((resolve) => silent.once("listening", resolve));
    const { port } = silent.address() as import("node:net").AddressInfo;
    const started = Date.now();
    const error = await openDatabase({ databaseUrl: `postgres://app:s3cret@127.0.0.1:${port}/x`, connectTimeoutMs: 300 }).catch((caught: unknown) => caught);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^cannot connect to the Postgres server 127\.0\.0\.1:\d+\/x: .*timeout/);
    expect((error as Error).message).not.toContain("s3cret");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("migrate()", () => {
  it("migrate() run by many callers at once applies each file exactly once, in name order", async () => {
    const dir = join(dataDir, "migrations-race");
    await mkdir(dir);
    // Not idempotent on purpose: running a file twice would fail.
    await writeFile(join(dir, "0001_a.sql"), "CREATE TABLE race_a (n int); INSERT INTO race_a VALUES (1);");
    await writeFile(join(dir, "0002_b.sql"), "CREATE TABLE race_b AS SELECT n + 1 AS n FROM race_a;");
    await writeFile(join(dir, "README.txt"), "not a migration");
    const others = [0, 1, 2, 3].map(() => openDatabase({ databaseUrl: "", dataDir, migrationsDir: dir, poolSize: 2 }));
    const opened = await Promise.all(others);
    const { rows } = await db.query<{ n: number }>("SELECT n FROM race_b");
    expect(rows).toEqual([{ n: 2 }]);
    const names = await db.query<{ name: string }>(
      "SELECT name FROM schema_migrations WHERE name IN ('0001_a.sql', '0002_b.sql') ORDER BY applied_at, name",
    );
    expect(names.rows.map((row) => row.name)).toEqual(["0001_a.sql", "0002_b.sql"]);
    await Promise.all(opened.map((other) => other.close()));
  });

  it("migrate() reports the failing file and records nothing for it", async () => {
    const dir = join(dataDir, "migrations-bad");
    await mkdir(dir);
    await writeFile(join(dir, "0003_bad.sql"), "CREATE TABLE half_done (n int); SELECT * FROM no_such_table;");
    const error = await migrate(db, dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toContain("0003_bad.sql");
    const { rowCount } = await db.query("SELECT 1 FROM schema_migrations WHERE name = '0003_bad.sql'");
    expect(rowCount).toBe(0);
    const table = await db.query("SELECT to_regclass('half_done') AS t");
    expect(table.rows[0]?.t).toBeNull();
  });
});

describe("close()", () => {
  it("close() stops the embedded server and a reopen finds the data (warm start)", async () => {
    await db.query("CREATE TABLE warm_probe (n int); INSERT INTO warm_probe VALUES (7)");
    await db.close();
    expect(await runningServer(join(dataDir, "pg"))).toBeUndefined();
    // A port someone else holds is a clear error, and leaves the folder usable.
    const port = await freePort();
    const squatter = createServer().listen(port, "127.0.0.1");
    await new Promise((resolve) => squatter.once("listening", resolve));
    const error = await openDatabase({ dataDir, databaseUrl: "", port }).catch((caught: unknown) => caught);
    await new Promise((resolve) => squatter.close(resolve));
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    db = await openDatabase({ dataDir, databaseUrl: "" });
    const { rows } = await db.query<{ n: number }>("SELECT n FROM warm_probe");
    expect(rows).toEqual([{ n: 7 }]);
  });

  it("openDatabase() adopts a server whose starter died and stops it on close", async () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(join(dataDir, "pg-owner.pid"), String(gone));
    const adopter = await openDatabase({ dataDir, databaseUrl: "" });
    await adopter.query("SELECT 1");
    await adopter.close();
    expect(await runningServer(join(dataDir, "pg"))).toBeUndefined();
    await db.close();
    db = await openDatabase({ dataDir, databaseUrl: "" });
    const { rows } = await db.query<{ n: number }>("SELECT n FROM warm_probe");
    expect(rows).toEqual([{ n: 7 }]);
  });
});
