/**
 * The one way a render function reads a snapshot: 503 `snapshot_unavailable` when the type is missing, when
 * its body does not match its schema (the route's, else the contract's for the type: a folder written by
 * another version, or a hand-edited file, never reaches a handler unchecked), or, for routes that report check
 * times, when no run has succeeded yet.
 */
import type { z } from "zod";
import { snapshotTypes } from "../../pipelines/contract/snapshots/index.ts";
import { ApiError, type LoadedSnapshot, type SnapshotReader } from "../registry/types.ts";

/**
 * Checked bodies, per loaded body object and schema. A reload replaces the body object, so an entry lives
 * exactly as long as the body it was checked from; premium routes, which are not response-cached, check a
 * snapshot once per load instead of once per call.
 */
const checked = new WeakMap<object, Map<z.ZodType<unknown>, unknown>>();

/** The contract's body schema of a snapshot type; undefined for a type the contract does not name. */
function contractSchema(type: string): z.ZodType<unknown> | undefined {
  return Object.hasOwn(snapshotTypes, type) ? snapshotTypes[type as keyof typeof snapshotTypes].schema : undefined;
}

/** The snapshot of `type`, its data checked against `schema`, or without one against the contract's schema of the type. */
export function readSnapshot<T>(snapshots: SnapshotReader, type: string, routeSchema?: z.ZodType<T>): LoadedSnapshot<T> {
  const loaded = snapshots.get<T>(type);
  if (!loaded) throw new ApiError(503, "snapshot_unavailable", `snapshot ${type} is not available yet; the pipelines have not produced it`);
  const schema = (routeSchema ?? contractSchema(type)) as z.ZodType<T> | undefined;
  if (!schema) return loaded;
  const body = loaded.data as unknown;
  const bySchema = typeof body === "object" && body !== null ? (checked.get(body) ?? new Map<z.ZodType<unknown>, unknown>()) : undefined;
  if (bySchema?.has(schema)) return { ...loaded, data: bySchema.get(schema) as T };
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(503, "snapshot_unavailable", `snapshot ${type} of ${loaded.meta.date} does not match its schema`);
  if (bySchema) {
    bySchema.set(schema, parsed.data);
    checked.set(body as object, bySchema);
  }
  return { ...loaded, data: parsed.data };
}

/** Like {@link readSnapshot}, for data an answer can do without: undefined when the type is missing or its body does not match. */
export function readOptionalSnapshot<T>(snapshots: SnapshotReader, type: string, routeSchema?: z.ZodType<T>): LoadedSnapshot<T> | undefined {
  if (!snapshots.get(type)) return undefined;
  try {
    return readSnapshot(snapshots, type, routeSchema);
  } catch (err) {
    if (err instanceof ApiError && err.status === 503) return undefined;
    throw err;
  }
}

/** The manifest's last successful run of a loaded snapshot; 503 when none is recorded. */
export function lastSuccessOf(snapshot: LoadedSnapshot<unknown>): string {
  const at = snapshot.meta.lastSuccess;
  if (at === null) throw new ApiError(503, "snapshot_unavailable", `snapshot ${snapshot.type} has no successful run recorded in the manifest`);
  return at;
}

/** Whether a loaded snapshot was read from its upstreams (live) or built from recorded fixtures (anything else). */
export function provenanceOf(snapshot: LoadedSnapshot<unknown>): "live" | "replay" {
  return snapshot.meta.provenance === "live" ? "live" : "replay";
}

/** `{ ok, snapshot, updated }` over a feed's snapshot: the shape of the daily snapshot routes. */
export function renderSnapshot<T>(snapshots: SnapshotReader, feed: { type: string; schema: z.ZodType<T> }): { ok: true; snapshot: T; updated: string | null } {
  const loaded = readSnapshot(snapshots, feed.type, feed.schema);
  return { ok: true, snapshot: loaded.data, updated: loaded.meta.lastSuccess };
}
