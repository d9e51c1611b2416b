/** The `trending-repos` snapshot: AI repositories ranked by star velocity between successive snapshots (GitHub search). */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Repositories served. */
export const TRENDING_TOP = 30;

/** Repositories remembered for the next run's deltas. */
export const TRENDING_TRACKED = 200;

/** One ranked repository (the API serves these as they are). */
export const TrendingRepoSchema = z.strictObject({
  full_name: z.string(),
  url: httpUrl,
  description: z.string(),
  language: z.string().nullable(),
  stars: z.number().int().nonnegative(),
  /** measured: stars gained since the compared snapshot (may be negative); estimated: stars since creation. */
  stars_delta: z.number().int(),
  /** measured: days since the compared snapshot; estimated: age in whole days (at least 1). */
  days: z.number().int().positive(),
  stars_per_day: z.number(),
  velocity_basis: z.enum(["measured", "estimated"]),
});

export type TrendingRepo = z.infer<typeof TrendingRepoSchema>;

const TrackedSchema = z.strictObject({ full_name: z.string(), stars: z.number().int().nonnegative() });

/** The `trending-repos` snapshot body. */
export const TrendingReposSnapshotSchema = z.strictObject({
  /** Date of the snapshot the deltas were measured against, or null (every velocity estimated). */
  compared_with: z.iso.date().nullable(),
  /** Days between that snapshot and this run's date, or null. */
  window_days: z.number().int().positive().nullable(),
  repos: z.array(TrendingRepoSchema).max(TRENDING_TOP),
  tracked: z.array(TrackedSchema).max(TRENDING_TRACKED),
});

export type TrendingReposSnapshot = z.infer<typeof TrendingReposSnapshotSchema>;

/** The `trending-repos` snapshot type. */
export const trendingReposSnapshotType = {
  type: "trending-repos",
  title: "Trending AI repositories by star velocity",
  cron: "0 15 * * *",
  cadence: "daily at 15:00 UTC",
  slaSeconds: 172_800,
  schema: TrendingReposSnapshotSchema,
} satisfies SnapshotType<TrendingReposSnapshot>;
