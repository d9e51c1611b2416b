/** Entry point of `npm run warehouse`; see pipelines/lib/warehouse/cli.ts. */
import { main } from "../pipelines/lib/warehouse/cli.ts";

process.exitCode = await main({ argv: process.argv.slice(2) });
