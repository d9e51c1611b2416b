/** GET /api/providers/uptime-leaderboard: the cross-provider 7-day uptime leaderboard leaderboard_rank watches use (free). */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError } from "../registry/types.ts";
import { LEADERBOARD_DAYS, uptimeLeaderboard } from "../watches/leaderboard.ts";

const Response = z.strictObject({
  ok: z.literal(true),
  window: z.strictObject({ from: z.iso.date(), to: z.iso.date(), days: z.number().int() }).nullable(),
  count: z.number().int().nonnegative(),
  source: z.string().nullable(),
  note: z.string().nullable(),
  leaderboard: z.array(
    z.strictObject({
      rank: z.number().int().positive(),
      provider: z.string(),
      uptime_pct: z.number().min(0).max(100),
      samples: z.number().int().nonnegative(),
      incident_seconds: z.number().int().nonnegative(),
      days: z.number().int().positive(),
    }),
  ),
});

/** The leaderboard route. */
export const providersUptimeLeaderboardRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/providers/uptime-leaderboard",
    tier: "free",
    tags: ["status", "watches"],
    summary: `Providers ranked by status-page uptime over the last ${LEADERBOARD_DAYS} UTC days the warehouse holds (1 = best); what leaderboard_rank watches follow.`,
    description: [
      `Source: the warehouse's status_samples (status_daily rollup), the ${LEADERBOARD_DAYS} UTC days ending with the newest day held.`,
      "uptime_pct = samples showing operational or degraded / samples with a known status × 100, 2 decimals (a degraded page counts as up, as /api/history series do); incident_seconds = time shown degraded or down.",
      "Order: uptime_pct desc, incident_seconds asc, provider asc; every provider gets its own rank. Providers without a known sample in the window are not ranked. No warehouse data: an empty leaderboard, window and source null, with a note.",
    ].join(" "),
    response: Response,
    render: async (ctx) => {
      if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not available on this instance");
      const board = await uptimeLeaderboard(ctx.warehouse);
      return {
        ok: true as const,
        window: board.window,
        count: board.entries.length,
        source: board.window ? "warehouse status_samples (status_daily rollup)" : null,
        note: board.window ? null : "the warehouse holds no status samples yet",
        leaderboard: board.entries.map(({ of: _of, ...e }) => e),
      };
    },
  }),
];
