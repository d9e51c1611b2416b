/**
 * A process that ends through `process.exit` without stopping its embedded Postgres (a script's early exit, the
 * forced exit of a shutdown that hung) must not leave the server running: the "exit" listener sends it the
 * fast-shutdown signal, both for a server the process started and for one it adopted from a process that died.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { markedProcesses, stopMarkedProcesses, TEST_RUN_MARKER } from "../testing/leftover-processes.ts";
import { runningServer } from "./embedded.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = "api/state/testing/exit-without-stop.ts";
// A marker of this file's own: the processes it starts are found by it, and none of the neighbours'.
const marker = `process-exit-${process.pid}`;
const folders: string[] = [];

afterAll(async () => {
  stopMarkedProcesses(marker, 2_000);
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

/** Run the fixture on `dataDir`; resolves to the postmaster pid it printed and the child (exited unless `hold`). */
async function runFixture(dataDir: string, hold = false) {
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, dataDir, ...(hold ? ["hold"] : [])], {
    cwd: ROOT,
    env: { ...process.env, [TEST_RUN_MARKER]: marker },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const pid = await new Promise<number>((ok, fail) => {
    child.stdout!.once("data", (c: Buffer) => ok(Number(c.toString().trim())));
    void exited.then((code) => fail(new Error(`fixture exited with ${code} before printing: ${err}`)));
  });
  return { pid, child, exited };
}

/** Wait up to 15 s for no server to run from `clusterDir` (its postmaster.pid gone, or naming a dead process). */
async function gone(clusterDir: string): Promise<boolean> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    if ((await runningServer(clusterDir)) === undefined) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}

describe("process.exit without stopping the embedded Postgres", () => {
  it("stops a server the process started", { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "agentfeed-exit-"));
    folders.push(dataDir);
    const run = await runFixture(dataDir);
    expect(await run.exited).toBe(0);
    expect(run.pid).toBeGreaterThan(0);
    expect(await gone(join(dataDir, "pg"))).toBe(true);
    expect(markedProcesses(marker)).toEqual([]);
  });

  it("stops a server the process adopted from one killed outright", { timeout: 90_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "agentfeed-exit-"));
    folders.push(dataDir);
    // SIGKILL runs no listener: the first owner's server is left behind, as after `kill -9`.
    const first = await runFixture(dataDir, true);
    first.child.kill("SIGKILL");
    await first.exited;
    expect(await runningServer(join(dataDir, "pg"))).toMatchObject({ pid: first.pid });
    // The next process adopts it, then exits without stopping it.
    const second = await runFixture(dataDir);
    expect(await second.exited).toBe(0);
    expect(second.pid).toBe(first.pid);
    expect(await gone(join(dataDir, "pg"))).toBe(true);
    expect(markedProcesses(marker)).toEqual([]);
  });
});
