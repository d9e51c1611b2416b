/**
 * For api/state/process-exit.test.ts: start (or adopt) the embedded Postgres of the data folder given as
 * argument, print its postmaster's pid, then end with `process.exit` without stopping it; with `hold` as second
 * argument, wait instead (to be killed).
 */
import { join } from "node:path";
import { runningServer, startEmbeddedPostgres } from "../embedded.ts";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: exit-without-stop.ts <data dir>");
await startEmbeddedPostgres({ dataDir });
const running = await runningServer(join(dataDir, "pg"));
process.stdout.write(`${running?.pid ?? "none"}\n`);
if (process.argv[3] === "hold") setInterval(() => {}, 60_000);
else process.exit(0);
