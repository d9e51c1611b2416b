/**
 * `npm run pipelines -- [feed…] [--due] [--replay <dir>] [--list-urls] [--dry-run]`.
 * Exit status: 0 when at least one selected feed succeeded (or --list-urls / --help), 1 when every selected
 * feed failed or the run itself broke, 2 for a usage error (unknown feed, unknown flag, a --replay folder that
 * does not exist).
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Feed } from "../lib/types.ts";
import { createSnapshotStore } from "../lib/store/snapshot-store.ts";
import { describeError } from "./describe-error.ts";
import { dueFeeds } from "./due.ts";
import { MissingReplayDirError, UnknownFeedError } from "./errors.ts";
import { runFeeds, selectFeeds, type RunFeedsOptions } from "./run-feeds.ts";
import { formatSummary } from "./summary.ts";

export const USAGE = `usage: npm run pipelines -- [feed…] [--due] [--replay <dir>] [--list-urls] [--dry-run]

  feed…            run only these feeds (default: all)
  --due            run only the feeds whose cron had a slot since their last attempt (for schedulers)
  --replay <dir>   answer every upstream request from recorded fixtures in <dir> (provenance: replay)
  --list-urls      print every upstream URL the selected feeds request, sorted, and exit
  --dry-run        run and validate, write nothing
  -h, --help       this text

exit status: 0 at least one feed succeeded, 1 every feed failed or the run broke, 2 usage error
(unknown feed or flag, a --replay folder that does not exist)
`;

export interface CliIo {
  feeds: Record<string, Feed>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Extra options for runFeeds (tests pass a store, an HTTP client, a clock). */
  run?: Partial<RunFeedsOptions>;
}

/** Run the CLI with `argv` (without node and script); resolves to the exit status. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    io.stdout(USAGE);
    return 0;
  }
  let only = args.positionals;
  try {
    if (args.values.due) {
      const store = io.run?.store ?? createSnapshotStore(io.run?.snapshotsDir === undefined ? {} : { dir: io.run.snapshotsDir });
      const candidates = Object.fromEntries(selectFeeds(io.feeds, only).map((n) => [n, io.feeds[n]!]));
      only = dueFeeds(candidates, (await store.manifest()).types, io.run?.now ?? new Date());
      if (only.length === 0) {
        io.stderr("no feed is due\n");
        return 0;
      }
    }
    const names = selectFeeds(io.feeds, only);
    if (args.values["list-urls"]) {
      const urls = new Set(names.flatMap((n) => io.feeds[n]!.urls()));
      io.stdout([...urls].sort().map((u) => `${u}\n`).join(""));
      return 0;
    }
    const results = await runFeeds({
      feeds: io.feeds,
      only,
      ...(args.values.replay ? { replayDir: resolve(args.values.replay) } : {}),
      dryRun: args.values["dry-run"] ?? false,
      onProgress: (line) => io.stderr(`${line}\n`),
      ...io.run,
    });
    io.stdout(formatSummary(results));
    return results.length > 0 && results.every((r) => r.status === "failed") ? 1 : 0;
  } catch (error) {
    if (error instanceof UnknownFeedError) {
      io.stderr(`${error.message}\n`);
      return 2;
    }
    // A mistyped fixtures folder: runFeeds refused it before any feed ran or anything was recorded.
    if (error instanceof MissingReplayDirError) {
      io.stderr(`--replay ${args.values.replay}: no such folder of recorded fixtures\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`pipelines: run failed: ${describeError(error)}\n`);
    return 1;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      replay: { type: "string" },
      due: { type: "boolean" },
      "list-urls": { type: "boolean" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
