/** The manifest format (`<dir>/manifest.json`) as the server reads it: one entry checked per type. */
import { z } from "zod";
import type { SnapshotMeta } from "../registry/types.ts";

const iso = z.string().nullable();

/**
 * One type's manifest entry; extra keys written by newer pipelines are kept, not refused. `date` is empty while
 * the type has never succeeded: the pipelines record a failed first run (its error, its attempt) before any
 * snapshot exists.
 */
export const SnapshotMetaSchema = z.looseObject({
  type: z.string().min(1),
  date: z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.literal("")]),
  lastSuccess: iso,
  lastAttempt: iso,
  lastChanged: iso,
  lastError: z.string().nullable(),
  rows: z.number().int().nonnegative(),
  provenance: z.enum(["live", "replay"]),
  slaSeconds: z.number().nonnegative(),
  cadence: z.string(),
  sources: z.array(
    z.looseObject({ id: z.string(), ok: z.boolean(), error: z.string().optional(), rows: z.number().optional() }),
  ),
});

/** The manifest envelope; entries are checked one by one so a bad entry hides only its own type. */
export const ManifestSchema = z.looseObject({
  version: z.literal(1),
  types: z.record(z.string(), z.unknown()),
});

/** Result of reading a manifest: good entries plus the reason each bad one was dropped. */
export interface ParsedManifest {
  types: Map<string, SnapshotMeta>;
  problems: string[];
}

/** Parse manifest JSON text; throws only when the envelope itself is unusable. */
export function parseManifest(text: string): ParsedManifest {
  const envelope = ManifestSchema.parse(JSON.parse(text));
  const types = new Map<string, SnapshotMeta>();
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(envelope.types)) {
    const entry = SnapshotMetaSchema.safeParse(raw);
    if (!entry.success) {
      problems.push(`manifest entry ${JSON.stringify(name)} is invalid: ${entry.error.issues[0]?.message ?? "?"}`);
      continue;
    }
    types.set(name, { ...entry.data, type: name } as SnapshotMeta);
  }
  return { types, problems };
}

/** Whether the entry records attempts only: no run of the type has succeeded, so it has no latest.json. */
export function neverSucceeded(meta: Pick<SnapshotMeta, "date">): boolean {
  return meta.date === "";
}
