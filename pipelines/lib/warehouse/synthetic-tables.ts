/**
 * Synthetic day files of warehouse tables aggregator_models_daily and modelhub_daily, for benchmarks only: N days
 * × M models written under `<dir>/warehouse/` (a temp folder the caller owns, never the served snapshots). Every
 * id says it is synthetic (`synthetic-…`). The figures follow a seeded generator, so a run is reproducible:
 * models come and go, prices change now and then, some are free or unpriced, and hub downloads drift daily.
 */
import type { WarehouseBatch, WarehouseValue } from "../types.ts";
import { openWarehouseWriter } from "./write.ts";

/** Days written per pass (bounds the rows held in memory). */
const CHUNK_DAYS = 31;
const DAY_MS = 86_400_000;
/** Entries per hub listing, as the modelhub-trending feed keeps them. */
const HUB_TOP = 30;

export interface SyntheticTableOptions {
  /** First UTC day, YYYY-MM-DD. */
  start: string;
  days: number;
  /** Models in the catalog each day (aggregator), or ids in each hub pool the top 30 is drawn from (modelhub). */
  models: number;
  /** Seed of the generator (default 1). */
  seed?: number;
}

/** What a synthetic writer wrote. */
export interface SyntheticTableResult {
  table: string;
  days: number;
  rows: number;
}

/** A small seeded generator (mulberry32): the same seed gives the same figures. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function dayOf(start: string, d: number): string {
  return new Date(Date.parse(`${start}T00:00:00.000Z`) + d * DAY_MS).toISOString().slice(0, 10);
}

function check(options: SyntheticTableOptions): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(options.start) || Number.isNaN(Date.parse(`${options.start}T00:00:00Z`))) throw new Error(`synthetic tables: invalid start ${JSON.stringify(options.start)}`);
  for (const [name, n] of [["days", options.days], ["models", options.models]] as const) {
    if (!Number.isSafeInteger(n) || n < 1 || n > 100_000) throw new Error(`synthetic tables: ${name} must be an integer from 1 to 100000, got ${n}`);
  }
}

/** Write the days in chunks through one warehouse writer. */
async function writeAll(dir: string, table: string, options: SyntheticTableOptions, rowsOf: (date: string, d: number) => Record<string, WarehouseValue>[], key: string[]): Promise<SyntheticTableResult> {
  const writer = await openWarehouseWriter();
  let rows = 0;
  try {
    for (let first = 0; first < options.days; first += CHUNK_DAYS) {
      const days: { date: string; batches: WarehouseBatch[] }[] = [];
      for (let d = first; d < Math.min(options.days, first + CHUNK_DAYS); d++) {
        const date = dayOf(options.start, d);
        const batch = rowsOf(date, d);
        rows += batch.length;
        days.push({ date, batches: [{ table, key, rows: batch }] });
      }
      await writer.writeDays(dir, days);
    }
  } finally {
    writer.close();
  }
  return { table, days: options.days, rows };
}

/**
 * aggregator_models_daily: `models` models a day over 40 namespaces; each day about 1% of the catalog is replaced
 * (one id retired, a new one listed), about 2% change a price, one in 20 is free and one in 37 unpriced.
 */
export async function writeSyntheticAggregatorModels(dir: string, options: SyntheticTableOptions): Promise<SyntheticTableResult> {
  check(options);
  const random = generator(options.seed ?? 1);
  // Slot i holds generation g: its id changes when the slot is replaced.
  const slots = Array.from({ length: options.models }, (_, i) => ({ generation: 0, input: priceFor(i, random), output: 0 }));
  for (const s of slots) s.output = Math.round(s.input * 4 * 1000) / 1000;
  return writeAll(
    dir,
    "aggregator_models_daily",
    options,
    (date, d) => {
      if (d > 0) {
        for (let i = 0; i < slots.length; i++) {
          const r = random();
          if (r < 0.01) slots[i]!.generation += 1;
          else if (r < 0.03) {
            slots[i]!.input = priceFor(i, random);
            slots[i]!.output = Math.round(slots[i]!.input * 4 * 1000) / 1000;
          }
        }
      }
      return slots.map((s, i) => {
        const namespace = `synthetic-ns${String(i % 40).padStart(2, "0")}`;
        const free = i % 20 === 0;
        const unpriced = i % 37 === 0 && !free;
        return {
          date,
          model_id: `${namespace}/model-${i}-g${s.generation}`,
          namespace,
          input_per_1m: free ? 0 : unpriced ? null : s.input,
          output_per_1m: free ? 0 : unpriced ? null : s.output,
          context_length: 8192 * (1 + (i % 16)),
        };
      });
    },
    ["date", "model_id"],
  );
}

/** A price in USD per 1M tokens between 0.05 and 30, three decimals. */
function priceFor(i: number, random: () => number): number {
  return Math.round((0.05 + random() * 30 * ((i % 7) + 1) / 7) * 1000) / 1000;
}

/**
 * modelhub_daily: for each listing (models, datasets, Spaces) a pool of `models` ids whose downloads (likes for
 * Spaces) drift by a few percent a day; each day's top 30 of each pool is written with its rank.
 */
export async function writeSyntheticModelhub(dir: string, options: SyntheticTableOptions): Promise<SyntheticTableResult> {
  check(options);
  const random = generator(options.seed ?? 1);
  const kinds = ["model", "dataset", "space"] as const;
  const pools = kinds.map((kind) =>
    Array.from({ length: Math.max(options.models, HUB_TOP) }, (_, i) => ({
      id: `synthetic-owner${i % 50}/${kind}-${i}`,
      value: Math.round(1_000_000 / (1 + i * 0.05) * (kind === "space" ? 0.001 : 1)),
      likes: 10 + (i % 500),
    })),
  );
  return writeAll(
    dir,
    "modelhub_daily",
    options,
    (date, d) => {
      const rows: Record<string, WarehouseValue>[] = [];
      kinds.forEach((kind, k) => {
        const pool = pools[k]!;
        if (d > 0) for (const e of pool) e.value = Math.max(0, Math.round(e.value * (0.96 + random() * 0.08)));
        const top = [...pool].sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : 1)).slice(0, HUB_TOP);
        top.forEach((e, i) =>
          rows.push({ date, kind, id: e.id, rank: i + 1, downloads: kind === "space" ? null : e.value, likes: kind === "space" ? e.value : e.likes }),
        );
      });
      return rows;
    },
    ["date", "kind", "id"],
  );
}

/** One synthetic writer per table this module covers, by table name. */
export const SYNTHETIC_TABLE_WRITERS = {
  aggregator_models_daily: writeSyntheticAggregatorModels,
  modelhub_daily: writeSyntheticModelhub,
} as const;
