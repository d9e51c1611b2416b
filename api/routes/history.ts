/**
 * Dated snapshots: GET /api/history lists the dates kept per snapshot type; GET /api/history/:date/:type
 * serves one dated file as written by the pipelines.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError } from "../registry/types.ts";

const DateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD")
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
  }, "date is not a calendar date")
  .meta({ description: "Snapshot date (UTC), YYYY-MM-DD.", example: "2025-01-15" });

/** Path parameters of the dated snapshot route. */
export const HistoryParams = z.object({
  date: DateParam,
  type: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: "Snapshot type: news, status, pricing, benchmarks, agents, embeddings, vector-dbs, …; see /api/history." }),
});

const TypeRange = z.strictObject({
  from: z.string(),
  to: z.string(),
  count: z.number().int().positive(),
  dates: z.array(z.string()),
});

/** Body of GET /api/history. */
export const HistoryIndexResponse = z.strictObject({
  ok: z.literal(true),
  types: z.record(z.string(), TypeRange),
});

/** Body of GET /api/history/:date/:type. */
export const HistorySnapshotResponse = z.strictObject({
  ok: z.literal(true),
  type: z.string(),
  date: z.string(),
  snapshot: z.unknown().meta({ description: "The dated snapshot body exactly as the pipeline wrote it." }),
});

/** /api/history and /api/history/:date/:type. */
export const historyRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/history",
    tier: "free",
    summary: "Date ranges of the dated snapshots kept per type.",
    description:
      "types maps each snapshot type to { from, to, count, dates } (dates ascending, YYYY-MM-DD). A date is listed when the pipeline wrote a dated file that day; days without a change have no file.",
    tags: ["history"],
    response: HistoryIndexResponse,
    render: (ctx) => {
      const types: Record<string, z.infer<typeof TypeRange>> = {};
      for (const type of ctx.snapshots.types()) {
        const dates = ctx.snapshots.dates(type);
        const from = dates[0];
        const to = dates[dates.length - 1];
        if (from && to) types[type] = { from, to, count: dates.length, dates };
      }
      return { ok: true as const, types };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/history/:date/:type",
    tier: "free",
    summary: "One dated snapshot of a type, as written that day.",
    description:
      "A bad date answers 400 invalid_params; an unknown type or a date without a file answers 404 snapshot_not_found; a kept file that cannot be read (truncated, not JSON) answers 503 snapshot_unavailable.",
    tags: ["history"],
    params: HistoryParams,
    response: HistorySnapshotResponse,
    errors: { 503: "snapshot_unavailable: the date is kept but its file cannot be read right now (truncated, not JSON); retry later" },
    render: async (ctx, { params }) => {
      const snapshot = await ctx.snapshots.dated(params.type, params.date);
      if (snapshot === undefined && ctx.snapshots.dates(params.type).includes(params.date)) {
        // Listed, so the file is there: it cannot be read (truncated, not JSON), which a retry may outlast.
        throw new ApiError(503, "snapshot_unavailable", `the ${params.type} snapshot of ${params.date} is kept but cannot be read right now; retry later`);
      }
      if (snapshot === undefined) {
        const known = ctx.snapshots.dates(params.type).length > 0;
        throw new ApiError(
          404,
          "snapshot_not_found",
          known
            ? `no ${params.type} snapshot for ${params.date}; see /api/history for the dates kept`
            : `unknown snapshot type ${JSON.stringify(params.type)}; see /api/history`,
        );
      }
      return { ok: true as const, type: params.type, date: params.date, snapshot };
    },
  }),
];
