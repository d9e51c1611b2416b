/**
 * Which relation answers a read of a table from a given day on: the table's recent copy (its newest captured
 * days, held in memory by date; see RECENT_COPIES) when every captured day from `from` on is in that copy,
 * else the table itself.
 */
import type { WarehouseReader } from "./reader-contract.ts";
import { RECENT_COPIES } from "./rollups.ts";

/** `<table>_recent` when it holds every captured day on or after `from` (YYYY-MM-DD), else `table`. */
export function relationFrom(reader: WarehouseReader, table: string, from: string): string {
  const copy = RECENT_COPIES.find((r) => r.table === table);
  if (!copy) return table;
  const dates = reader.dates(table);
  const oldestHeld = dates[Math.max(0, dates.length - copy.days)];
  return oldestHeld !== undefined && from >= oldestHeld ? copy.name : table;
}
