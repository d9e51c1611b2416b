/**
 * The research snapshot routes: GET /api/papers/ai-trending (Semantic Scholar fan-out, top 30 by citations),
 * GET /api/papers/preprint-recent (newest arXiv preprints in cs.AI, cs.LG, cs.CL, cs.CV) and
 * GET /api/papers/modelhub-daily (the model hub's editor-curated daily papers). Pure renders over the
 * snapshots the daily pipelines write; `updated` is the manifest's lastSuccess for the type. Titles,
 * summaries and author names were sanitized by the pipelines.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { renderSnapshot } from "../serve/read-snapshot.ts";
import { papersAiTrendingSnapshotSchema, papersAiTrendingSnapshotType } from "../../pipelines/contract/snapshots/papers-ai-trending.ts";
import { papersModelhubDailySnapshotSchema, papersModelhubDailySnapshotType } from "../../pipelines/contract/snapshots/papers-modelhub-daily.ts";
import { papersPreprintRecentSnapshotSchema, papersPreprintRecentSnapshotType } from "../../pipelines/contract/snapshots/papers-preprint-recent.ts";

const updated = z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." });

/** Body of GET /api/papers/ai-trending. */
export const PapersAiTrendingResponse = z.strictObject({ ok: z.literal(true), snapshot: papersAiTrendingSnapshotSchema, updated });
/** Body of GET /api/papers/preprint-recent. */
export const PapersPreprintRecentResponse = z.strictObject({ ok: z.literal(true), snapshot: papersPreprintRecentSnapshotSchema, updated });
/** Body of GET /api/papers/modelhub-daily. */
export const PapersModelhubDailyResponse = z.strictObject({ ok: z.literal(true), snapshot: papersModelhubDailySnapshotSchema, updated });

const freshness = (feed: { cadence: string; slaSeconds: number }) => ({ cadence: feed.cadence, slaSeconds: feed.slaSeconds });

/** /api/papers/ai-trending, /api/papers/preprint-recent and /api/papers/modelhub-daily. */
export const papersRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/papers/ai-trending",
    tier: "free",
    summary: "Most cited recent AI papers from five fan-out searches, deduplicated by paper id, top 30 by citation count.",
    description:
      "Source: the Semantic Scholar Graph API paper search, five queries (large language models, AI agents, multimodal foundation models, reinforcement learning from human feedback, diffusion models), 100 results each, restricted to papers from last year on (snapshot.sinceYear). Papers found by several queries appear once and list every query id in queries. Sorted by citationCount (null when Semantic Scholar gives none: unknown, sorted after every known count), then newest publicationDate, then paperId. At most 10 authors per paper (authorCount gives the full number). A query that fails on a given day is left out of that day's merge (see source health in /api/meta). Refreshed daily at 11:00 UTC.",
    tags: ["papers", "research"],
    response: PapersAiTrendingResponse,
    snapshots: [papersAiTrendingSnapshotType.type],
    freshness: freshness(papersAiTrendingSnapshotType),
    render: (ctx) => renderSnapshot(ctx.snapshots, papersAiTrendingSnapshotType),
  }),
  defineRoute({
    method: "GET",
    path: "/api/papers/preprint-recent",
    tier: "free",
    summary: "The 50 most recent preprints across four computer-science categories (AI, learning, language, vision), deduplicated by preprint id.",
    description:
      "Source: the arXiv API, newest submissions of cs.AI, cs.LG, cs.CL and cs.CV (50 each, requests spaced 3 s apart). Deduplicated by arXiv id without its version; a preprint seen in several listings keeps its highest version and lists every category listing in listedIn. Sorted by publishedAt (first submission) newest first, then id. Summaries are clipped to 500 characters; at most 10 authors (authorCount gives the full number). An arXiv error feed, an empty listing or a truncated body affects only that category. Refreshed daily at 11:30 UTC.",
    tags: ["papers", "research"],
    response: PapersPreprintRecentResponse,
    snapshots: [papersPreprintRecentSnapshotType.type],
    freshness: freshness(papersPreprintRecentSnapshotType),
    render: (ctx) => renderSnapshot(ctx.snapshots, papersPreprintRecentSnapshotType),
  }),
  defineRoute({
    method: "GET",
    path: "/api/papers/modelhub-daily",
    tier: "free",
    summary: "The model hub's editor-curated daily papers with upvotes and discussion counts, most upvoted first.",
    description:
      "Source: the Hugging Face daily papers listing. One entry per paper id (its arXiv id), sorted by upvotes, then comments (the paper's discussion count), then id. Summaries are clipped to 500 characters; at most 10 authors (authorCount gives the full number). Entries that lack a counter upstream show 0. Refreshed daily at 14:30 UTC.",
    tags: ["papers", "research", "modelhub"],
    response: PapersModelhubDailyResponse,
    snapshots: [papersModelhubDailySnapshotType.type],
    freshness: freshness(papersModelhubDailySnapshotType),
    render: (ctx) => renderSnapshot(ctx.snapshots, papersModelhubDailySnapshotType),
  }),
];
