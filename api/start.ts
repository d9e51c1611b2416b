/**
 * `npm start`. Loading the server's modules takes seconds on a small machine, so a data folder whose embedded
 * Postgres another running agentfeed owns is refused first, in one line, before any of them loads; then the
 * server runs (api/server.ts `main`). Everything else is checked by the server itself.
 */
import "./http/prime-next-tick.ts";
import { dataDirOf } from "./state/data-dir.ts";
import { dataFolderInUse } from "./state/embedded.ts";

if (!process.env.DATABASE_URL) {
  const inUse = await dataFolderInUse(dataDirOf(process.env.DATA_DIR));
  if (inUse) {
    process.stderr.write(`agentfeed: cannot start: ${inUse}\n`);
    process.exit(1);
  }
}
const { main } = await import("./server.ts");
await main();
