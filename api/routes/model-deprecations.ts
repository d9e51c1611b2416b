/**
 * GET /api/model-deprecations: the curated calendar of model retirements (snapshot type `model-deprecations`),
 * grouped by provider, plus `upcoming`: the shutdowns on or after today (UTC, from the request clock).
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { compareBySunset, type DeprecationEntry, deprecationEntrySchema, deprecationProviderSchema, type ModelDeprecationsSnapshot, modelDeprecationsSnapshotSchema, modelDeprecationsSnapshotType } from "../../pipelines/contract/snapshots/model-deprecations.ts";

/** Body of GET /api/model-deprecations. */
export const ModelDeprecationsResponse = z.strictObject({
  ok: z.literal(true),
  lastUpdated: z.iso.date().meta({ description: "Newest date an entry was checked against its provider's page." }),
  count: z.int().nonnegative().meta({ description: "Entries across all providers." }),
  providers: z.array(deprecationProviderSchema),
  upcoming: z.array(deprecationEntrySchema).meta({ description: "Entries whose sunset_date is today (UTC) or later, soonest first." }),
});
export type ModelDeprecationsBody = z.infer<typeof ModelDeprecationsResponse>;

/** Entries with a sunset_date on or after `today` (YYYY-MM-DD), soonest first. Pure. */
export function upcomingSunsets(data: ModelDeprecationsSnapshot, today: string): DeprecationEntry[] {
  return data.providers
    .flatMap((p) => p.entries)
    .filter((e) => e.sunset_date !== null && e.sunset_date >= today)
    .sort(compareBySunset);
}

/** Render GET /api/model-deprecations against the request clock. */
export function renderModelDeprecations(ctx: RenderContext): ModelDeprecationsBody {
  const data = readSnapshot(ctx.snapshots, "model-deprecations", modelDeprecationsSnapshotSchema).data;
  return {
    ok: true,
    lastUpdated: data.lastUpdated,
    count: data.providers.reduce((n, p) => n + p.entries.length, 0),
    providers: data.providers,
    upcoming: upcomingSunsets(data, ctx.now.toISOString().slice(0, 10)),
  };
}

/** The model deprecations route. */
export const modelDeprecationsRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/model-deprecations",
    tier: "free",
    summary: "Calendar of model retirements and deprecations by provider, with the upcoming shutdowns.",
    description:
      "Shape (the spec leaves it open): { ok, lastUpdated, count, providers: [{ provider, name, source, entries }], upcoming }. Each entry is { provider, model, status (announced | deprecated | retired), announced_date, sunset_date (YYYY-MM-DD or null), replacement (model id or null), source (the provider's deprecation page), checked }. Entries are copied by hand from the providers' official deprecation pages (OpenAI, Anthropic, Google Gemini API, Mistral) and only list what those pages state; replacement is null when the page names none or has named different ones over time; announced_date is null when the page gives no announcement date. status is as of checked. Providers are sorted by id, entries by sunset_date (null last) then model. upcoming lists every entry whose sunset_date is today (UTC) or later, soonest first; it is computed when the response is rendered (cached for at most 30 s).",
    tags: ["catalogs"],
    response: ModelDeprecationsResponse,
    snapshots: ["model-deprecations"],
    freshness: { cadence: modelDeprecationsSnapshotType.cadence, slaSeconds: modelDeprecationsSnapshotType.slaSeconds },
    render: (ctx): ModelDeprecationsBody => renderModelDeprecations(ctx),
  }),
];
