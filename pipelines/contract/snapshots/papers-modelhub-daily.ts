/** The `papers-modelhub-daily` snapshot: the model hub's (Hugging Face) daily papers, most upvoted first. */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

const count = z.number().int().nonnegative();

/** Longest paper title and summary kept, ellipsis included. */
export const HUB_PAPER_TITLE_MAX = 300;

export const HUB_PAPER_SUMMARY_MAX = 500;

export const HUB_PAPER_AUTHORS_MAX = 10;

/** One daily paper, normalized. */
export const hubPaperSchema = z.strictObject({
  /** The paper id on the hub: its arXiv id. */
  id: z.string().regex(/^\d{4}\.\d{4,5}$/),
  title: z.string().min(1).max(HUB_PAPER_TITLE_MAX),
  summary: z.string().max(HUB_PAPER_SUMMARY_MAX),
  authors: z.array(z.string().min(1)).max(HUB_PAPER_AUTHORS_MAX),
  authorCount: count,
  upvotes: count,
  comments: count,
  publishedAt: z.iso.datetime().nullable(),
  url: z.url({ protocol: /^https$/ }),
  arxivUrl: z.url({ protocol: /^https$/ }),
});

export type HubPaper = z.infer<typeof hubPaperSchema>;

/** Papers kept in the snapshot (the hub lists about 50 a day at most). */
export const DAILY_PAPERS_CAP = 100;

/** The papers-modelhub-daily snapshot body. */
export const papersModelhubDailySnapshotSchema = z
  .strictObject({ papers: z.array(hubPaperSchema).max(DAILY_PAPERS_CAP) })
  .refine((s) => new Set(s.papers.map((p) => p.id)).size === s.papers.length, "papers must have unique ids")
  .refine((s) => s.papers.every((p, i) => i === 0 || s.papers[i - 1]!.upvotes >= p.upvotes), "papers must be sorted by upvotes, most first");

export type PapersModelhubDailySnapshot = z.infer<typeof papersModelhubDailySnapshotSchema>;

/** The `papers-modelhub-daily` snapshot type. */
export const papersModelhubDailySnapshotType = {
  type: "papers-modelhub-daily",
  title: "Model hub daily papers",
  cron: "30 14 * * *",
  cadence: "daily at 14:30 UTC",
  slaSeconds: 172_800,
  schema: papersModelhubDailySnapshotSchema,
} satisfies SnapshotType<PapersModelhubDailySnapshot>;
