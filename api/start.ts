/**
 * `npm start`. Loading the server's modules takes seconds on a small machine, so what can be refused without
 * them is refused first, in one line, before any of them loads: the settings `loadConfig` reads (config.ts), and
 * a data folder whose embedded Postgres another running agentfeed owns. Then the server runs (api/server.ts
 * `main`), which checks everything else itself.
 */
import "./http/prime-next-tick.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { dataDirOf } from "./state/data-dir.ts";
import { dataFolderInUse } from "./state/embedded.ts";

const refuse = (reason: string): never => {
  process.stderr.write(`agentfeed: cannot start: ${reason}\n`);
  process.exit(1);
};

try {
  loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  refuse(error.message);
}
if (!process.env.DATABASE_URL) {
  const inUse = await dataFolderInUse(dataDirOf(process.env.DATA_DIR));
  if (inUse) refuse(inUse);
}
const { main } = await import("./server.ts");
await main();
