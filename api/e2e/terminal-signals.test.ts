/**
 * `npm start` in a terminal: Ctrl-C and closing the terminal signal the whole foreground process group, so the
 * server, its embedded Postgres and its test chain receive the signal together. The server must stop with all of
 * them, and nothing may start the database again meanwhile (its watcher restarts only a server that was lost to a
 * crash or a kill, never one that was asked to stop).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningServer } from "../state/embedded.ts";
import { markedProcesses, stopMarkedProcesses, TEST_RUN_MARKER } from "../testing/leftover-processes.ts";
import { freePort } from "../testing/free-port.ts";
import { spawnApi } from "../testing/spawn-api.ts";

const ROOT = resolve(import.meta.dirname, "../..");

// A marker of this file's own: the processes its servers start are found by it, and none of the neighbours'.
const marker = `terminal-signals-${process.pid}`;
let dataDir = "";

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agentfeed-terminal-"));
});

afterAll(async () => {
  stopMarkedProcesses(marker, 2_000);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Signal a process group, wait for its leader to exit, and report what is left of it. */
async function signalAndWait(leader: ChildProcess, signal: "SIGINT" | "SIGHUP") {
  const exited = new Promise<number | null>((done) => leader.once("exit", (code) => done(code)));
  process.kill(-leader.pid!, signal);
  const code = await exited;
  // The watcher notices within its one-second period; give it two more to do something wrong.
  await new Promise((done) => setTimeout(done, 2_000));
  return { code, left: markedProcesses(marker), database: await runningServer(join(dataDir, "pg")) };
}

/** Start the server as a terminal would (its own process group), signal the group, and report what is left. */
async function signalGroup(signal: "SIGINT" | "SIGHUP") {
  const api = await spawnApi({ DATA_DIR: dataDir, DATABASE_URL: "", [TEST_RUN_MARKER]: marker }, { ownProcessGroup: true, schedule: true, timeoutMs: 60_000 });
  expect((await fetch(`${api.base}/api/meta`)).status).toBe(200);
  // The group holds the server and what it started: Postgres and the test chain.
  const started = markedProcesses(marker).map((p) => p.command).join("\n");
  expect(started).toMatch(/postgres -D /);
  expect(started).toMatch(/anvil /);
  return { ...(await signalAndWait(api.child, signal)), stderr: api.stderr() };
}

describe("signals from a terminal reach the whole process group", () => {
  it("Ctrl-C (SIGINT to the group) stops the server, its Postgres and its chain; nothing restarts Postgres", { timeout: 90_000 }, async () => {
    const after = await signalGroup("SIGINT");
    expect(after.stderr).toContain("SIGINT received, shutting down");
    expect(after.stderr).not.toContain("restarting it");
    expect(after.code).toBe(0);
    expect(after.database).toBeUndefined();
    expect(after.left).toEqual([]);
  });

  it("closing the terminal (SIGHUP to the group) stops them all too, instead of leaving Postgres running", { timeout: 90_000 }, async () => {
    const after = await signalGroup("SIGHUP");
    expect(after.stderr).toContain("SIGHUP received, shutting down");
    expect(after.code).toBe(0);
    expect(after.database).toBeUndefined();
    expect(after.left).toEqual([]);
  });

  it("npm start runs the server under Node itself: Ctrl-C the moment its port opens still stops everything cleanly", { timeout: 90_000 }, async () => {
    // The tsx command relays a signal to its child and kills it outright when the child, busy starting, has not
    // acknowledged it within about 60 ms; the server then died without stopping what it had started.
    const scripts = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts.start).toMatch(/^node --import tsx api\/start\.ts$/);
    const port = await freePort();
    const child = spawn("npm", ["start"], {
      cwd: ROOT,
      env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", [TEST_RUN_MARKER]: marker },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.resume();
    // Signal as soon as the port answers: the server is still busy finishing its start then (loading its scheduler).
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/api/meta`).then((res) => res.ok, () => false);
      if (up) break;
      if (Date.now() > deadline) throw new Error(`npm start did not answer within 60 s: ${stderr.slice(0, 500)}`);
      await new Promise((done) => setTimeout(done, 20));
    }
    const after = await signalAndWait(child, "SIGINT");
    expect(stderr).toContain("SIGINT received, shutting down");
    expect(after.database).toBeUndefined();
    expect(after.left).toEqual([]);
  });
});
