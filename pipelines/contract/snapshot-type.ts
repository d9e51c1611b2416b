/**
 * What every snapshot type declares to its readers: its name, schedule, freshness SLA and strict body schema.
 * A feed (pipelines/feeds/) adds how to build the body; the API reads bodies against the same schema.
 */
import type { z } from "zod";

/** One snapshot type as the contract states it: the folder under snapshots/, its cadence and its body schema. */
export interface SnapshotType<T = unknown> {
  /** Snapshot type name; the folder under snapshots/ (news, status, models …). */
  type: string;
  title: string;
  /** Cron expression (UTC) of the refresh cadence, for the in-process scheduler and the workflow. */
  cron: string;
  /** Human cadence, e.g. "every 10 minutes". */
  cadence: string;
  /** Data older than this (since the last successful run) is stale. */
  slaSeconds: number;
  /** Strict body schema; the runner validates every run's data with it before writing, the API when reading. */
  schema: z.ZodType<T>;
}
