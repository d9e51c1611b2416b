/** Entry point of `npm run pipelines`; see pipelines/runner/cli.ts. */
import { feeds } from "./feeds/index.ts";
import { main } from "./runner/cli.ts";

process.exitCode = await main(process.argv.slice(2), {
  feeds,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
