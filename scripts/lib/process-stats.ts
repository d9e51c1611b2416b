/**
 * What a benchmark reads about the server process it measures, from /proc (Linux): CPU time used so far (of the
 * process, one of its threads, its child processes, or the whole machine) and resident memory. Each answers
 * null where /proc or the process is not there.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Milliseconds in one clock tick of /proc's CPU times (USER_HZ: 1/100 s on Linux). */
const TICK_MS = 10;

/**
 * The parent and the CPU time (user + system, in ms) of one /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat file.
 * The fields after the command name (which may hold spaces) start with the state; the parent id is the 2nd of
 * them, utime and stime the 12th and 13th. Throws when the file cannot be read.
 */
function readStat(path: string): { parent: number; cpuMs: number } {
  const fields = readFileSync(path, "utf8").split(") ")[1]!.split(" ");
  return { parent: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
}

/**
 * CPU time (user + system) the process has used so far, in ms; with `thread`, that one thread's (a thread id of
 * the process: its own pid is its main thread).
 */
export function processCpuMs(pid: number | undefined, thread?: number): number | null {
  if (!pid) return null;
  try {
    return readStat(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`).cpuMs;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) used so far by each running descendant of `pid` (its children, theirs, …), in ms by
 * process id. Compare two readings with {@link cpuSpentMs}: a sum would shrink when a descendant exits.
 */
export function descendantsCpuMs(pid: number | undefined): Map<number, number> | null {
  if (!pid) return null;
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const e of entries) {
    try {
      const stat = readStat(`/proc/${e}/stat`);
      parent.set(Number(e), stat.parent);
      cpu.set(Number(e), stat.cpuMs);
    } catch {
      /* the process ended between the listing and the read */
    }
  }
  const isDescendant = (p: number): boolean => {
    for (let up = parent.get(p), hops = 0; up !== undefined && up > 1 && hops < 64; up = parent.get(up), hops++) if (up === pid) return true;
    return false;
  };
  return new Map([...cpu].filter(([p]) => isDescendant(p)));
}

/**
 * CPU time the processes of `after` spent since `before` (two {@link descendantsCpuMs} readings), in ms: a process
 * born in between counts whole; one that ended in between is not counted (its last time is unknown).
 */
export function cpuSpentMs(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let spent = 0;
  for (const [p, ms] of after) spent += ms - Math.min(ms, before.get(p) ?? 0);
  return spent;
}

/**
 * CPU time the whole machine has spent busy so far, in ms summed over its cores (user, nice, system, irq and
 * softirq from /proc/stat; idle, I/O wait and time stolen by a hypervisor are not counted).
 */
export function machineBusyMs(): number | null {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq] = cpu;
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) * TICK_MS;
  } catch {
    return null;
  }
}

/**
 * Resident memory now (`rss`) and its high-water mark (`peak`), in MB; `anon` is the part no file backs (heap,
 * DuckDB's blocks), `file` the mapped code and libraries the system can drop and share.
 */
export function processMemoryMb(pid: number | undefined): { rss: number; peak: number; anon: number | null; file: number | null } | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const mb = (key: string) => {
      const kb = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
      return kb === undefined ? null : Math.round(Number(kb) / 1024);
    };
    const rss = mb("VmRSS");
    const peak = mb("VmHWM");
    return rss === null || peak === null ? null : { rss, peak, anon: mb("RssAnon"), file: mb("RssFile") };
  } catch {
    return null;
  }
}
