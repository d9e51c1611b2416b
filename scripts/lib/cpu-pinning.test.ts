import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { choosePinning, onServerCpu, parseCpuList } from "./cpu-pinning.ts";

describe("parseCpuList", () => {
  it("reads single CPUs, ranges and their mix, and skips what is not a CPU number", () => {
    expect(parseCpuList("0,1")).toEqual([0, 1]);
    expect(parseCpuList(" 0-3,6\n")).toEqual([0, 1, 2, 3, 6]);
    expect(parseCpuList("5")).toEqual([5]);
    expect(parseCpuList("x,2")).toEqual([2]);
    expect(parseCpuList("")).toEqual([]);
  });
});

describe("onServerCpu", () => {
  it("prefixes taskset with the servers' CPU, and leaves the command alone without pinning", () => {
    expect(onServerCpu({ loadCpu: 0, serverCpu: 3 }, "node", ["-e", "1"])).toEqual(["taskset", ["-c", "3", "node", "-e", "1"]]);
    expect(onServerCpu(null, "node", ["-e", "1"])).toEqual(["node", ["-e", "1"]]);
  });

  it("is off with BENCH_PIN=0", () => {
    expect(choosePinning({ BENCH_PIN: "0" })).toBeNull();
  });

  const pinning = choosePinning({});
  it.runIf(pinning !== null)("runs the command on that CPU alone", () => {
    const [command, args] = onServerCpu(pinning, process.execPath, ["-e", "process.stdout.write(require('node:fs').readFileSync('/proc/self/status', 'utf8'))"]);
    const status = execFileSync(command, args, { encoding: "utf8" });
    expect(/^Cpus_allowed_list:\s*(.+)$/m.exec(status)?.[1]?.trim()).toBe(String(pinning!.serverCpu));
  });
});
