/**
 * `npm run demo:pay`: the paid path end to end on a local chain — quote, USDC transfer, confirm, premium call,
 * receipt verification, the x402 retry and a trial grant — printing each step.
 */
import { runPaymentWalkthrough } from "../api/payments/testing/walkthrough.ts";
import { replaySnapshots } from "./lib/replay-snapshots.ts";

try {
  await runPaymentWalkthrough(replaySnapshots, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write("demo:pay finished\n");
} catch (err) {
  process.stderr.write(`demo:pay failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
