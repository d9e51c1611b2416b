/**
 * GET /api/premium/model-migration-verdict: move off a model now, soon or not at all (api/verdicts/model-migration.ts),
 * from the deprecation calendar (latest model-deprecations snapshot: no warehouse table holds it), with costs from
 * the newest day of model_prices and capability from the newest day of benchmark_scores (general task).
 * Billing, auth and receipts come from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { MIGRATION_VERDICTS, modelMigration, NOW_DAYS, SOON_DAYS, type Migration, type ModelFacts } from "../verdicts/model-migration.ts";
import { modelDeprecationsSnapshotSchema, type ModelDeprecationsSnapshot } from "../../pipelines/contract/snapshots/model-deprecations.ts";
import { readCapability, readLatestPrices, modelNames, warehouseOf } from "./premium-model-reads.ts";

const isCalendarDate = (d: string) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
};

/** Query of GET /api/premium/model-migration-verdict. */
export const MigrationQuery = z.strictObject({
  model: z
    .string()
    .trim()
    .min(1, "model is required")
    .max(200, "model is at most 200 characters")
    .regex(/^[A-Za-z0-9][\w.:/@+-]*$/, "model may hold letters, digits and . _ : / @ + - only")
    .meta({ description: "Model id as in /api/models or /api/model-deprecations (case-insensitive), e.g. gpt-4.5-preview." }),
  deadline: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "deadline must be a date YYYY-MM-DD")
    .refine(isCalendarDate, "deadline is not a calendar date")
    .optional()
    .meta({ description: "The day you must be migrated by, YYYY-MM-DD (today or later)." }),
});
export type MigrationQueryInput = z.infer<typeof MigrationQuery>;

const ModelShape = z.strictObject({
  id: z.string(),
  name: z.string().nullable(),
  cost_blended_per_1m: z.number().nonnegative().nullable().meta({ description: "3:1 blended price, USD per 1M tokens; null when unpriced." }),
  capability_index: z.number().min(0).max(100).nullable().meta({ description: "Contamination-discounted capability index (general task), as /api/premium/models/frontier; null without benchmarks." }),
});

/** Body of GET /api/premium/model-migration-verdict (the billing wrapper adds billing). */
export const MigrationResponse = z.strictObject({
  ok: z.literal(true),
  verdict_kind: z.literal("model_migration"),
  verdict: z.enum(MIGRATION_VERDICTS),
  model: ModelShape,
  successor: ModelShape.nullable().meta({ description: "The replacement the provider names; null when none." }),
  deltas: z
    .strictObject({ cost_blended_per_1m: z.number().nullable(), cost_pct: z.number().nullable(), capability_index: z.number().nullable() })
    .nullable()
    .meta({ description: "Successor minus model; null without a successor." }),
  deadline: z.strictObject({
    date: z.string().nullable(),
    days_from_now: z.number().int().nullable(),
    sunset_before_deadline: z.boolean().nullable().meta({ description: "Whether the model shuts down on or before the deadline; null without a deadline." }),
  }),
  sunset: z.strictObject({
    status: z.enum(["announced", "deprecated", "retired"]).nullable(),
    sunset_date: z.string().nullable(),
    days_from_now: z.number().int().nullable(),
    source: z.string().nullable().meta({ description: "The provider's deprecation page." }),
  }),
  recommendation: z.string(),
});
export type MigrationBody = z.infer<typeof MigrationResponse>;

/** Name, cost and capability of every model a source knows, by lower-cased id. */
async function modelFacts(ctx: RenderContext): Promise<Map<string, ModelFacts>> {
  const [prices, capability] = await Promise.all([readLatestPrices(warehouseOf(ctx)), readCapability(ctx, "general")]);
  const names = modelNames(ctx);
  const facts = new Map<string, ModelFacts>();
  for (const id of new Set([...prices.keys(), ...capability.keys(), ...names.keys()])) {
    facts.set(id.toLowerCase(), { id, name: names.get(id) ?? null, blended: prices.get(id) ?? null, capability: capability.get(id) ?? null });
  }
  return facts;
}

/** Render GET /api/premium/model-migration-verdict. */
export async function renderModelMigration(ctx: RenderContext, query: MigrationQueryInput): Promise<MigrationBody> {
  const today = ctx.now.toISOString().slice(0, 10);
  if (query.deadline !== undefined && query.deadline < today) {
    throw new ApiError(400, "invalid_deadline", `deadline ${query.deadline} is in the past (today is ${today} UTC)`);
  }
  const calendar: ModelDeprecationsSnapshot = readSnapshot(ctx.snapshots, "model-deprecations", modelDeprecationsSnapshotSchema).data;
  const m: Migration = modelMigration({
    model: query.model,
    deadline: query.deadline,
    today,
    deprecations: calendar.providers.flatMap((p) => p.entries),
    facts: await modelFacts(ctx),
  });
  const { tracked: _tracked, ...body } = m;
  return { ok: true, verdict_kind: "model_migration", ...body };
}

/** Not charged when the model is in no source (the answer then has no name, cost, capability or sunset). */
export function migrationNoCharge(body: MigrationBody): string | null {
  const { model, sunset } = body;
  return model.name === null && model.cost_blended_per_1m === null && model.capability_index === null && sunset.status === null ? "model_not_tracked" : null;
}

/** The model migration route. */
export const premiumModelMigrationRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/model-migration-verdict",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "MIGRATE_NOW | MIGRATE_SOON | NO_ACTION for a model from the deprecation calendar, with its successor's cost and capability deltas and the sunset against your deadline.",
    description: [
      `Windows (days from today UTC to the sunset date): MIGRATE_NOW when the model is retired or sunsets within ${NOW_DAYS} days; MIGRATE_SOON when it sunsets within ${SOON_DAYS} days, on or before the deadline, or is deprecated without a date; NO_ACTION otherwise, including a model with no deprecation entry.`,
      "Sources: the deprecation calendar (latest model-deprecations snapshot, no warehouse table holds it); blended price (3:1, newest observation) from the newest day of the warehouse table model_prices; capability index (general task, contamination-discounted, as /api/premium/models/frontier) from the newest day of benchmark_scores; names from the pricing snapshot.",
      "successor is the replacement the provider names (null when none); deltas are successor minus model, cost_pct relative to the model's cost. sunset carries the calendar's status, date and source page.",
      "A malformed or past deadline is 400 (invalid_query, invalid_deadline), not charged. A model in no source (calendar, prices, benchmarks, model catalog) is answered NO_ACTION with null figures and not charged (model_not_tracked).",
    ].join(" "),
    tags: ["premium", "models", "deprecations"],
    query: MigrationQuery,
    response: MigrationResponse,
    errors: { 400: "deadline in the past (invalid_deadline)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["model-deprecations", "pricing", "benchmarks"],
    example: "/api/premium/model-migration-verdict?model=gpt-4.5-preview",
    noCharge: {
      outcomes: { model_not_tracked: "the model is in no source: not in the deprecation calendar, the price table, the benchmark table or the model catalog" },
      check: migrationNoCharge,
    },
    render: (ctx, { query }) => renderModelMigration(ctx, query),
  }),
];
