/**
 * Build warehouse.duckdb in a child process. A year of day files passes through DuckDB's allocator while the
 * database is written; in the server's own process that peak (hundreds of MB) would stay resident long after
 * the build. A child returns all of it to the system when it exits.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SnapshotMeta } from "../types.ts";

/** What the child builds: the same inputs as buildWarehouseDb. */
export interface ChildBuildJob {
  manifestDir: string;
  /** The manifest entries to record (instead of `<manifestDir>/manifest.json`). */
  manifest?: SnapshotMeta[];
  target: string;
  partitions: Readonly<Record<string, readonly string[]>>;
}

const CHILD = fileURLToPath(new URL("./build-child.ts", import.meta.url));
/** The TypeScript loader the child runs under (the same one `npm start` uses). */
const TSX = import.meta.resolve("tsx");

/** Run one build in a child process; rejects with the child's own one-line cause when it fails. */
export function buildWarehouseDbInChild(job: ChildBuildJob): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TSX, CHILD], { stdio: ["pipe", "ignore", "pipe", "ipc"] });
    let stderr = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.once("error", (err) => reject(new Error(`warehouse build process did not start: ${err.message}`)));
    child.once("exit", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(stderr.trim().split("\n").at(-1)?.slice(0, 1000) || `warehouse build process ended with ${signal ?? `code ${code}`}`));
    });
    child.stdin!.end(JSON.stringify(job));
  });
}
