/**
 * Private SQL helpers for the warehouse. Identifiers (table and column names chosen by feed code) are checked
 * and double-quoted; file paths are single-quoted literals. Row values never pass through here: they go in
 * through an appender or bound parameters.
 */

const IDENT_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Quote a table or column name, rejecting anything that is not a plain identifier. */
export function ident(name: string): string {
  if (!IDENT_RE.test(name)) throw new Error(`warehouse: invalid identifier ${JSON.stringify(name)} (want ${IDENT_RE})`);
  return `"${name}"`;
}

/** A file path as a SQL string literal (DuckDB COPY and read_parquet take literal paths). */
export function pathLiteral(path: string): string {
  if (/[\0\n\r]/.test(path)) throw new Error(`warehouse: invalid path ${JSON.stringify(path)}`);
  return `'${path.replace(/'/g, "''")}'`;
}

/** A text value as a SQL string literal, for DDL that takes no parameters (COMMENT ON). */
export function textLiteral(text: string): string {
  if (/\0/.test(text)) throw new Error(`warehouse: invalid text ${JSON.stringify(text)}`);
  return `'${text.replace(/'/g, "''")}'`;
}
