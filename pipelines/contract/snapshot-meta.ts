/** What the manifest (snapshots/manifest.json) records per snapshot type: written by the pipelines' store, read by the API. */

/** Health of one upstream source inside a feed run; recorded in the manifest. */
export interface SourceHealth {
  id: string;
  ok: boolean;
  error?: string;
  rows?: number;
}

/** One manifest entry. */
export interface SnapshotMeta {
  type: string;
  /** Date (YYYY-MM-DD) of the dated file latest.json equals; "" while the type has never succeeded (no file yet). */
  date: string;
  /** ISO time of the last run that succeeded (content changed or not). */
  lastSuccess: string | null;
  /** ISO time of the last attempt. */
  lastAttempt: string | null;
  /** ISO time the content last changed. */
  lastChanged: string | null;
  /** Error of the last attempt when it failed, else null: one line, through the outside-text sanitizer (it may quote upstream bytes), at most 1,000 characters. */
  lastError: string | null;
  rows: number;
  provenance: "live" | "replay";
  slaSeconds: number;
  cadence: string;
  sources: SourceHealth[];
}
