/**
 * Builds a snapshots folder from the recorded upstream fixtures (pipelines/fixtures/) by running the named
 * feeds in replay. Tools that start a real server on real snapshots (attack, demo:pay and their end-to-end
 * test) take this as their snapshot builder, so api/ never imports the pipeline runner itself.
 */
import { join, resolve } from "node:path";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";

const FIXTURES = resolve(import.meta.dirname, "../../pipelines/fixtures");

/** Run `types` in replay into `snapshotsDir`; one summary line (`news changed, status changed …`). Throws on an unknown type or a failed feed. */
export async function replaySnapshots(snapshotsDir: string, types: readonly string[]): Promise<string> {
  const registry = feeds as Record<string, (typeof feeds)[keyof typeof feeds]>;
  const unknown = types.filter((t) => !(t in registry));
  if (unknown.length > 0) throw new Error(`replaySnapshots: unknown snapshot type(s) ${unknown.join(", ")}`);
  const results = await runFeeds({
    feeds: Object.fromEntries(types.map((t) => [t, registry[t]!])),
    snapshotsDir,
    replayDir: join(FIXTURES),
  });
  const failed = results.filter((r) => r.status === "failed");
  if (failed.length > 0) throw new Error(`replaySnapshots: ${failed.map((r) => `${r.feed}: ${r.error ?? "failed"}`).join("; ")}`);
  return results.map((r) => `${r.feed} ${r.status}`).join(", ");
}
