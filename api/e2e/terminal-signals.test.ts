/**
 * `npm start` in a terminal: Ctrl-C and closing the terminal signal the whole foreground process group, so the
 * server, its embedded Postgres and its test chain receive the signal together. The server must stop with all of
 * them, and nothing may start the database again meanwhile (its watcher restarts only a server that was lost to a
 * crash or a kill, never one that was asked to stop).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningServer } from "../state/embedded.ts";
import { markedProcesses, stopMarkedProcesses, TEST_RUN_MARKER } from "../testing/leftover-processes.ts";
import { spawnApi } from "../testing/spawn-api.ts";

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

/** Start the server as a terminal would (its own process group), signal the group, and report what is left. */
async function signalGroup(signal: "SIGINT" | "SIGHUP") {
  const api = await spawnApi({ DATA_DIR: dataDir, DATABASE_URL: "", [TEST_RUN_MARKER]: marker }, { ownProcessGroup: true, schedule: true, timeoutMs: 60_000 });
  expect((await fetch(`${api.base}/api/meta`)).status).toBe(200);
  // The group holds the server and what it started: Postgres and the test chain.
  const started = markedProcesses(marker).map((p) => p.command).join("\n");
  expect(started).toMatch(/postgres -D /);
  expect(started).toMatch(/anvil /);
  const exited = new Promise<number | null>((done) => api.child.once("exit", (code) => done(code)));
  process.kill(-api.child.pid!, signal);
  const code = await exited;
  // The watcher notices within its one-second period; give it two more to do something wrong.
  await new Promise((done) => setTimeout(done, 2_000));
  return { code, stderr: api.stderr(), left: markedProcesses(marker), database: await runningServer(join(dataDir, "pg")) };
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
});
