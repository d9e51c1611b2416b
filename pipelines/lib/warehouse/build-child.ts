/**
 * Child-process entry of {@link buildWarehouseDbInChild}: reads one build job (JSON) from stdin, builds the
 * database, exits 0; on failure writes one line naming the cause to stderr and exits 1. It also exits when its
 * parent goes away (the IPC channel closes), so a killed server never leaves a build running.
 */
import { buildWarehouseDb } from "./build.ts";
import type { ChildBuildJob } from "./build-process.ts";

process.on("disconnect", () => process.exit(2));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => (input += chunk));
process.stdin.on("end", () => {
  void (async () => {
    try {
      const job = JSON.parse(input) as ChildBuildJob;
      await buildWarehouseDb(job.manifestDir, { target: job.target, partitions: job.partitions, ...(job.manifest ? { manifest: job.manifest } : {}) });
      process.exit(0);
    } catch (err) {
      process.stderr.write(`${(err instanceof Error ? err.message : String(err)).split("\n")[0]!.slice(0, 1000)}\n`);
      process.exit(1);
    }
  })();
});
