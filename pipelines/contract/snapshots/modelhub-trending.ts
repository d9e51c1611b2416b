/** The `modelhub-trending` snapshot: the model hub's (Hugging Face) top models and datasets by downloads and Spaces by likes. */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** Entries per listing. */
export const MODELHUB_LIMIT = 30;

/** A repo id: `owner/name`, or a legacy canonical name without an owner (`gpt2`, `squad_v2`). */
export const REPO_ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/;

const repoId = z.string().regex(REPO_ID).max(200);

const count = z.number().int().nonnegative();

const tag = z.string().regex(/^[\w.+-]+$/).max(80);

const baseShape = {
  id: repoId,
  author: z.string().nullable(),
  likes: count,
  createdAt: z.iso.datetime().nullable(),
  lastModified: z.iso.datetime().nullable(),
  url: z.url({ protocol: /^https$/ }),
};

/** One model of the downloads listing. */
export const hubModelSchema = z.strictObject({ ...baseShape, downloads: count, pipelineTag: tag.nullable(), libraryName: tag.nullable() });

export type HubModel = z.infer<typeof hubModelSchema>;

/** One dataset of the downloads listing. */
export const hubDatasetSchema = z.strictObject({ ...baseShape, downloads: count });

export type HubDataset = z.infer<typeof hubDatasetSchema>;

/** One Space of the likes listing. */
export const hubSpaceSchema = z.strictObject({ ...baseShape, sdk: tag.nullable() });

export type HubSpace = z.infer<typeof hubSpaceSchema>;

const sortedBy = (key: "downloads" | "likes") => (rows: { id: string; downloads?: number; likes: number }[]) =>
  rows.every((r, i) => i === 0 || (rows[i - 1]![key] ?? 0) >= (r[key] ?? 0)) && new Set(rows.map((r) => r.id)).size === rows.length;

/** The modelhub-trending snapshot body. */
export const modelhubTrendingSnapshotSchema = z.strictObject({
  models: z.array(hubModelSchema).max(MODELHUB_LIMIT).refine(sortedBy("downloads"), "models must be unique and sorted by downloads"),
  datasets: z.array(hubDatasetSchema).max(MODELHUB_LIMIT).refine(sortedBy("downloads"), "datasets must be unique and sorted by downloads"),
  spaces: z.array(hubSpaceSchema).max(MODELHUB_LIMIT).refine(sortedBy("likes"), "spaces must be unique and sorted by likes"),
});

export type ModelhubTrendingSnapshot = z.infer<typeof modelhubTrendingSnapshotSchema>;

/** The `modelhub-trending` snapshot type. */
export const modelhubTrendingSnapshotType = {
  type: "modelhub-trending",
  title: "Model hub: top models, datasets and Spaces",
  cron: "0 12 * * *",
  cadence: "daily at 12:00 UTC",
  slaSeconds: 172_800,
  schema: modelhubTrendingSnapshotSchema,
} satisfies SnapshotType<ModelhubTrendingSnapshot>;
