/**
 * GET /api/health: 200 only when the service can answer what it promises, else 503 `degraded` with the
 * reasons. It reports, per snapshot type in the manifest, the last success, last error and age against the
 * type's freshness SLA and cadence; and the state database, the chain connection and the receipt signing key
 * (api/health/checks.ts). Degraded when: a registered dependency check fails, or a feed is failing (its last
 * attempt erred, or every source failed) and its data is older than its SLA. A type that is merely old but
 * not failing (a data-only server on the bundled snapshots) is listed under `warnings`, not degraded.
 * Answered per request (not cached). The `pricing` type is reported under `models`, the name the spec gives it.
 */
import { clip } from "../http/clip.ts";
import { z } from "zod";
import { ageSeconds, isStale } from "../../pipelines/contract/freshness.ts";
import { runHealthChecks } from "../health/checks.ts";
import { defineRoute } from "../registry/define.ts";
import type { SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { respondJson } from "../http/json-response.ts";
import { readOptionalSnapshot } from "../serve/read-snapshot.ts";

/** Health of one snapshot type. */
export const TypeHealth = z.strictObject({
  type: z.string(),
  available: z.boolean().meta({ description: "false when the manifest names the type but its latest.json is missing, unreadable or not of the type's schema (then, after a success, health is degraded), or the type was never produced" }),
  rows: z.number().int().nonnegative(),
  date: z.string().nullable().meta({ description: "Date (YYYY-MM-DD) of the type's latest snapshot; null while no run of it has succeeded" }),
  last_success: z.string().nullable(),
  last_changed: z.string().nullable(),
  last_attempt: z.string().nullable(),
  last_error: z.string().nullable(),
  age_seconds: z.number().int().nonnegative().nullable().meta({ description: "seconds since last_success (null: never succeeded, or last_success lies more than 2 minutes ahead of this server's clock, so the age is unknown)" }),
  stale: z.boolean(),
  failing: z.boolean().meta({ description: "the last attempt failed, or every source failed" }),
  sla_seconds: z.number().nullable(),
  cadence: z.string().nullable(),
  provenance: z.enum(["live", "replay"]).nullable(),
  sources: z.strictObject({ total: z.number().int(), ok: z.number().int() }),
});

const Check = z.strictObject({
  status: z.enum(["ok", "failed", "disabled"]),
  detail: z.string(),
  latency_ms: z.number().int().nullable(),
});

/** Body of GET /api/health (200 ok, or 503 degraded with `error`, `message` and `reasons`). */
export const HealthResponse = z
  .object({
    ok: z.boolean(),
    health: z.enum(["ok", "degraded"]).meta({ description: "ok (HTTP 200) or degraded (HTTP 503, see reasons)" }),
    error: z.literal("degraded").optional(),
    message: z.string().optional(),
    reasons: z.array(z.string()),
    warnings: z.array(z.string()),
    timestamp: z.string(),
    checks: z.strictObject({ database: Check, chain: Check, signing_key: Check }),
    news: TypeHealth,
    models: TypeHealth,
    benchmarks: TypeHealth,
    agents: TypeHealth,
  })
  .catchall(z.unknown());

/** Types always reported, even before the pipelines first produce them. */
const ALWAYS = ["news", "pricing", "benchmarks", "agents"];
const KEY_OF: Record<string, string> = { pricing: "models" };

/** What health reads besides the snapshots: manifest entries without a usable latest.json, and later attempts. */
interface HealthSnapshots extends SnapshotReader {
  meta?(type: string): SnapshotMeta | undefined;
  /** The entry whose run was attempted last, when the data served may come from another folder. */
  latestAttempt?(type: string): SnapshotMeta | undefined;
  /** A snapshots folder whose manifest was read once and is gone now. */
  lostManifest?(): string | null;
}

function typeHealth(snapshots: HealthSnapshots, type: string, now: Date): z.infer<typeof TypeHealth> {
  const loaded = snapshots.get(type);
  // The manifest entry even when latest.json is unusable, so a failing type still shows its last error.
  const meta = loaded?.meta ?? snapshots.meta?.(type);
  // Available means a route can serve it: loaded and of the contract's shape (checked once per load).
  const servable = loaded !== undefined && readOptionalSnapshot(snapshots, type) !== undefined;
  // The data's entry says how old the data is; the last run's says whether the pipeline still succeeds.
  const run = snapshots.latestAttempt?.(type) ?? meta;
  const age = meta ? ageSeconds(meta, now) : null;
  const okSources = run?.sources.filter((s) => s.ok).length ?? 0;
  return {
    type,
    available: servable,
    rows: meta?.rows ?? 0,
    date: meta?.date || null,
    last_success: meta?.lastSuccess ?? null,
    last_changed: meta?.lastChanged ?? null,
    last_attempt: run?.lastAttempt ?? null,
    // Sanitized by the pipelines when recorded; made visible and cut again here, whatever wrote the manifest.
    last_error: run?.lastError ? clip(run.lastError, 300) : null,
    age_seconds: age === null ? null : Math.round(age),
    stale: meta ? isStale(meta, now) : true,
    failing: Boolean(run && (run.lastError || (run.sources.length > 0 && okSources === 0))),
    sla_seconds: meta?.slaSeconds ?? null,
    cadence: meta?.cadence ?? null,
    provenance: meta?.provenance ?? null,
    sources: { total: run?.sources.length ?? 0, ok: okSources },
  };
}

/** /api/health. */
export const healthRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/health",
    tier: "discovery",
    summary: "Service health: 200 ok, or 503 degraded with reasons; per snapshot type last success, last error and age against its SLA; database, chain and signing key.",
    description:
      "Each snapshot type is an object keyed by its name (pricing appears as models). available=false means no usable latest.json; stale=true means the last success is older than the type's SLA, never happened, or lies more than 2 minutes ahead of this server's clock (age unknown); failing=true means the last attempt failed or every source failed (beside bundled snapshots, the later of their last run and this server's own scheduler's). 503 with health degraded (and error/message/reasons) when a dependency check fails (database, chain, signing_key; `disabled` on a data-only instance), a failing feed is stale, or a snapshots folder's manifest that was served is gone; stale but not failing types are listed in warnings only.",
    tags: ["discovery"],
    response: HealthResponse,
    errors: { 503: "degraded: a dependency check failed, or a failing feed's data is stale; the body is the whole health report (error degraded, reasons), with Retry-After: 30" },
    handle: async (ctx) => {
      const checks = await runHealthChecks();
      const reasons: string[] = [];
      const warnings: string[] = [];
      for (const [name, check] of Object.entries(checks)) {
        if (check.status === "failed") reasons.push(`${name}: ${check.detail}`);
      }
      const lost = (ctx.snapshots as HealthSnapshots).lostManifest?.();
      if (lost) reasons.push(`the snapshots manifest ${lost} was served and is gone (the folder or its manifest.json was removed): nothing is served from it, routes reading its types answer 503`);
      const types: Record<string, z.infer<typeof TypeHealth>> = {};
      for (const type of [...new Set([...ALWAYS, ...ctx.snapshots.types()])]) {
        const h = typeHealth(ctx.snapshots, type, ctx.now);
        types[KEY_OF[type] ?? type] = h;
        const age = h.last_success ? `last success ${h.last_success}` : "never succeeded";
        if (!h.available && h.last_success !== null) reasons.push(`snapshot ${type} cannot be served: its latest.json is missing, unreadable or not of its schema (routes reading it answer 503)`);
        else if (h.failing && h.stale) reasons.push(`feed ${type} is failing (${h.last_error ?? `0 of ${h.sources.total} sources ok`}) and its data is stale (${age}, SLA ${h.sla_seconds} s)`);
        else if (h.failing) warnings.push(`feed ${type}: last attempt failed (${h.last_error ?? "no source ok"}); data still within its SLA`);
        else if (h.stale && ctx.snapshots.types().includes(type)) {
          warnings.push(
            h.last_success && h.age_seconds === null
              ? `feed ${type}: last success ${h.last_success} is ahead of this server's clock, so its age is unknown (a clock is wrong)`
              : `feed ${type}: data older than its SLA (${age}, SLA ${h.sla_seconds} s)`,
          );
        }
      }
      const degraded = reasons.length > 0;
      const body = {
        ok: !degraded,
        health: degraded ? ("degraded" as const) : ("ok" as const),
        ...(degraded ? { error: "degraded" as const, message: reasons.join("; ") } : {}),
        reasons,
        warnings,
        timestamp: ctx.now.toISOString(),
        checks,
        ...types,
      } as z.infer<typeof HealthResponse>;
      if (!degraded) return body;
      return respondJson(JSON.stringify(body), 503, { "Retry-After": "30" });
    },
  }),
];
