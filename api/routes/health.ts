/**
 * GET /api/health: liveness plus one object per snapshot type in the manifest (counts and last-updated
 * values). Answered per request (not cached) so `timestamp` and `stale` are current. The `pricing` type is
 * reported under `models`, the name the spec gives it here.
 */
import { z } from "zod";
import { isStale } from "../../pipelines/lib/store/freshness.ts";
import { defineRoute } from "../registry/define.ts";
import type { SnapshotReader } from "../registry/types.ts";

/** Health of one snapshot type. */
export const TypeHealth = z.strictObject({
  type: z.string(),
  available: z.boolean().meta({ description: "false when the manifest names the type but its latest.json is unusable, or the type was never produced" }),
  rows: z.number().int().nonnegative(),
  date: z.string().nullable(),
  last_success: z.string().nullable(),
  last_changed: z.string().nullable(),
  last_attempt: z.string().nullable(),
  last_error: z.string().nullable(),
  stale: z.boolean(),
  sla_seconds: z.number().nullable(),
  provenance: z.enum(["live", "replay"]).nullable(),
  sources: z.strictObject({ total: z.number().int(), ok: z.number().int() }),
});

/** Body of GET /api/health. */
export const HealthResponse = z
  .object({
    ok: z.literal(true),
    timestamp: z.string(),
    news: TypeHealth,
    models: TypeHealth,
    benchmarks: TypeHealth,
    agents: TypeHealth,
  })
  .catchall(TypeHealth);

/** Types always reported, even before the pipelines first produce them. */
const ALWAYS = ["news", "pricing", "benchmarks", "agents"];
const KEY_OF: Record<string, string> = { pricing: "models" };

function typeHealth(snapshots: SnapshotReader, type: string, now: Date): z.infer<typeof TypeHealth> {
  const loaded = snapshots.get(type);
  const meta = loaded?.meta;
  return {
    type,
    available: loaded !== undefined,
    rows: meta?.rows ?? 0,
    date: meta?.date ?? null,
    last_success: meta?.lastSuccess ?? null,
    last_changed: meta?.lastChanged ?? null,
    last_attempt: meta?.lastAttempt ?? null,
    last_error: meta?.lastError ?? null,
    stale: meta ? isStale(meta, now) : true,
    sla_seconds: meta?.slaSeconds ?? null,
    provenance: meta?.provenance ?? null,
    sources: { total: meta?.sources.length ?? 0, ok: meta?.sources.filter((s) => s.ok).length ?? 0 },
  };
}

/** /api/health. */
export const healthRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/health",
    tier: "discovery",
    summary: "Liveness and, per snapshot type, row counts and last-updated times from the manifest.",
    description:
      "Each snapshot type is an object keyed by its name (pricing appears as models). available=false means no usable latest.json; stale=true means the last success is older than the type's SLA or never happened.",
    tags: ["discovery"],
    response: HealthResponse,
    handle: (ctx) => {
      const out: Record<string, unknown> = { ok: true, timestamp: ctx.now.toISOString() };
      for (const type of [...new Set([...ALWAYS, ...ctx.snapshots.types()])]) {
        out[KEY_OF[type] ?? type] = typeHealth(ctx.snapshots, type, ctx.now);
      }
      return out as z.infer<typeof HealthResponse>;
    },
  }),
];
