/** `npm run attack`: replay the issue-10 attacks against a server this script starts; one line per attack. */
import { runAttacks } from "../api/testing/attack.ts";
import { replaySnapshots } from "./lib/replay-snapshots.ts";

try {
  const results = await runAttacks(replaySnapshots, (line) => process.stdout.write(`${line}\n`));
  const broken = results.filter((r) => !r.held).length;
  process.stdout.write(`attack finished: ${results.length - broken} held, ${broken} broken\n`);
  if (broken > 0) process.exitCode = 1;
} catch (err) {
  process.stderr.write(`attack failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
}
