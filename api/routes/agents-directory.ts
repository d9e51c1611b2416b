/**
 * GET /api/agents/directory: the curated agents directory (snapshot type `agents`), served as the feed wrote
 * it: source, the categories present, and every agent entry.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { agentCategory, agentEntrySchema, agentsSnapshotSchema, agentsSnapshotType } from "../../pipelines/contract/snapshots/agents.ts";

/** Query of GET /api/agents/directory: none (unknown parameters are rejected). */
export const AgentsDirectoryQuery = z.strictObject({});

/** Body of GET /api/agents/directory. */
export const AgentsDirectoryResponse = z.strictObject({
  ok: z.literal(true),
  source: z.string().meta({ description: "Where the directory comes from (curated by the project)." }),
  categories: z.array(agentCategory).meta({ description: "Categories present in agents[], sorted." }),
  agents: z.array(agentEntrySchema),
});

export type AgentsDirectoryBody = z.infer<typeof AgentsDirectoryResponse>;

/** The route family of the agents directory. */
export const agentsDirectoryRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/agents/directory",
    tier: "free",
    summary: "Curated directory of AI agents and agent frameworks, with categories.",
    description:
      "Hand-curated entries (coding, computer-use, research, framework, customer-service, general), each with its official source URLs and the date it was checked. pricing is a short note, not a number. statusPageUrl appears only when the provider runs a public status page. Agents are sorted by id; categories lists the categories present.",
    tags: ["agents"],
    query: AgentsDirectoryQuery,
    response: AgentsDirectoryResponse,
    snapshots: ["agents"],
    freshness: { cadence: agentsSnapshotType.cadence, slaSeconds: agentsSnapshotType.slaSeconds },
    render: (ctx): AgentsDirectoryBody => {
      const data = readSnapshot(ctx.snapshots, "agents", agentsSnapshotSchema).data;
      return { ok: true, source: data.source, categories: data.categories, agents: data.agents };
    },
  }),
];
