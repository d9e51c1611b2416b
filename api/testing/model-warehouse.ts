/**
 * A small warehouse for the model verdict route tests, written by the real writer into a temp folder: two days
 * of benchmark_scores and model_prices (the verdicts read the newest only) over real catalog ids, so names,
 * categories and deprecations resolve against the bundled snapshots. The test file passes the writer in (only
 * test files may import the pipelines' writer).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";

type Row = Record<string, string | number | boolean | null>;
const batch = (table: keyof typeof WAREHOUSE_TABLES, rows: Row[]) => ({ table, key: [...WAREHOUSE_TABLES[table].key], rows });

/** The newest day of the fixture. */
export const FIXTURE_DAY = "2026-11-20";
const OLD_DAY = "2026-11-19";

const score = (date: string, benchmark: string, model_id: string, value: number, reported_date: string): Row => ({ date, benchmark, model_id, score: value, source: "https://example.org", reported_date });
const price = (date: string, model_id: string, input: number, output: number, source: "curated" | "aggregator", observed_at: string): Row => ({
  date, provider: "openai", model_id, input_per_1m: input, output_per_1m: output, context_window: 1000, source, source_url: null, observed_at,
});

/** Rows of the newest day: gpt-4.1 cheap and strong, gpt-4.5-preview dear and weaker, gpt-4o in between but dominated. */
const NEWEST_SCORES = [
  score(FIXTURE_DAY, "humaneval", "gpt-4.1", 90, "2025-04-14"),
  score(FIXTURE_DAY, "humaneval", "gpt-4.5-preview", 88, "2025-02-27"),
  score(FIXTURE_DAY, "humaneval", "gpt-4o", 85, "2024-05-13"),
  score(FIXTURE_DAY, "swe-bench-verified", "gpt-4.1", 55, "2025-04-14"),
  score(FIXTURE_DAY, "swe-bench-verified", "gpt-4.5-preview", 38, "2025-02-27"),
  score(FIXTURE_DAY, "swe-bench-verified", "gpt-4o", 33, "2024-11-20"),
  score(FIXTURE_DAY, "mmlu-pro", "gpt-4.1", 80, "2025-04-14"),
  score(FIXTURE_DAY, "mmlu-pro", "gpt-4o", 72, "2024-05-13"),
];

/** The real writer's signature (pipelines/lib/warehouse/write.ts), as far as the fixture uses it. */
export type WriteWarehouse = (dir: string, date: string, batches: ReturnType<typeof batch>[]) => Promise<unknown>;

/** Write the fixture with `writeWarehouse`, open a reader over it for the calling test file; returns a getter. */
export function useModelWarehouse(writeWarehouse: WriteWarehouse): () => OpenWarehouseReader {
  let dir: string;
  let reader: OpenWarehouseReader;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentfeed-model-verdicts-"));
    // An older day whose numbers must not be read (gpt-4o scored 99 and priced 0 there).
    await writeWarehouse(dir, OLD_DAY, [
      batch("benchmark_scores", [score(OLD_DAY, "humaneval", "gpt-4o", 99, "2024-05-13")]),
      batch("model_prices", [price(OLD_DAY, "gpt-4o", 0, 0, "curated", `${OLD_DAY}T00:00:00Z`)]),
    ]);
    await writeWarehouse(dir, FIXTURE_DAY, [
      batch("benchmark_scores", NEWEST_SCORES),
      batch("model_prices", [
        price(FIXTURE_DAY, "gpt-4.1", 2, 8, "curated", "2026-11-01T00:00:00Z"),
        // The aggregator observed a newer price for gpt-4.1: the newest observation is served (blend 3).
        price(FIXTURE_DAY, "gpt-4.1", 1.5, 7.5, "aggregator", "2026-11-20T06:00:00Z"),
        price(FIXTURE_DAY, "gpt-4.5-preview", 75, 150, "curated", "2026-11-01T00:00:00Z"),
        price(FIXTURE_DAY, "gpt-4o", 2.5, 10, "curated", "2026-11-01T00:00:00Z"),
        price(FIXTURE_DAY, "unscored-model", 0.1, 0.1, "curated", "2026-11-01T00:00:00Z"),
      ]),
    ]);
    reader = await openWarehouseReader({ dirs: [dir] });
  });
  afterAll(async () => {
    reader?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => reader;
}
