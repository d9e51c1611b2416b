/**
 * An error nothing in the server catches must not leave its embedded Postgres and its test chain running without
 * their owner: the server names the error in one line, stops everything it started, as on Ctrl-C, and exits
 * with 1. The error comes from a signal handler a preload installs (api/testing/crash-on-sigusr2.cjs): an exception
 * nothing catches, or a rejected promise nothing handles.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningServer } from "../state/embedded.ts";
import { markedProcesses, stopMarkedProcesses, TEST_RUN_MARKER } from "../testing/leftover-processes.ts";
import { spawnApi } from "../testing/spawn-api.ts";

const CRASH_PRELOAD = resolve(import.meta.dirname, "../testing/crash-on-sigusr2.cjs");
// A marker of this file's own: the processes its server starts are found by it, and none of the neighbours'.
const marker = `unexpected-error-${process.pid}`;
let dataDir = "";

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agentfeed-crash-"));
});

afterAll(async () => {
  stopMarkedProcesses(marker, 2_000);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("an error nothing catches", () => {
  it.each(["throw", "reject"])("(%s) stops the server with its Postgres and its chain, names the error and exits with 1", { timeout: 90_000 }, async (kind) => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: "", AGENTFEED_TEST_CRASH: kind, [TEST_RUN_MARKER]: marker };
    const api = await spawnApi(env, { nodeArgs: ["--require", CRASH_PRELOAD], timeoutMs: 60_000 });
    expect((await fetch(`${api.base}/api/meta`)).status).toBe(200);
    const started = markedProcesses(marker).map((p) => p.command).join("\n");
    expect(started).toMatch(/postgres -D /);
    expect(started).toMatch(/anvil /);

    const exited = new Promise<number | null>((done) => api.child.once("exit", (code) => done(code)));
    process.kill(api.child.pid!, "SIGUSR2");
    const code = await exited;
    // Postgres's watcher would notice a lost server within a second: give it two to restart one by mistake.
    await new Promise((done) => setTimeout(done, 2_000));

    expect(code).toBe(1);
    expect(api.stderr()).toContain(`agentfeed: unexpected error, shutting down: Error: crash requested by the test (SIGUSR2, ${kind})\n`);
    expect(api.stderr()).toMatch(/crash-on-sigusr2\.cjs:\d+/); // the stack follows, for whoever reads the log
    expect(api.stderr()).not.toContain("restarting it");
    expect(await runningServer(join(dataDir, "pg"))).toBeUndefined();
    expect(markedProcesses(marker)).toEqual([]);
  });

  it("after a stop signal, an error on the way out is one line, without a stack, and the stop still ends cleanly", { timeout: 90_000 }, async () => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: "", AGENTFEED_TEST_CRASH: "after-sigterm", [TEST_RUN_MARKER]: marker };
    const api = await spawnApi(env, { nodeArgs: ["--require", CRASH_PRELOAD], timeoutMs: 60_000 });
    expect((await fetch(`${api.base}/api/meta`)).status).toBe(200);
    const exited = new Promise<number | null>((done) => api.child.once("exit", (code) => done(code)));
    process.kill(api.child.pid!, "SIGTERM");
    expect(await exited).toBe(0);
    expect(api.stderr()).toContain("agentfeed: SIGTERM received, shutting down\n");
    expect(api.stderr()).toContain("agentfeed: while stopping after SIGTERM: Error: a client failed while the server stops (test)\n");
    expect(api.stderr()).not.toContain("unexpected error");
    expect(api.stderr()).not.toMatch(/crash-on-sigusr2\.cjs:\d+/);
    expect(await runningServer(join(dataDir, "pg"))).toBeUndefined();
    expect(markedProcesses(marker)).toEqual([]);
  });
});
