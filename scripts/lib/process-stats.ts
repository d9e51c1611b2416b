/**
 * What a benchmark reads about the server process it measures, from /proc (Linux): CPU time used so far and
 * resident memory. Each answers null where /proc or the process is not there.
 */
import { readFileSync } from "node:fs";

/**
 * CPU time (user + system) the process has used so far, in ms; with `thread`, that one thread's (a thread id of
 * the process: its own pid is its main thread).
 */
export function processCpuMs(pid: number | undefined, thread?: number): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks of 1/100 s.
    const stat = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    const fields = readFileSync(stat, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
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
