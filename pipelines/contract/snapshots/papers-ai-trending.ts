/** The `papers-ai-trending` snapshot: the most-cited recent AI papers of a scholarly search (Semantic Scholar) over fixed queries. */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** Longest title kept, ellipsis included. */
export const PAPER_TITLE_MAX = 300;

/** Authors listed per paper; `authorCount` gives the full count. */
export const PAPER_AUTHORS_MAX = 10;

/** One paper found by a fan-out query, normalized. */
export const scholarPaperSchema = z.strictObject({
  paperId: z.string().regex(/^[0-9a-f]{40}$/),
  title: z.string().min(1).max(PAPER_TITLE_MAX),
  year: z.number().int().min(1900).max(2100).nullable(),
  publicationDate: z.iso.date().nullable(),
  venue: z.string().max(200).nullable(),
  /** Citations as Semantic Scholar counts them; null when it gave no count (unknown, not zero). */
  citationCount: z.number().int().nonnegative().nullable(),
  authors: z.array(z.string().min(1)).max(PAPER_AUTHORS_MAX),
  authorCount: z.number().int().nonnegative(),
  url: z.url({ protocol: /^https$/ }),
  arxivId: z.string().nullable(),
  doi: z.string().nullable(),
  /** Ids of the fan-out queries that returned the paper, sorted. */
  queries: z.array(z.string().min(1)).min(1),
});

export type ScholarPaper = z.infer<typeof scholarPaperSchema>;

/** Papers kept in the snapshot. */
export const AI_TRENDING_CAP = 30;

/** The five fan-out queries. */
export const AI_TRENDING_QUERIES = [
  { id: "llm", query: "large language models" },
  { id: "agents", query: "AI agents" },
  { id: "multimodal", query: "multimodal foundation models" },
  { id: "rlhf", query: "reinforcement learning from human feedback" },
  { id: "diffusion", query: "diffusion models" },
] as const;

const querySchema = z.strictObject({ id: z.string().min(1), query: z.string().min(1) });

/** The papers-ai-trending snapshot body. */
export const papersAiTrendingSnapshotSchema = z
  .strictObject({
    /** Papers from this year on were searched. */
    sinceYear: z.number().int(),
    queries: z.array(querySchema).length(AI_TRENDING_QUERIES.length),
    papers: z.array(scholarPaperSchema).max(AI_TRENDING_CAP),
  })
  .refine((s) => new Set(s.papers.map((p) => p.paperId)).size === s.papers.length, "papers must have unique paperIds")
  .refine(
    (s) => s.papers.every((p, i) => i === 0 || (s.papers[i - 1]!.citationCount ?? -1) >= (p.citationCount ?? -1)),
    "papers must be sorted by citationCount, highest first, unknown (null) counts last",
  );

export type PapersAiTrendingSnapshot = z.infer<typeof papersAiTrendingSnapshotSchema>;

/** The `papers-ai-trending` snapshot type. */
export const papersAiTrendingSnapshotType = {
  type: "papers-ai-trending",
  title: "Trending AI papers (Semantic Scholar)",
  cron: "0 11 * * *",
  cadence: "daily at 11:00 UTC",
  slaSeconds: 172_800,
  schema: papersAiTrendingSnapshotSchema,
} satisfies SnapshotType<PapersAiTrendingSnapshot>;
