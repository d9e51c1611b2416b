/**
 * The one way a render function reads a snapshot: 503 `snapshot_unavailable` when the type is missing, when
 * its body no longer matches the feed's schema (given a schema), or, for routes that report check times,
 * when no run has succeeded yet.
 */
import type { z } from "zod";
import { ApiError, type LoadedSnapshot, type SnapshotReader } from "../registry/types.ts";

/** The snapshot of `type`, its data checked against `schema` when one is given. */
export function readSnapshot<T>(snapshots: SnapshotReader, type: string, schema?: z.ZodType<T>): LoadedSnapshot<T> {
  const loaded = snapshots.get<T>(type);
  if (!loaded) throw new ApiError(503, "snapshot_unavailable", `snapshot ${type} is not available yet; the pipelines have not produced it`);
  if (!schema) return loaded;
  const parsed = schema.safeParse(loaded.data);
  if (!parsed.success) throw new ApiError(503, "snapshot_unavailable", `snapshot ${type} of ${loaded.meta.date} does not match its schema`);
  return { ...loaded, data: parsed.data };
}

/** The manifest's last successful run of a loaded snapshot; 503 when none is recorded. */
export function lastSuccessOf(snapshot: LoadedSnapshot<unknown>): string {
  const at = snapshot.meta.lastSuccess;
  if (at === null) throw new ApiError(503, "snapshot_unavailable", `snapshot ${snapshot.type} has no successful run recorded in the manifest`);
  return at;
}

/** `{ ok, snapshot, updated }` over a feed's snapshot: the shape of the daily snapshot routes. */
export function renderSnapshot<T>(snapshots: SnapshotReader, feed: { type: string; schema: z.ZodType<T> }): { ok: true; snapshot: T; updated: string | null } {
  const loaded = readSnapshot(snapshots, feed.type, feed.schema);
  return { ok: true, snapshot: loaded.data, updated: loaded.meta.lastSuccess };
}
