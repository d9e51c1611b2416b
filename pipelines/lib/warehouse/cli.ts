/**
 * `npm run warehouse`: rebuild `<SNAPSHOTS_DIR>/warehouse.duckdb` and print each table with its row count.
 * `npm run warehouse -- --from-git` first rebuilds every day's Parquet partitions from the history of the
 * snapshots folder (git, or the dated files without git), with a progress bar and a summary table.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { withWarehouseExamples, withWarehouseTables } from "../../contract/warehouse-docs.ts";
import { WAREHOUSE_EXAMPLES } from "../../contract/warehouse-examples.ts";
import { WAREHOUSE_TABLES } from "../../contract/warehouse-tables.ts";
import { feeds as registry } from "../../feeds/index.ts";
import { defaultSnapshotsDir } from "../store/snapshot-store.ts";
import type { Feed } from "../types.ts";
import { buildWarehouseDb } from "./build.ts";
import { rebuildFromHistory, type RebuildSummary } from "./rebuild.ts";

export interface WarehouseCliOptions {
  /** Command-line arguments (default none). */
  argv?: string[];
  /** Snapshots folder (default SNAPSHOTS_DIR or `snapshots/`). */
  dir?: string;
  /** The feed registry (default: every feed). */
  feeds?: Record<string, Feed>;
  stdout?: (text: string) => void;
  /** Where the progress bar goes (default stderr). */
  stderr?: (text: string) => void;
  /** Redraw the bar in place (default: stderr is a terminal); otherwise a line every 10%. */
  tty?: boolean;
  /** The README whose tables and examples sections `--docs` rewrites (default: snapshots/warehouse/README.md of this checkout). */
  readme?: string;
}

/** snapshots/warehouse/README.md of this checkout: the researchers' guide, with the generated tables and examples. */
export const WAREHOUSE_README = fileURLToPath(new URL("../../../snapshots/warehouse/README.md", import.meta.url));

const USAGE = `usage: npm run warehouse [-- --from-git | --docs]

  (no flag)   build <SNAPSHOTS_DIR>/warehouse.duckdb from the Parquet partitions
  --from-git  first rebuild the partitions of every day the git history of the snapshots folder
              holds (the last commit of each UTC day wins); without git, from the dated snapshot files
  --docs      rewrite the generated tables and example questions in snapshots/warehouse/README.md
`;

/** Run the command; resolves to the exit status. */
export async function main(options: WarehouseCliOptions = {}): Promise<number> {
  const out = options.stdout ?? ((text: string) => void process.stdout.write(text));
  const err = options.stderr ?? ((text: string) => void process.stderr.write(text));
  let fromGit = false;
  try {
    const { values } = parseArgs({
      args: options.argv ?? [],
      options: { "from-git": { type: "boolean" }, docs: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      out(USAGE);
      return 0;
    }
    if (values.docs) {
      const path = options.readme ?? WAREHOUSE_README;
      const readme = await readFile(path, "utf8");
      await writeFile(path, withWarehouseExamples(withWarehouseTables(readme, WAREHOUSE_TABLES), WAREHOUSE_EXAMPLES));
      out(`wrote the warehouse tables and examples into ${path}\n`);
      return 0;
    }
    fromGit = values["from-git"] ?? false;
  } catch (error) {
    err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const dir = options.dir ?? defaultSnapshotsDir();
  if (fromGit) {
    const bar = progressBar(err, options.tty ?? process.stderr.isTTY === true);
    const summary = await rebuildFromHistory(dir, { feeds: options.feeds ?? registry, onProgress: bar });
    out(formatSummary(summary));
  }
  const { path, tables, undeclared } = await buildWarehouseDb(dir);
  const width = Math.max(5, ...tables.map((t) => t.name.length));
  out(`built ${path}\n\n${"table".padEnd(width)}  rows\n`);
  for (const t of tables) out(`${t.name.padEnd(width)}  ${t.rows}\n`);
  if (undeclared.length > 0) out(`\nleft out (no declared table): ${undeclared.join(", ")}\n`);
  return 0;
}

/** A progress callback drawing `[#####.....] 120/365 2026-03-01`. */
function progressBar(write: (text: string) => void, tty: boolean): (done: number, total: number, date: string) => void {
  let lastTenth = -1;
  return (done, total, date) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    const line = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${date}`;
    if (tty) {
      write(`\r${line}${done === total ? "\n" : ""}`);
      return;
    }
    const tenth = Math.floor((done / total) * 10);
    if (tenth !== lastTenth || done === total) {
      lastTenth = tenth;
      write(`${line}\n`);
    }
  };
}

/** The summary table of a rebuild. */
export function formatSummary(s: RebuildSummary): string {
  const lines = [
    `rebuilt from ${s.source === "git" ? "git history" : "dated snapshot files"}: ${s.days} days` +
      (s.first ? ` (${s.first} … ${s.last})` : "") +
      `, ${s.written} partitions written, ${s.unchanged} unchanged, ${s.retyped} retyped, in ${(s.ms / 1000).toFixed(1)} s`,
    "",
  ];
  const width = Math.max(5, ...s.tables.map((t) => t.table.length));
  lines.push(`${"table".padEnd(width)}  ${"days".padStart(5)}  ${"rows".padStart(9)}`);
  for (const t of s.tables) lines.push(`${t.table.padEnd(width)}  ${String(t.days).padStart(5)}  ${String(t.rows).padStart(9)}`);
  for (const k of s.skipped) lines.push(`skipped ${k.type} on ${k.days} day(s) from ${k.first}: body does not match today's schema (${k.reason})`);
  return `${lines.join("\n")}\n\n`;
}
