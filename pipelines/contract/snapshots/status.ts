/** The `status` snapshot: each AI provider's official status page, normalized to four values (the spec's service status entry minus `lastChecked`, which the server injects). */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** The four status values of the spec. */
export const serviceStatus = z.enum(["operational", "degraded", "down", "unknown"]);

export type ServiceStatus = z.infer<typeof serviceStatus>;

/** One component of a provider's page, normalized. */
export const statusComponent = z.strictObject({
  name: z.string().min(1),
  status: serviceStatus,
});

export type StatusComponent = z.infer<typeof statusComponent>;

/** A provider's normalized status, as stored in the snapshot (no timestamps). */
export const statusEntry = z.strictObject({
  name: z.string().min(1),
  provider: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase provider id"),
  status: serviceStatus,
  statusPageUrl: httpUrl,
  components: z.array(statusComponent),
});

export type StatusEntry = z.infer<typeof statusEntry>;

/** Strict schema of the snapshot body: services sorted by provider id. */
export const statusSnapshot = z.strictObject({
  services: z.array(statusEntry).refine(
    (s) => s.every((e, i) => i === 0 || s[i - 1]!.provider < e.provider),
    "services must be sorted by provider with unique ids",
  ),
});

export type StatusSnapshot = z.infer<typeof statusSnapshot>;

/** The `status` snapshot type. */
export const statusSnapshotType = {
  type: "status",
  title: "AI provider status",
  cron: "*/2 * * * *",
  cadence: "every 2 minutes",
  slaSeconds: 600,
  schema: statusSnapshot,
} satisfies SnapshotType<StatusSnapshot>;
