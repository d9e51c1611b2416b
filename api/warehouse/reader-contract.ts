/**
 * What premium series and verdicts see of the warehouse: read-only SQL over one view per declared table
 * (pipelines/contract/warehouse-tables.ts), each view reading that table's Parquet day files. The
 * implementation (api/warehouse/reader.ts) holds an in-process DuckDB with an in-memory catalog; this file
 * is the interface alone, so verdicts and routes depend on it and tests can pass the real reader in.
 */

/** A value bound to a `?` or `$n` placeholder. */
export type SqlParam = string | number | boolean | null;

/**
 * A row as the reader returns it: BIGINT as number, DOUBLE as number, BOOLEAN as boolean, DATE as
 * `YYYY-MM-DD`, TIMESTAMPTZ as an ISO-8601 UTC string, NULL as null.
 */
export type WarehouseRow = Record<string, string | number | boolean | null>;

export interface WarehouseReader {
  /**
   * Run one read-only statement (prepared once per SQL text and reused) over the table views. A table
   * without any day file is an empty view with its declared columns, never a missing table.
   */
  query<T extends WarehouseRow = WarehouseRow>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Dates (YYYY-MM-DD, ascending) that have a day file of `table`. */
  dates(table: string): string[];
  /**
   * A relation (SQL text for a FROM clause) over only the given captured days of `table`: for a table the reader
   * keeps as a view over its day files, those days' files alone, so a query opens no other file; for a table held
   * in memory, the table itself. Days without a file are left out.
   */
  daysOf(table: string, dates: readonly string[]): string;
  /** Bumps each time the views are rebuilt over a changed set of day files (for caches keyed on it). */
  readonly version: number;
}
