/**
 * The `model-deprecations` snapshot: the hand-curated calendar of model retirements by provider. Status, as of
 * `checked`: `announced` (a future deprecation was announced), `deprecated` (announced for shutdown, still
 * served), `retired` (the shutdown date has passed).
 */
import { z } from "zod";
import { checkedDate, httpsUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

export const DEPRECATION_STATUSES = ["announced", "deprecated", "retired"] as const;

export const deprecationStatus = z.enum(DEPRECATION_STATUSES);

/** A provider model id as the provider's API spells it. */
const modelId = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "a provider model id (lowercase letters, digits, '.', '_' or '-')");

/** One deprecation calendar entry (the shape served by GET /api/model-deprecations). */
export const deprecationEntrySchema = z.strictObject({
  provider: z.string().regex(/^[a-z0-9-]+$/),
  model: modelId,
  status: deprecationStatus,
  /** Day the provider announced the deprecation; null when its page gives no date. */
  announced_date: z.iso.date().nullable(),
  /** Shutdown (retirement) day; null when none is announced yet. */
  sunset_date: z.iso.date().nullable(),
  /** The model id the provider recommends instead; null when it names none. */
  replacement: modelId.nullable(),
  /** The provider's deprecation page. */
  source: httpsUrl,
  checked: checkedDate,
});

export type DeprecationEntry = z.infer<typeof deprecationEntrySchema>;

/** One provider block in the snapshot. */
export const deprecationProviderSchema = z.strictObject({
  provider: z.string().min(1),
  name: z.string().min(1),
  source: httpsUrl,
  /** Sorted by sunset_date (null last), then model. */
  entries: z.array(deprecationEntrySchema),
});

/** The `model-deprecations` snapshot body. */
export const modelDeprecationsSnapshotSchema = z.strictObject({
  /** Newest `checked` date among the entries. */
  lastUpdated: checkedDate,
  /** Providers sorted by id. */
  providers: z.array(deprecationProviderSchema),
});

export type ModelDeprecationsSnapshot = z.infer<typeof modelDeprecationsSnapshotSchema>;

/** The `model-deprecations` snapshot type. */
export const modelDeprecationsSnapshotType = {
  type: "model-deprecations",
  title: "Model deprecations and retirements (curated)",
  cron: "23 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: modelDeprecationsSnapshotSchema,
} satisfies SnapshotType<ModelDeprecationsSnapshot>;

/** Entries by sunset date (null last), then model id. */
export function compareBySunset(a: DeprecationEntry, b: DeprecationEntry): number {
  const sa = a.sunset_date ?? "9999-12-31";
  const sb = b.sunset_date ?? "9999-12-31";
  return sa.localeCompare(sb) || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model);
}
