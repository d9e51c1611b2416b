/** The `papers-preprint-recent` snapshot: the newest preprints of the preprint server's AI category listings (arXiv). */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** Longest title and summary kept, ellipsis included. */
export const PREPRINT_TITLE_MAX = 300;

export const PREPRINT_SUMMARY_MAX = 500;

/** Authors listed per preprint; `authorCount` gives the full count. */
export const PREPRINT_AUTHORS_MAX = 10;

/** Distinct author affiliations kept per preprint. */
export const PREPRINT_AFFILIATIONS_MAX = 20;

/** One preprint, normalized. */
export const preprintSchema = z.strictObject({
  /** arXiv id without its version (2611.01234, or hep-th/9901001 for old-style ids). */
  id: z.string().regex(/^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})$/),
  version: z.number().int().min(1),
  title: z.string().min(1).max(PREPRINT_TITLE_MAX),
  summary: z.string().max(PREPRINT_SUMMARY_MAX),
  authors: z.array(z.string().min(1)).max(PREPRINT_AUTHORS_MAX),
  authorCount: z.number().int().nonnegative(),
  /** The authors' affiliations as arXiv lists them (`arxiv:affiliation`, distinct, in order); empty when none is given (most entries). */
  affiliations: z.array(z.string().min(1).max(200)).max(PREPRINT_AFFILIATIONS_MAX).default([]),
  primaryCategory: z.string().min(1),
  categories: z.array(z.string().min(1)).min(1),
  publishedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  url: z.url({ protocol: /^https$/ }),
  pdfUrl: z.url({ protocol: /^https$/ }),
  doi: z.string().nullable(),
  /** The queried categories whose listing included the preprint, sorted. */
  listedIn: z.array(z.string().min(1)).min(1),
});

export type Preprint = z.infer<typeof preprintSchema>;

/** Preprints kept in the snapshot. */
export const PREPRINT_CAP = 50;

/** The category listings read, in request order. */
export const PREPRINT_CATEGORIES = ["cs.AI", "cs.LG", "cs.CL", "cs.CV"] as const;

/** The papers-preprint-recent snapshot body. */
export const papersPreprintRecentSnapshotSchema = z
  .strictObject({
    categories: z.array(z.string().min(1)).length(PREPRINT_CATEGORIES.length),
    preprints: z.array(preprintSchema).max(PREPRINT_CAP),
  })
  .refine((s) => new Set(s.preprints.map((p) => p.id)).size === s.preprints.length, "preprints must have unique ids")
  .refine((s) => s.preprints.every((p, i) => i === 0 || s.preprints[i - 1]!.publishedAt >= p.publishedAt), "preprints must be sorted newest first");

export type PapersPreprintRecentSnapshot = z.infer<typeof papersPreprintRecentSnapshotSchema>;

/** The `papers-preprint-recent` snapshot type. */
export const papersPreprintRecentSnapshotType = {
  type: "papers-preprint-recent",
  title: "Recent AI preprints (arXiv cs.AI, cs.LG, cs.CL, cs.CV)",
  cron: "30 11 * * *",
  cadence: "daily at 11:30 UTC",
  slaSeconds: 172_800,
  schema: papersPreprintRecentSnapshotSchema,
} satisfies SnapshotType<PapersPreprintRecentSnapshot>;
