/**
 * Model migration: whether to move off a model now, soon or not at all, from the curated deprecation calendar
 * (sunset dates, the provider's named replacement), with the successor's cost and capability against the model's.
 *
 * Windows (days from today, UTC, to the sunset date):
 * - MIGRATE_NOW: the model is retired (status retired or sunset date today or past) or sunsets within 30 days.
 * - MIGRATE_SOON: it sunsets within 180 days, or on or before the caller's deadline, or the provider deprecated
 *   it without a date.
 * - NO_ACTION: otherwise, including a model in no deprecation entry (priced or benchmarked only).
 * Successor: the replacement the provider names; null when it names none (deltas are then null). Deltas are
 * successor minus model; cost_pct = delta / model cost × 100 (2 decimals), null when the model's cost is 0 or
 * either side is unpriced.
 */
import type { DeprecationEntry } from "../../pipelines/contract/snapshots/model-deprecations.ts";
import { daysBetween } from "./history-range.ts";
import { round } from "./round.ts";

export const MIGRATION_VERDICTS = ["MIGRATE_NOW", "MIGRATE_SOON", "NO_ACTION"] as const;
export type MigrationVerdict = (typeof MIGRATION_VERDICTS)[number];

/** Sunset within this many days: migrate now. */
export const NOW_DAYS = 30;
/** Sunset within this many days: migrate soon. */
export const SOON_DAYS = 180;

/** A model as the answer shows it. */
export interface MigrationModel {
  id: string;
  name: string | null;
  cost_blended_per_1m: number | null;
  capability_index: number | null;
}

/** What the verdict knows of each model id (lower-cased keys): name, blended price, general capability index. */
export interface ModelFacts {
  id: string;
  name: string | null;
  blended: number | null;
  capability: number | null;
}

export interface MigrationInput {
  /** The model asked for, as given. */
  model: string;
  /** YYYY-MM-DD or undefined. */
  deadline: string | undefined;
  /** Today, YYYY-MM-DD (UTC). */
  today: string;
  deprecations: readonly DeprecationEntry[];
  /** Facts by lower-cased model id. */
  facts: ReadonlyMap<string, ModelFacts>;
}

export interface Migration {
  tracked: boolean;
  verdict: MigrationVerdict;
  model: MigrationModel;
  successor: MigrationModel | null;
  deltas: { cost_blended_per_1m: number | null; cost_pct: number | null; capability_index: number | null } | null;
  deadline: { date: string | null; days_from_now: number | null; sunset_before_deadline: boolean | null };
  sunset: { status: DeprecationEntry["status"] | null; sunset_date: string | null; days_from_now: number | null; source: string | null };
  recommendation: string;
}


function asModel(id: string, facts: ModelFacts | undefined): MigrationModel {
  return { id: facts?.id ?? id, name: facts?.name ?? null, cost_blended_per_1m: facts?.blended ?? null, capability_index: facts?.capability ?? null };
}

/** The deprecation entry of a model (case-insensitive id), the most urgent when several providers list it. */
export function findDeprecation(model: string, entries: readonly DeprecationEntry[]): DeprecationEntry | undefined {
  const id = model.toLowerCase();
  return entries
    .filter((e) => e.model === id)
    .sort((a, b) => (a.sunset_date ?? "9999-12-31").localeCompare(b.sunset_date ?? "9999-12-31"))[0];
}

/** The verdict for one model. */
export function modelMigration(input: MigrationInput): Migration {
  const key = input.model.toLowerCase();
  const entry = findDeprecation(key, input.deprecations);
  const facts = input.facts.get(key);
  const tracked = entry !== undefined || facts !== undefined;
  const model = asModel(entry?.model ?? input.model, facts);
  const sunsetDate = entry?.sunset_date ?? null;
  const sunsetDays = sunsetDate === null ? null : daysBetween(input.today, sunsetDate);
  const deadlineDays = input.deadline === undefined ? null : daysBetween(input.today, input.deadline);
  const beforeDeadline = input.deadline === undefined ? null : sunsetDate !== null && sunsetDate <= input.deadline;

  let verdict: MigrationVerdict = "NO_ACTION";
  if (entry) {
    if (entry.status === "retired" || (sunsetDays !== null && sunsetDays <= NOW_DAYS)) verdict = "MIGRATE_NOW";
    else if ((sunsetDays !== null && sunsetDays <= SOON_DAYS) || beforeDeadline === true || (entry.status === "deprecated" && sunsetDate === null)) verdict = "MIGRATE_SOON";
  }

  const successorId = entry?.replacement ?? null;
  const successor = successorId === null ? null : asModel(successorId, input.facts.get(successorId.toLowerCase()));
  let deltas: Migration["deltas"] = null;
  if (successor) {
    const cost = successor.cost_blended_per_1m !== null && model.cost_blended_per_1m !== null ? round(successor.cost_blended_per_1m - model.cost_blended_per_1m, 4) : null;
    deltas = {
      cost_blended_per_1m: cost,
      cost_pct: cost === null || model.cost_blended_per_1m === 0 ? null : round((cost / model.cost_blended_per_1m!) * 100, 2),
      capability_index: successor.capability_index !== null && model.capability_index !== null ? round(successor.capability_index - model.capability_index, 2) : null,
    };
  }
  return {
    tracked,
    verdict,
    model,
    successor,
    deltas,
    deadline: { date: input.deadline ?? null, days_from_now: deadlineDays, sunset_before_deadline: beforeDeadline },
    sunset: { status: entry?.status ?? null, sunset_date: sunsetDate, days_from_now: sunsetDays, source: entry?.source ?? null },
    recommendation: recommend(tracked, verdict, model.id, entry, sunsetDays, successor),
  };
}

function recommend(
  tracked: boolean,
  verdict: MigrationVerdict,
  id: string,
  entry: DeprecationEntry | undefined,
  sunsetDays: number | null,
  successor: MigrationModel | null,
): string {
  if (!tracked) return `${id} is in no source (deprecation calendar, price catalog or benchmark catalog); nothing to judge.`;
  const to = successor ? ` Move to ${successor.id}, the replacement the provider names.` : " The provider names no replacement; pick one with /api/premium/models/frontier.";
  if (!entry) return `${id} has no announced deprecation; no action needed.`;
  const when = entry.sunset_date === null ? "without a shutdown date" : sunsetDays! <= 0 ? `since ${entry.sunset_date}` : `on ${entry.sunset_date} (in ${sunsetDays} days)`;
  if (verdict === "MIGRATE_NOW") return `${id} is ${entry.status === "retired" || sunsetDays! <= 0 ? "retired" : "shutting down"} ${when}: migrate now.${to}`;
  if (verdict === "MIGRATE_SOON") return `${id} is ${entry.status} and shuts down ${when}: plan the migration.${to}`;
  return `${id} is ${entry.status} and shuts down ${when}, after the migration windows; no action needed yet.${successor ? ` Its replacement is ${successor.id}.` : ""}`;
}
