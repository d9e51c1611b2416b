import { spawn, spawnSync } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";
import { EmbeddedPostgresError, runningServer, startEmbeddedPostgres } from "./embedded.ts";
import { findPostgresBinaries } from "./postgres-binaries.ts";
import { blockedFolder } from "./postgres-identity.ts";
import type { Database } from "./types.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const isRoot = process.getuid?.() === 0;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});
afterAll(async () => {
  if (unprivileged.skip === undefined) await rm(unprivileged.home, { recursive: true, force: true });
});

/** A fresh 0700 folder (a home of mode 0700, as root's is), removed after the test. */
async function privateFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o700);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function open(dataDir: string): Promise<Database> {
  const db = await openDatabase({ dataDir, databaseUrl: "", onWarn: () => undefined });
  cleanups.push(() => db.close());
  return db;
}

/** Run open-embedded.ts in another process; resolves with its first JSON line and a way to stop it. */
function openElsewhere(dataDir: string, options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "api/state/testing/open-embedded.ts", dataDir], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((done) => child.once("exit", done));
    child.stdin.end();
    await gone;
  };
  cleanups.push(stop);
  const answer = new Promise<{ ok: boolean; message?: string; where?: string; pid?: number }>((resolveAnswer, reject) => {
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolveAnswer(JSON.parse(line));
    });
    child.once("exit", (code) => {
      if (!out.includes("\n")) reject(new Error(`open-embedded exited ${code} without answering: ${err.slice(0, 500)}`));
    });
  });
  return { child, answer, stop };
}

describe("startEmbeddedPostgres() ownership", () => {
  it("refuses a data folder whose database another live process owns, naming its pid", async () => {
    const dataDir = join(await privateFolder("agentfeed-owner-"), "data");
    const owner = openElsewhere(dataDir);
    const first = await owner.answer;
    expect(first.ok).toBe(true);
    const started = Date.now();
    const error = await openDatabase({ dataDir, databaseUrl: "" }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    expect((error as Error).message).toContain(`pid ${first.pid}`);
    expect((error as Error).message).toContain("DATABASE_URL");
    // The owner is untouched and, once it stops, the folder can be opened again with its data.
    await owner.stop();
    expect(await runningServer(join(dataDir, "pg"))).toBeUndefined();
    const db = await open(dataDir);
    expect((await db.query<{ n: number }>("SELECT 1 AS n")).rows[0]?.n).toBe(1);
  });

  it("restarts its embedded server when the server is lost while serving", async () => {
    const dataDir = join(await privateFolder("agentfeed-lost-"), "data");
    const db = await openDatabase({ dataDir, databaseUrl: "", watchMs: 100, onWarn: () => undefined });
    cleanups.push(() => db.close());
    await db.query("CREATE TABLE kept (n int); INSERT INTO kept VALUES (5)");
    const before = await runningServer(join(dataDir, "pg"));
    process.kill(before!.pid, "SIGKILL");
    let after: Awaited<ReturnType<typeof runningServer>>;
    for (let attempt = 0; attempt < 200 && !after; attempt++) {
      await new Promise((done) => setTimeout(done, 100));
      after = await runningServer(join(dataDir, "pg"));
    }
    let rows: { n: number }[] | undefined;
    for (let attempt = 0; attempt < 100 && !rows; attempt++) {
      rows = await db.query<{ n: number }>("SELECT n FROM kept").then((result) => result.rows, () => undefined);
      if (!rows) await new Promise((done) => setTimeout(done, 100));
    }
    expect(rows).toEqual([{ n: 5 }]);
    expect(after?.port).toBe(before!.port);
    expect(after?.pid).not.toBe(before!.pid);
  });
  it("leaves stopped a server that shut down cleanly from outside (Ctrl-C reaches it with this process)", async () => {
    const dataDir = join(await privateFolder("agentfeed-asked-"), "data");
    const warnings: string[] = [];
    const db = await openDatabase({ dataDir, databaseUrl: "", watchMs: 50, onWarn: (line) => warnings.push(line) });
    cleanups.push(() => db.close());
    const before = await runningServer(join(dataDir, "pg"));
    process.kill(before!.pid, "SIGINT");
    for (let attempt = 0; attempt < 200 && warnings.length === 0; attempt++) await new Promise((done) => setTimeout(done, 50));
    // Several of the watcher's periods later, still stopped, and said once.
    await new Promise((done) => setTimeout(done, 500));
    expect(await runningServer(join(dataDir, "pg"))).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/shut down from outside .*not restarting it/);
    await db.close();
    expect(await runningServer(join(dataDir, "pg"))).toBeUndefined();
  });

  it("close() during a restart stops the server that restart starts", async () => {
    const dataDir = join(await privateFolder("agentfeed-restarting-"), "data");
    const clusterDir = join(dataDir, "pg");
    cleanups.push(async () => {
      const left = await runningServer(clusterDir);
      if (left) process.kill(left.pid, "SIGKILL");
    });
    let restarting!: () => void;
    const restartBegun = new Promise<void>((done) => (restarting = done));
    const db = await openDatabase({
      dataDir,
      databaseUrl: "",
      watchMs: 20,
      onWarn: (line) => {
        if (line.includes("restarting it")) restarting();
      },
    });
    cleanups.push(() => db.close());
    process.kill((await runningServer(clusterDir))!.pid, "SIGKILL");
    await restartBegun;
    await db.close();
    expect(await runningServer(clusterDir)).toBeUndefined();
    // Nothing comes up after close either.
    await new Promise((done) => setTimeout(done, 300));
    expect(await runningServer(clusterDir)).toBeUndefined();
  });
});

