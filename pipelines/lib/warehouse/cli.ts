/** `npm run warehouse`: rebuild `<SNAPSHOTS_DIR>/warehouse.duckdb` and print each table with its row count. */
import { defaultSnapshotsDir } from "../store/snapshot-store.ts";
import { buildWarehouseDb } from "./build.ts";

export interface WarehouseCliOptions {
  /** Snapshots folder (default SNAPSHOTS_DIR or `snapshots/`). */
  dir?: string;
  stdout?: (text: string) => void;
}

/** Build the database and print a table/rows listing; resolves to the exit status. */
export async function main(options: WarehouseCliOptions = {}): Promise<number> {
  const out = options.stdout ?? ((text: string) => void process.stdout.write(text));
  const { path, tables } = await buildWarehouseDb(options.dir ?? defaultSnapshotsDir());
  const width = Math.max(5, ...tables.map((t) => t.name.length));
  out(`built ${path}\n\n${"table".padEnd(width)}  rows\n`);
  for (const t of tables) out(`${t.name.padEnd(width)}  ${t.rows}\n`);
  return 0;
}
