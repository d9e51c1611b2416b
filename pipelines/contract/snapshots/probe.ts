/**
 * The `probe` snapshot: this service's own latency probes of provider APIs over a rolling window, with each
 * provider's summary. A sample is up when any HTTP answer below 500 was read to its end; a 5xx, a timeout or a
 * network failure is down.
 */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Why a sample is not up. `http_status` is a 5xx answer (its code is in `status`). */
export const probeError = z.enum(["timeout", "network", "too_large", "replay_missing", "http_status"]);

export type ProbeError = z.infer<typeof probeError>;

/** One sample. `ok` is the up rule above; timings in milliseconds, one decimal. */
export const probeSample = z.strictObject({
  /** When the request was sent (ISO, millisecond precision; unique per provider). */
  ts: z.iso.datetime(),
  /** HTTP status, null when no answer arrived. */
  status: z.number().int().min(100).max(599).nullable(),
  ok: z.boolean(),
  /** Time to the response headers, null when none arrived. */
  ttfb_ms: z.number().nonnegative().nullable(),
  /** Time to the end of the body, or to the failure. */
  total_ms: z.number().nonnegative(),
  error: probeError.optional(),
});

export type ProbeSample = z.infer<typeof probeSample>;

/** Hours of samples a snapshot keeps. */
export const WINDOW_HOURS = 24;

/** Per-provider summary over the window. Latency percentiles cover up samples only; null when there are none. */
export const probeSummary = z.strictObject({
  samples: z.number().int().nonnegative(),
  up: z.number().int().nonnegative(),
  /** Percent of samples that were up, one decimal; null without samples. */
  ok_pct: z.number().min(0).max(100).nullable(),
  ttfb_p50: z.number().nonnegative().nullable(),
  ttfb_p95: z.number().nonnegative().nullable(),
  total_p50: z.number().nonnegative().nullable(),
  total_p95: z.number().nonnegative().nullable(),
  total_p99: z.number().nonnegative().nullable(),
  last_sample_at: z.iso.datetime().nullable(),
});

export type ProbeSummary = z.infer<typeof probeSummary>;

/** One provider in the snapshot: its target, summary and the window's samples (oldest first). */
export const probeProvider = z.strictObject({
  provider: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string().min(1),
  url: httpUrl,
  method: z.literal("GET"),
  summary: probeSummary,
  samples: z.array(probeSample),
});

export type ProbeProvider = z.infer<typeof probeProvider>;

/** The snapshot body: providers sorted by id. */
export const probeSnapshot = z.strictObject({
  window_hours: z.literal(WINDOW_HOURS),
  samples_per_run: z.number().int().positive(),
  providers: z.array(probeProvider).refine(
    (p) => p.every((e, i) => i === 0 || p[i - 1]!.provider < e.provider),
    "providers must be sorted by id with unique ids",
  ),
});

export type ProbeSnapshot = z.infer<typeof probeSnapshot>;

/** The `probe` snapshot type. */
export const probeSnapshotType = {
  type: "probe",
  title: "Provider API latency probes",
  cron: "*/15 * * * *",
  cadence: "every 15 minutes",
  slaSeconds: 45 * 60,
  schema: probeSnapshot,
} satisfies SnapshotType<ProbeSnapshot>;
