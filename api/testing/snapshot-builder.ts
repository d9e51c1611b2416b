/**
 * How a tool that starts a real server gets its snapshots: a function that writes the named snapshot types into
 * a folder and returns one summary line. The implementation over the pipelines (scripts/lib/replay-snapshots.ts)
 * is passed in by the caller, so api/ does not import the runner.
 */
export type SnapshotBuilder = (snapshotsDir: string, types: readonly string[]) => Promise<string>;
