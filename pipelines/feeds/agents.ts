/**
 * Feed `agents`: the agents directory. No upstream: it validates the hand-curated catalog
 * (pipelines/catalog/agents.ts) with its strict schema and emits it with the categories present in the data.
 */
import { z } from "zod";
import { agentCategory, agentEntrySchema, agentsCatalog } from "../catalog/agents.ts";
import { assertUniqueIds, checkedDate, newestChecked, parseEntries } from "../catalog/curated-fields.ts";
import type { Feed } from "../lib/types.ts";

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

/** Validate the catalog (strict schema, unique ids) and build the snapshot body; throws CatalogError on bad data. */
export function buildAgentsSnapshot(entries: readonly unknown[]): AgentsSnapshot {
  const agents = parseEntries("agents", agentEntrySchema, entries).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  assertUniqueIds("agents", agents);
  const categories = [...new Set(agents.map((a) => a.category))].sort();
  return agentsSnapshotSchema.parse({
    lastUpdated: newestChecked("agents", agents),
    source: AGENTS_SOURCE,
    categories,
    agents,
  });
}

/** The agents directory feed: daily, offline, curated. */
export const agentsFeed = {
  type: "agents",
  title: "AI agents directory (curated)",
  cron: "17 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: agentsSnapshotSchema,
  urls: () => [],
  async run() {
    const data = buildAgentsSnapshot(agentsCatalog);
    return { data, rows: data.agents.length, sources: [{ id: "catalog:agents", ok: true, rows: data.agents.length }] };
  },
} satisfies Feed<AgentsSnapshot>;
