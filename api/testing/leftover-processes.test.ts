import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { markedProcesses, stopMarkedProcesses, TEST_RUN_MARKER } from "./leftover-processes.ts";

describe("leftover processes", () => {
  it("markedProcesses() finds a child of the run by its inherited marker, and stopMarkedProcesses() ends it", async () => {
    // The global setup marks the run; a private marker here keeps this test from touching its neighbours' processes.
    expect(process.env[TEST_RUN_MARKER]).toBeTruthy();
    const id = `leftover-test-${process.pid}`;
    const child = spawn("sleep", ["30"], { env: { ...process.env, [TEST_RUN_MARKER]: id }, stdio: "ignore" });
    const exited = new Promise((done) => child.once("exit", done));
    await new Promise((done) => child.once("spawn", done));
    expect(markedProcesses(id).map((p) => p.pid)).toEqual([child.pid]);
    expect(markedProcesses(`other-${id}`)).toEqual([]);
    const stopped = stopMarkedProcesses(id, 2_000);
    expect(stopped.map((p) => p.command)).toEqual(["sleep 30"]);
    await exited;
    expect(markedProcesses(id)).toEqual([]);
  });
});
