/**
 * vitest global setup: marks every process the run starts (see leftover-processes.ts) and, when the run ends —
 * passed, failed, or interrupted with Ctrl-C or SIGTERM — stops whatever is still running. A process that a test
 * left behind fails the run, named, so the leak is fixed where it is rather than hidden here.
 */
import { randomBytes } from "node:crypto";
import { markedProcesses, stopMarkedProcesses, TEST_RUN_MARKER } from "./leftover-processes.ts";

export default function setup(): () => Promise<void> {
  // .ci/run sets the marker itself so it can look for leftovers after npm test; otherwise one per run.
  const id = (process.env[TEST_RUN_MARKER] ??= `vitest-${process.pid}-${randomBytes(4).toString("hex")}`);
  const onSignal = (signal: NodeJS.Signals) => {
    stopMarkedProcesses(id, 2_000);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return async () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    // Give processes whose stop was just requested a moment to finish exiting.
    const deadline = Date.now() + 5_000;
    while (markedProcesses(id).length > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    const left = stopMarkedProcesses(id);
    if (left.length > 0) {
      throw new Error(`the test run left ${left.length} process(es) running (now stopped): ${left.map((p) => `${p.pid} ${p.command}`).join("; ")}`);
    }
  };
}
