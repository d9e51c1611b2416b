/**
 * Cast one row value to its declared DuckDB column type, or refuse it with a WarehouseRowError naming the
 * table, column and value. Text that spells a value of the column's type is accepted ("12" for BIGINT,
 * "0.5" for DOUBLE, "true" for BOOLEAN), so a feed that wrote a number as text one day and as a number
 * another day still writes one type.
 */
import type { WarehouseColumn, WarehouseColumnType } from "../../contract/warehouse-tables.ts";
import type { WarehouseValue } from "../types.ts";

/** A value ready for the appender: JS number / bigint / boolean / string, or null. DATE is days since the epoch, TIMESTAMPTZ microseconds. */
export type CastValue = boolean | number | bigint | string | null;

/** A row value does not fit its declared column. */
export class WarehouseRowError extends Error {
  override name = "WarehouseRowError";
  constructor(
    readonly table: string,
    readonly column: string,
    readonly value: unknown,
    reason: string,
  ) {
    super(`warehouse table ${table}, column ${column}: value ${preview(value)} ${reason}`);
  }
}

function preview(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

const INT_TEXT = /^[+-]?\d{1,19}$/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** The value cast to the column's type; throws WarehouseRowError when it does not fit. */
export function castValue(table: string, column: WarehouseColumn, value: WarehouseValue | undefined): CastValue {
  if (value === null || value === undefined) {
    if (column.nullable) return null;
    throw new WarehouseRowError(table, column.name, value, "is missing, but the column is NOT NULL");
  }
  const cast = CASTS[column.type](value);
  if (cast === undefined) throw new WarehouseRowError(table, column.name, value, `does not fit type ${column.type}`);
  return cast;
}

const CASTS: Record<WarehouseColumnType, (value: string | number | boolean) => CastValue | undefined> = {
  BOOLEAN(value) {
    if (typeof value === "boolean") return value;
    if (value === "true") return true;
    if (value === "false") return false;
    return undefined;
  },
  BIGINT(value) {
    if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : undefined;
    if (typeof value === "string" && INT_TEXT.test(value.trim())) {
      const n = BigInt(value.trim());
      return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
    }
    return undefined;
  },
  DOUBLE(value) {
    if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
    if (typeof value === "string" && NUMBER_TEXT.test(value.trim())) {
      const n = Number(value.trim());
      return Number.isFinite(n) ? n : undefined;
    }
    return undefined;
  },
  VARCHAR(value) {
    if (typeof value === "string") return value;
    if (typeof value === "number" && !Number.isFinite(value)) return undefined;
    return String(value);
  },
  DATE(value) {
    if (typeof value !== "string") return undefined;
    const m = DATE_TEXT.exec(value);
    if (!m) return undefined;
    const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    // Date.UTC rolls 2026-02-31 over to March; a real date round-trips.
    if (new Date(ms).toISOString().slice(0, 10) !== value) return undefined;
    return ms / MS_PER_DAY;
  },
  TIMESTAMPTZ(value) {
    if (typeof value !== "string" || !TIMESTAMP_TEXT.test(value)) return undefined;
    const ms = Date.parse(value);
    if (!Number.isFinite(ms)) return undefined;
    const fraction = /\.(\d+)/.exec(value)?.[1] ?? "";
    const subMillisMicros = BigInt((fraction + "000000").slice(3, 6));
    return BigInt(ms) * 1000n + subMillisMicros;
  },
};
