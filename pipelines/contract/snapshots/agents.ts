/** The `agents` snapshot: the hand-curated directory of AI agents and agent frameworks. */
import { z } from "zod";
import { catalogId, checkedDate, httpsUrl, oneLine, sourceUrls } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Directory categories; the snapshot's `categories[]` lists the ones present in the data. */
export const agentCategories = [
  "coding",
  "computer-use",
  "research",
  "framework",
  "customer-service",
  "general",
] as const;

export const agentCategory = z.enum(agentCategories);

/** One directory entry (strict). `statusPageUrl` is present only when the provider runs a public status page. */
export const agentEntrySchema = z.strictObject({
  id: catalogId,
  name: oneLine(80),
  provider: oneLine(80),
  category: agentCategory,
  description: oneLine(240),
  url: httpsUrl,
  openSource: z.boolean(),
  pricing: oneLine(240),
  statusPageUrl: httpsUrl.optional(),
  source: sourceUrls,
  checked: checkedDate,
});

export type AgentEntry = z.infer<typeof agentEntrySchema>;

export type AgentCategory = z.infer<typeof agentCategory>;

/** Where the directory comes from, as the API reports it in `source`. */
export const AGENTS_SOURCE = "agentfeed curated catalog (each entry lists its official source URLs and check date)";

/** The `agents` snapshot body (strict). */
export const agentsSnapshotSchema = z.strictObject({
  /** Newest `checked` date among the entries. */
  lastUpdated: checkedDate,
  source: z.string().min(1),
  /** Categories present in `agents`, sorted. */
  categories: z.array(agentCategory),
  /** Entries sorted by id. */
  agents: z.array(agentEntrySchema),
});

export type AgentsSnapshot = z.infer<typeof agentsSnapshotSchema>;

/** The `agents` snapshot type. */
export const agentsSnapshotType = {
  type: "agents",
  title: "AI agents directory (curated)",
  cron: "17 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: agentsSnapshotSchema,
} satisfies SnapshotType<AgentsSnapshot>;
