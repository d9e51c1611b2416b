/** The `afta-adopters` snapshot: each listed site's agent fair-trade manifest, checked and classified. */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** What a check of a site's manifest found. */
export const AFTA_STATUSES = ["valid", "invalid", "unreachable"] as const;

/** One checked site in the snapshot. */
export const aftaAdopterResultSchema = z.strictObject({
  domain: z.string().min(1),
  status: z.enum(AFTA_STATUSES),
  /** The manifest's version, when valid. */
  version: z.string().min(1).optional(),
  /** Why the site is invalid or unreachable. */
  reason: z.string().min(1).optional(),
});

export type AftaAdopterResult = z.infer<typeof aftaAdopterResultSchema>;

/** The `afta-adopters` snapshot body: sites sorted by domain. */
export const aftaAdoptersSnapshotSchema = z.strictObject({ adopters: z.array(aftaAdopterResultSchema) });

export type AftaAdoptersSnapshot = z.infer<typeof aftaAdoptersSnapshotSchema>;

/** The `afta-adopters` snapshot type. */
export const aftaAdoptersSnapshotType = {
  type: "afta-adopters",
  title: "AFTA manifest adopters (checked)",
  cron: "41 6 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: aftaAdoptersSnapshotSchema,
} satisfies SnapshotType<AftaAdoptersSnapshot>;
