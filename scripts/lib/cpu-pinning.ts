/**
 * Keeping a benchmark's load generator and the servers it measures on CPUs of their own (Linux `taskset`). On a
 * small machine the scheduler otherwise moves them about, and a server that shares a CPU with the load generator
 * for part of a run comes out slower than the same server on a CPU of its own: two identical servers measured
 * side by side differed by up to a third in CPU time per request.
 */
import { execFileSync } from "node:child_process";

/** Which CPU the load generator runs on, and which one every measured server shares. */
export interface Pinning {
  loadCpu: number;
  serverCpu: number;
}

/** The CPU numbers of a `taskset -p`/`-pc` affinity list such as `0,1` or `0-3,6`. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(",")) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) continue;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let cpu = first; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/**
 * The pinning to use: the first CPU this process may run on for the load generator and the last for the servers,
 * or null when `BENCH_PIN=0`, `taskset` is missing, or fewer than two CPUs are allowed.
 */
export function choosePinning(env: NodeJS.ProcessEnv = process.env): Pinning | null {
  if (env.BENCH_PIN === "0") return null;
  let allowed: number[];
  try {
    const out = execFileSync("taskset", ["-pc", String(process.pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    allowed = parseCpuList(out.slice(out.lastIndexOf(":") + 1));
  } catch {
    return null;
  }
  if (allowed.length < 2) return null;
  return { loadCpu: allowed[0]!, serverCpu: allowed.at(-1)! };
}

/** `command args…` run on the servers' CPU (taskset execs the command, so the process id stays the server's). */
export function onServerCpu(pinning: Pinning | null, command: string, args: readonly string[]): [string, string[]] {
  return pinning ? ["taskset", ["-c", String(pinning.serverCpu), command, ...args]] : [command, [...args]];
}

/** Move every thread of this process (the load generator) onto its CPU. */
export function pinLoadGenerator(pinning: Pinning | null): void {
  if (pinning) execFileSync("taskset", ["-a", "-pc", String(pinning.loadCpu), String(process.pid)], { stdio: "ignore" });
}
