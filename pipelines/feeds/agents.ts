/**
 * Feed `agents`: the agents directory. No upstream: it validates the hand-curated catalog
 * (pipelines/catalog/agents.ts) with its strict schema and emits it with the categories present in the data.
 */
import { agentsCatalog } from "../catalog/agents.ts";
import { assertUniqueIds, newestChecked, parseEntries } from "../catalog/curated-fields.ts";
import type { Feed } from "../lib/types.ts";
import { agentEntrySchema, AGENTS_SOURCE, type AgentsSnapshot, agentsSnapshotSchema, agentsSnapshotType } from "../contract/snapshots/agents.ts";

export { AGENTS_SOURCE, type AgentsSnapshot, agentsSnapshotSchema } from "../contract/snapshots/agents.ts";

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
  ...agentsSnapshotType,
  urls: () => [],
  async run() {
    const data = buildAgentsSnapshot(agentsCatalog);
    return { data, rows: data.agents.length, sources: [{ id: "catalog:agents", ok: true, rows: data.agents.length }] };
  },
} satisfies Feed<AgentsSnapshot>;
