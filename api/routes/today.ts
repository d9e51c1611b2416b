/**
 * GET /api/today: one brief over the daily feeds — news, papers, model hub, community, inference prices and
 * provider status — with `limit` items per subsection. A subsection whose snapshot is missing is null and
 * named in `missing`, so one absent feed never hides the rest.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { blended } from "../verdicts/price.ts";
import { readOptionalSnapshot } from "../serve/read-snapshot.ts";
import { summarize } from "./status.ts";
import type { ForumTrendingSnapshot } from "../../pipelines/contract/snapshots/forum-trending.ts";
import type { GpuPricingSnapshot } from "../../pipelines/contract/snapshots/gpu-pricing.ts";
import type { IssuesHotSnapshot } from "../../pipelines/contract/snapshots/issues-hot.ts";
import type { ModelhubTrendingSnapshot } from "../../pipelines/contract/snapshots/modelhub-trending.ts";
import type { NewsSnapshot } from "../../pipelines/contract/snapshots/news.ts";
import type { PapersAiTrendingSnapshot } from "../../pipelines/contract/snapshots/papers-ai-trending.ts";
import type { PapersModelhubDailySnapshot } from "../../pipelines/contract/snapshots/papers-modelhub-daily.ts";
import type { PapersPreprintRecentSnapshot } from "../../pipelines/contract/snapshots/papers-preprint-recent.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import type { StatusSnapshot } from "../../pipelines/contract/snapshots/status.ts";
import type { TrendingReposSnapshot } from "../../pipelines/contract/snapshots/trending-repos.ts";

export const TODAY_SECTIONS = ["news", "papers", "hf", "community", "inference", "status"] as const;

export const TodayQuery = z.strictObject({
  sections: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return [...TODAY_SECTIONS];
      const names = raw.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
      const unknown = names.filter((n) => !(TODAY_SECTIONS as readonly string[]).includes(n));
      if (names.length === 0 || unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `sections must be a comma list of ${TODAY_SECTIONS.join(", ")}${unknown.length ? `; unknown: ${unknown.join(", ")}` : ""}`,
        });
        return z.NEVER;
      }
      // Canonical order, no repeats: equal requests share one cached body.
      return TODAY_SECTIONS.filter((s) => names.includes(s));
    })
    .meta({ description: "comma list of news, papers, hf, community, inference, status (default all six)" }),
  limit: z.coerce.number().int().min(1).max(10).default(3).meta({ description: "items per subsection, 1-10 (default 3)" }),
});

const item = z.record(z.string(), z.unknown());
const list = z.array(item).nullable();

export const TodayResponse = z.strictObject({
  ok: z.literal(true),
  date: z.iso.date().meta({ description: "UTC day of the brief" }),
  sections: z.array(z.enum(TODAY_SECTIONS)),
  limit: z.number().int(),
  updated: z.record(z.string(), z.string().nullable()).meta({ description: "last successful run per snapshot type read" }),
  provenance: z.record(z.string(), z.enum(["live", "replay"])),
  missing: z.array(z.string()).meta({ description: "snapshot types not available; their subsections are null" }),
  news: z.strictObject({ top: list }).optional(),
  papers: z.strictObject({ trending: list, preprints: list, daily: list }).optional(),
  hf: z.strictObject({ models: list, datasets: list, spaces: list }).optional(),
  community: z.strictObject({ forum: list, issues: list, repos: list }).optional(),
  inference: z.strictObject({ cheapest_models: list, gpus: list }).optional(),
  status: z
    .strictObject({
      summary: z.strictObject({ total: z.number(), operational: z.number(), degraded: z.number(), down: z.number(), unknown: z.number() }),
      impaired: z.array(item),
    })
    .nullable()
    .optional(),
});
type TodayResponse = z.infer<typeof TodayResponse>;

/** Pure render of /api/today. */
export function renderToday(ctx: RenderContext, query: z.infer<typeof TodayQuery>): TodayResponse {
  const { sections, limit } = query;
  const updated: Record<string, string | null> = {};
  const provenance: Record<string, "live" | "replay"> = {};
  const missing: string[] = [];
  const read = <T>(type: string): T | undefined => {
    const snap = readOptionalSnapshot<T>(ctx.snapshots, type);
    if (!snap) {
      missing.push(type);
      return undefined;
    }
    updated[type] = snap.meta.lastSuccess;
    provenance[type] = snap.meta.provenance;
    return snap.data;
  };
  const top = <T, R>(rows: T[] | undefined, map: (row: T) => R): R[] | null => (rows ? rows.slice(0, limit).map(map) : null);

  const out: TodayResponse = {
    ok: true,
    date: ctx.now.toISOString().slice(0, 10),
    sections,
    limit,
    updated,
    provenance,
    missing,
  };
  for (const section of sections) {
    switch (section) {
      case "news": {
        const news = read<NewsSnapshot>("news");
        out.news = { top: top(news?.articles, (a) => ({ title: a.title, url: a.url, source: a.source, publishedAt: a.publishedAt })) };
        break;
      }
      case "papers": {
        const trending = read<PapersAiTrendingSnapshot>("papers-ai-trending");
        const preprints = read<PapersPreprintRecentSnapshot>("papers-preprint-recent");
        const daily = read<PapersModelhubDailySnapshot>("papers-modelhub-daily");
        out.papers = {
          trending: top(trending?.papers, (p) => ({ title: p.title, url: p.url, citations: p.citationCount, year: p.year })),
          preprints: top(preprints?.preprints, (p) => ({ id: p.id, title: p.title, url: p.url, category: p.primaryCategory, publishedAt: p.publishedAt })),
          daily: top(daily?.papers, (p) => ({ title: p.title, url: p.url, upvotes: p.upvotes, comments: p.comments })),
        };
        break;
      }
      case "hf": {
        const hub = read<ModelhubTrendingSnapshot>("modelhub-trending");
        out.hf = {
          models: top(hub?.models, (m) => ({ id: m.id, url: m.url, downloads: m.downloads, task: m.pipelineTag })),
          datasets: top(hub?.datasets, (d) => ({ id: d.id, url: d.url, downloads: d.downloads })),
          spaces: top(hub?.spaces, (s) => ({ id: s.id, url: s.url, likes: s.likes, sdk: s.sdk })),
        };
        break;
      }
      case "community": {
        const forum = read<ForumTrendingSnapshot>("forum-trending");
        const issues = read<IssuesHotSnapshot>("issues-hot");
        const repos = read<TrendingReposSnapshot>("trending-repos");
        out.community = {
          forum: top(forum?.posts, (p) => ({ title: p.title, url: p.permalink, community: p.community, score: p.score, comments: p.num_comments })),
          issues: top(issues?.issues, (i) => ({ title: i.title, url: i.url, repository: i.repository, comments: i.comments })),
          repos: top(repos?.repos, (r) => ({ full_name: r.full_name, url: r.url, stars: r.stars, stars_per_day: r.stars_per_day, basis: r.velocity_basis })),
        };
        break;
      }
      case "inference": {
        const pricing = read<PricingSnapshot>("pricing");
        const gpu = read<GpuPricingSnapshot>("gpu-pricing");
        const models = pricing?.providers
          .flatMap((p) => p.models)
          .map((m) => ({ id: m.id, provider: m.provider, input: m.inputCostPer1M, output: m.outputCostPer1M, blended: blended(m.inputCostPer1M, m.outputCostPer1M) }))
          .sort((a, b) => a.blended - b.blended || (a.id < b.id ? -1 : 1));
        const gpus = gpu?.gpus
          .filter((g) => g.on_demand !== null)
          .sort((a, b) => (b.on_demand?.offers ?? 0) - (a.on_demand?.offers ?? 0) || (a.id < b.id ? -1 : 1));
        out.inference = {
          cheapest_models: top(models, (m) => m),
          gpus: top(gpus, (g) => ({ id: g.id, on_demand_min: g.on_demand?.min ?? null, spot_min: g.spot?.min ?? null, offers: g.on_demand?.offers ?? 0 })),
        };
        break;
      }
      case "status": {
        const status = read<StatusSnapshot>("status");
        out.status = status
          ? {
              summary: summarize(status.services),
              impaired: status.services
                .filter((s) => s.status !== "operational")
                .slice(0, limit)
                .map((s) => ({ provider: s.provider, name: s.name, status: s.status, statusPageUrl: s.statusPageUrl })),
            }
          : null;
        break;
      }
    }
  }
  return out;
}

/** /api/today. */
export const todayRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/today",
    tier: "free",
    summary: "Today's brief: top news, papers, model hub, community, cheapest inference and impaired providers, `limit` items each.",
    description:
      "Fans out over the daily snapshots (news; papers-ai-trending, papers-preprint-recent, papers-modelhub-daily; modelhub-trending; forum-trending, issues-hot, trending-repos; pricing, gpu-pricing; status). Subsections keep each feed's own order (citations, an unknown count last, recency, upvotes, downloads, likes, score, comments, star velocity); inference lists the cheapest models by blended (3:1) price and the GPUs with the most on-demand offers; status lists providers that are not operational, up to `limit`. sections is a comma list (unknown names → 400), returned in canonical order. A missing snapshot leaves its subsection null and is named in `missing`; updated and provenance give each snapshot's last success and origin.",
    tags: ["composite"],
    query: TodayQuery,
    response: TodayResponse,
    freshness: { cadence: "follows its sources (10 minutes to daily)", slaSeconds: 2 * 86_400 },
    render: (ctx, { query }) => renderToday(ctx, query),
  }),
];

