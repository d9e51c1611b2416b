/** The `vector-dbs` snapshot: the hand-curated catalog of vector databases. */
import { z } from "zod";
import { catalogId, checkedDate, oneLine, sourceUrls } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

export const vectorDbTypes = ["managed", "oss", "hybrid"] as const;

export const vectorDbType = z.enum(vectorDbTypes);

/** One vector database (strict), with the consistency rules between `type`, `openSource` and price. */
export const vectorDbEntrySchema = z
  .strictObject({
    id: catalogId,
    name: oneLine(80),
    type: vectorDbType,
    hostingOptions: z.array(oneLine(120)).min(1),
    freeTier: oneLine(240),
    startingPriceUSDMonth: z.number().positive().nullable(),
    hybridSearch: z.boolean(),
    openSource: z.boolean(),
    license: oneLine(120),
    metadataFiltering: z.boolean(),
    multiTenancy: z.boolean(),
    serverless: z.boolean(),
    note: oneLine(300),
    source: sourceUrls,
    checked: checkedDate,
  })
  .superRefine((entry, ctx) => {
    if (entry.type === "managed" && entry.openSource) {
      ctx.addIssue({ code: "custom", path: ["openSource"], message: "a managed-only service is not open source" });
    }
    if (entry.type !== "managed" && !entry.openSource) {
      ctx.addIssue({ code: "custom", path: ["openSource"], message: `type ${entry.type} requires an open-source engine` });
    }
    if (entry.type === "oss" && entry.startingPriceUSDMonth !== null) {
      ctx.addIssue({ code: "custom", path: ["startingPriceUSDMonth"], message: "an open-source-only entry has no monthly price" });
    }
  });

export type VectorDbEntry = z.infer<typeof vectorDbEntrySchema>;

export type VectorDbType = z.infer<typeof vectorDbType>;

/** The `vector-dbs` snapshot body (strict). */
export const vectorDbsSnapshotSchema = z.strictObject({
  /** Newest `checked` date among the entries. */
  lastUpdated: checkedDate,
  /** Entries sorted by id. */
  databases: z.array(vectorDbEntrySchema),
});

export type VectorDbsSnapshot = z.infer<typeof vectorDbsSnapshotSchema>;

/** The `vector-dbs` snapshot type. */
export const vectorDbsSnapshotType = {
  type: "vector-dbs",
  title: "Vector databases (curated)",
  cron: "21 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: vectorDbsSnapshotSchema,
} satisfies SnapshotType<VectorDbsSnapshot>;
