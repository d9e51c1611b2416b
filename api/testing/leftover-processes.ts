/**
 * Finds and stops the processes a test run started and left behind (postgres, anvil, API servers). Every process
 * started under a run inherits its marker, `AGENTFEED_TEST_RUN=<id>`, in its environment, so the run's processes are
 * found in /proc whatever became of their parents; nothing else on the machine is touched.
 */
import { readdirSync, readFileSync } from "node:fs";

/** The environment variable that marks a test run's processes. */
export const TEST_RUN_MARKER = "AGENTFEED_TEST_RUN";

/** A process carrying the marker. */
export interface MarkedProcess {
  pid: number;
  command: string;
}

/** This process and every process above it (npm, the shell running `npm test`…): they carry the marker too. */
function selfAndAncestors(): number[] {
  const chain = [process.pid];
  let pid = process.ppid;
  while (pid > 1 && chain.length < 64) {
    chain.push(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      break;
    }
  }
  return chain;
}

/** Processes (other than this one and its ancestors) whose environment carries `marker=id` (Linux /proc; elsewhere none). */
export function markedProcesses(id: string, exclude: readonly number[] = selfAndAncestors()): MarkedProcess[] {
  const needle = `${TEST_RUN_MARKER}=${id}\0`;
  const found: MarkedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || exclude.includes(pid)) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, "latin1");
      if (!`${environ}\0`.includes(needle)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue; // a zombie holds nothing
      const command = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim().slice(0, 200);
      found.push({ pid, command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Signal every marked process: SIGTERM first (postgres and anvil shut down cleanly), SIGKILL for what remains after `graceMs`. */
export function stopMarkedProcesses(id: string, graceMs = 3_000): MarkedProcess[] {
  const left = markedProcesses(id);
  for (const { pid } of left) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + graceMs;
  while (markedProcesses(id).length > 0 && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  for (const { pid } of markedProcesses(id)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return left;
}
