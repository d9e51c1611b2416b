/**
 * The dashboard at `/`: one static page (api/dashboard/page.html, its script and stylesheet, and uPlot served
 * from its npm package) that reads this origin's API — provider status with 14-day incident timelines, model
 * and GPU price charts from the warehouse, news, the freshness of every feed — plus GET /api/dashboard.json,
 * the free warehouse aggregates its charts draw. api/dashboard/README.md has the details.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { z } from "zod";
import { GPU_SERIES, PRICE_DAYS, PRICE_MODELS, TIMELINE_DAYS, gpuPriceChart, modelPriceChart, providerTimelines } from "../dashboard/series.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError } from "../registry/types.ts";

const DIR = join(import.meta.dirname, "../dashboard");
const require = createRequire(import.meta.url);
const asset = (path: string) => readFileSync(path, "utf8");
const PAGE = asset(join(DIR, "page.html"));
const SCRIPT = asset(join(DIR, "page.js"));
const STYLE = asset(join(DIR, "page.css"));
const UPLOT_JS = asset(require.resolve("uplot/dist/uPlot.iife.min.js"));
const UPLOT_CSS = asset(require.resolve("uplot/dist/uPlot.min.css"));

const HTML = "text/html; charset=utf-8";
const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

const Chart = z.strictObject({
  dates: z.array(z.iso.date()),
  series: z.array(z.strictObject({ name: z.string(), values: z.array(z.number().nullable()) })),
});

const DashboardResponse = z.strictObject({
  ok: z.literal(true),
  providers: z.array(
    z.strictObject({
      provider: z.string(),
      days: z.array(z.strictObject({ date: z.iso.date(), uptime_pct: z.number().min(0).max(100).nullable(), incident_hours: z.number().nonnegative() })),
    }),
  ),
  model_prices: Chart.meta({ description: `Blended (3:1) USD per 1M tokens of the ${PRICE_MODELS} models with the most price days in the last ${PRICE_DAYS} days.` }),
  gpu_prices: Chart.meta({ description: `Cheapest on-demand median USD per GPU-hour of the ${GPU_SERIES} GPUs with the most offers in the last ${PRICE_DAYS} days.` }),
  source: z.string(),
});

const staticAsset = (path: string, contentType: string, body: string, summary: string) =>
  defineRoute({
    method: "GET",
    path,
    tier: "discovery",
    summary,
    tags: ["dashboard"],
    contentType,
    response: z.string().meta({ description: summary }),
    render: () => ({ contentType, body }),
  });

/** The dashboard page, its assets and its data. */
export const dashboardRoutes = [
  defineRoute({
    method: "GET",
    path: "/",
    tier: "discovery",
    summary: "The dashboard: provider status and incident timelines, model and GPU price charts, news, feed freshness, and how to call the API.",
    description: "A static page (no framework; uPlot for the charts) whose script reads /api/status, /api/dashboard.json, /api/agents/news and /api/health of this origin. Links to /docs, /llms.txt and /openapi.json.",
    tags: ["dashboard", "discovery"],
    contentType: HTML,
    response: z.string().meta({ description: "An HTML document." }),
    render: () => ({ contentType: HTML, body: PAGE }),
  }),
  staticAsset("/dashboard.js", JS, SCRIPT, "The dashboard's script."),
  staticAsset("/dashboard.css", CSS, STYLE, "The dashboard's stylesheet."),
  staticAsset("/vendor/uplot.iife.min.js", JS, UPLOT_JS, "uPlot (MIT), the charting library of the dashboard, as its npm package ships it."),
  staticAsset("/vendor/uplot.min.css", CSS, UPLOT_CSS, "uPlot's stylesheet."),
  defineRoute({
    method: "GET",
    path: "/api/dashboard.json",
    tier: "free",
    summary: `What the dashboard's charts draw, from the warehouse: per provider ${TIMELINE_DAYS} days of status-page uptime and incident hours, and daily model and GPU price lines.`,
    description: [
      `providers: status_daily (the status_samples rollup), the ${TIMELINE_DAYS} UTC days ending with the newest day held; uptime_pct = operational or degraded over samples with a known status, null on a day without one; incident_hours = time shown degraded or down.`,
      `model_prices: per model and day the newest observation (curated on a tie), blended (3 × input + output) / 4, for the ${PRICE_MODELS} models with the most days in the ${PRICE_DAYS} days ending with the newest day of model_prices (ties: model id).`,
      `gpu_prices: per GPU and day the lowest on-demand median across marketplaces, for the ${GPU_SERIES} GPUs with the most offers over the window (ties: GPU id). Values null where a series has no value that day. Aggregates only.`,
    ].join(" "),
    tags: ["dashboard"],
    response: DashboardResponse,
    render: async (ctx) => {
      if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not available on this instance");
      const [providers, model_prices, gpu_prices] = await Promise.all([providerTimelines(ctx.warehouse), modelPriceChart(ctx.warehouse), gpuPriceChart(ctx.warehouse)]);
      return { ok: true as const, providers, model_prices, gpu_prices, source: "warehouse: status_daily, model_prices, gpu_prices" };
    },
  }),
];
