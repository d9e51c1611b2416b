/**
 * The reader's own temp folder (where DuckDB spills what does not fit its memory limit), named after the process
 * that made it: `agentfeed-reader-<pid>-XXXXXX`. A reader removes its folder when it closes; a process killed
 * before that (SIGKILL) cannot, so each new folder first removes those of processes that no longer run.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "../process-alive.ts";

const PREFIX = "agentfeed-reader-";
const OWNED = /^agentfeed-reader-(\d+)-[A-Za-z0-9]{6}$/;

/** Remove the reader folders in `dir` whose process no longer runs; returns their names. */
export function sweepStaleReaderTemps(dir = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stale = names.filter((name) => {
    const pid = Number(OWNED.exec(name)?.[1] ?? 0);
    return pid > 0 && pid !== process.pid && !processAlive(pid);
  });
  return stale.filter((name) => {
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      return true;
    } catch {
      return false; // another user's folder: theirs to remove
    }
  });
}

/** A new temp folder for this process's reader, after sweeping the stale ones. */
export function makeReaderTemp(dir = tmpdir()): string {
  sweepStaleReaderTemps(dir);
  return mkdtempSync(join(dir, `${PREFIX}${process.pid}-`));
}
