/** The `benchmarks` snapshot: the curated benchmarks and their attributed per-model scores. */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** One attributed score, a percentage 0–100. */
export const BenchmarkScoreSchema = z.strictObject({
  /** A model id of the model catalog (the pricing snapshot). */
  model: z.string().min(1),
  score: z.number().min(0).max(100),
  /** The page that published the number. */
  source: httpUrl,
  /** YYYY-MM-DD the source was published. */
  date: z.iso.date(),
  /** Setting or version the number was measured with, when it matters. */
  note: z.string().min(1).optional(),
});

export type BenchmarkScore = z.infer<typeof BenchmarkScoreSchema>;

/** One benchmark as the snapshot carries it. */
export const BenchmarkEntrySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  url: httpUrl,
  description: z.string(),
  higherIsBetter: z.boolean(),
  scores: z.array(BenchmarkScoreSchema),
});

/** The `benchmarks` snapshot body. */
export const BenchmarksSnapshotSchema = z.strictObject({
  /** The newest score date in the catalog: from the data, never the clock. */
  lastUpdated: z.iso.date(),
  benchmarks: z.array(BenchmarkEntrySchema),
});

export type BenchmarksSnapshot = z.infer<typeof BenchmarksSnapshotSchema>;

/** The `benchmarks` snapshot type. */
export const benchmarksSnapshotType = {
  type: "benchmarks",
  title: "Benchmark scores",
  cron: "23 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 86_400,
  schema: BenchmarksSnapshotSchema,
} satisfies SnapshotType<BenchmarksSnapshot>;