describe("startEmbeddedPostgres() start failures are one clear line, at once", () => {
  it("a damaged cluster names the folder and what to do", async () => {
    const dataDir = join(await privateFolder("agentfeed-damaged-"), "data");
    const db = await openDatabase({ dataDir, databaseUrl: "" });
    await db.close();
    await truncate(join(dataDir, "pg", "global", "pg_control"), 0);
    const started = Date.now();
    const error = await openDatabase({ dataDir, databaseUrl: "" }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    const message = (error as Error).message;
    expect(message).toContain(join(dataDir, "pg"));
    expect(message).toMatch(/damaged/);
    expect(message).not.toContain("\n");
  });

  it("a cluster another PostgreSQL version wrote is refused before start", async () => {
    const dataDir = join(await privateFolder("agentfeed-version-"), "data");
    await mkdir(join(dataDir, "pg"), { recursive: true });
    await writeFile(join(dataDir, "pg", "PG_VERSION"), "15\n");
    await writeFile(join(dataDir, "pg-credentials.json"), JSON.stringify({ user: "agentfeed", password: "x" }), { mode: 0o600 });
    const error = await startEmbeddedPostgres({ dataDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    const { major } = await findPostgresBinaries();
    expect((error as Error).message).toContain(`written by PostgreSQL 15 but this install runs PostgreSQL ${major}`);
  });

  it("binaries that cannot be run are named with how to reinstall them", async () => {
    const folder = await privateFolder("agentfeed-nobin-");
    await mkdir(join(folder, "native", "bin"), { recursive: true });
    await writeFile(join(folder, "native", "bin", "initdb"), "not a program", { mode: 0o644 });
    const error = await startEmbeddedPostgres({ dataDir: join(folder, "data"), binariesRoot: join(folder, "native") }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(/initdb is not executable .*npm ci/);
  });
});

const unprivileged = await prepareUnprivilegedUser();

describe("startEmbeddedPostgres() runs wherever the clone is", () => {
  it.skipIf(!isRoot)("as root, with the binaries and the data under a 0700 home, keeps data across restarts", async () => {
    const home = await privateFolder("agentfeed-roothome-");
    const installed = await findPostgresBinaries();
    await cp(installed.root, join(home, "native"), { recursive: true, verbatimSymlinks: true });
    const dataDir = join(home, "clone", ".data");
    const server = await startEmbeddedPostgres({ dataDir, binariesRoot: join(home, "native") });
    cleanups.push(() => server.stop());
    expect(server.identity).toMatch(/user namespace/);
    const db = await openDatabase({ databaseUrl: server.url, onWarn: () => undefined });
    await db.query("CREATE TABLE durable (n int); INSERT INTO durable VALUES (9)");
    await db.close();
    await server.stop();
    const again = await startEmbeddedPostgres({ dataDir, binariesRoot: join(home, "native") });
    cleanups.push(() => again.stop());
    const reopened = await openDatabase({ databaseUrl: again.url, onWarn: () => undefined });
    cleanups.push(() => reopened.close());
    expect((await reopened.query<{ n: number }>("SELECT n FROM durable")).rows).toEqual([{ n: 9 }]);
  });

  it.skipIf(!isRoot)("as root without user namespaces, a 0700 home is refused at once with the folder and the ways out", async () => {
    const home = await privateFolder("agentfeed-roothome-");
    const installed = await findPostgresBinaries();
    await cp(installed.root, join(home, "native"), { recursive: true, verbatimSymlinks: true });
    const error = await startEmbeddedPostgres({
      dataDir: join(home, "clone", ".data"),
      binariesRoot: join(home, "native"),
      runAsRoot: "system-user",
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(`cannot enter ${home} (mode 0700)`);
    expect((error as Error).message).toContain("DATABASE_URL");
  });

  it.skipIf(unprivileged.skip !== undefined)(
    `as an unprivileged user with the data under its 0700 home${unprivileged.skip ? ` (skipped: ${unprivileged.skip})` : ""}`,
    async () => {
      const { uid, gid, home } = unprivileged as { uid: number; gid: number; home: string };
      const dataDir = join(home, ".data");
      const other = openElsewhere(dataDir, { uid, gid, env: { ...process.env, HOME: home } });
      const answer = await other.answer;
      expect(answer).toMatchObject({ ok: true });
      expect(answer.where).toContain("as the current user");
      await other.stop();
      const owner = (await readFile(join(dataDir, "pg", "PG_VERSION")).then(() => spawnSync("stat", ["-c", "%u", join(dataDir, "pg")], { encoding: "utf8" }).stdout.trim()));
      expect(Number(owner)).toBe(uid);
    },
  );
});

/**
 * The unprivileged case needs a user other than root: as root one is created (once) with a 0700 home; it must be able
 * to read this clone. Anything else is a stated skip.
 */
async function prepareUnprivilegedUser(): Promise<{ uid: number; gid: number; home: string; skip?: undefined } | { skip: string }> {
  if (!isRoot) return { skip: "the suite already runs as an unprivileged user, which every other test covers" };
  const name = "agentfeed-test";
  let entry = spawnSync("id", ["-u", name], { encoding: "utf8" });
  if (entry.status !== 0) {
    const made = spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", name], { encoding: "utf8" });
    if (made.status !== 0) return { skip: `cannot create a user here (${(made.stderr || made.error?.message || "").trim()})` };
    entry = spawnSync("id", ["-u", name], { encoding: "utf8" });
  }
  const uid = Number(entry.stdout.trim());
  const gid = Number(spawnSync("id", ["-g", name], { encoding: "utf8" }).stdout.trim());
  const blocked = await blockedFolder(join(ROOT, "node_modules", ".bin"), uid, gid);
  if (blocked) return { skip: `this clone is not readable by other users (${blocked.dir} has mode ${blocked.mode.toString(8)})` };
  const home = await mkdtemp(join(tmpdir(), "agentfeed-userhome-"));
  spawnSync("chown", [`${uid}:${gid}`, home]);
  await chmod(home, 0o700);
  return { uid, gid, home };
}
