import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuSpentMs, descendantsCpuMs, machineBusyMs, processCpuMs } from "./process-stats.ts";

const linux = process.platform === "linux";

describe.runIf(linux)("process-stats", () => {
  it("counts a busy child process under its parent and in the machine's busy time, not in the parent's own", async () => {
    const ownBefore = processCpuMs(process.pid)!;
    const machineBefore = machineBusyMs()!;
    const descendantsBefore = descendantsCpuMs(process.pid);
    // A child that spins until it has used 400 ms of CPU (not of wall time: a loaded machine gives it less), says
    // so, then waits to be stopped (its time must be read while it runs).
    const spin = "const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (cpu() < 400); console.log('done'); setInterval(() => {}, 1000);";
    const child = spawn(process.execPath, ["-e", spin], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise<void>((ok, fail) => {
        child.stdout!.once("data", () => ok());
        child.once("exit", (code) => fail(new Error(`the busy child exited early with ${code}`)));
      });
      const descendants = descendantsCpuMs(process.pid)!;
      expect(descendants.get(child.pid!)).toBeGreaterThanOrEqual(300);
      expect(cpuSpentMs(descendantsBefore, descendants)).toBeGreaterThanOrEqual(300);
      expect(descendantsCpuMs(child.pid)!.size).toBe(0);
      expect(machineBusyMs()! - machineBefore).toBeGreaterThanOrEqual(300);
      expect(processCpuMs(process.pid)! - ownBefore).toBeLessThan(300);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("counts what processes spent between two readings: a new one whole, an ended one not at all", () => {
    expect(cpuSpentMs(new Map([[10, 50], [11, 70]]), new Map([[10, 80], [12, 30]]))).toBe(60);
    expect(cpuSpentMs(null, new Map())).toBeNull();
  });

  it("answers null for a process that is not there", () => {
    expect(processCpuMs(undefined)).toBeNull();
    expect(descendantsCpuMs(undefined)).toBeNull();
    expect(processCpuMs(2 ** 22 + 1)).toBeNull();
  });
});
