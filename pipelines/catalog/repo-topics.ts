/**
 * The repository searches behind /api/trending-repos: GitHub topics of the AI ecosystem, each read sorted by
 * stars (100 per page), plus one search for recently created repositories of the main topic. Topics chosen
 * for coverage (models, agents, retrieval, classic ML) with little overlap in noise; checked 2026-11-21.
 */
import { z } from "zod";

export const RepoTopicQuerySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  /** GitHub search qualifiers (date-free; the recent-creation query adds its date at run time). */
  q: z.string().min(1),
});
export type RepoTopicQuery = z.infer<typeof RepoTopicQuerySchema>;

/** Topic queries, sorted by stars. */
export const REPO_TOPIC_QUERIES: readonly RepoTopicQuery[] = z.array(RepoTopicQuerySchema).parse([
  { id: "llm", q: "topic:llm" },
  { id: "ai-agents", q: "topic:ai-agents" },
  { id: "machine-learning", q: "topic:machine-learning" },
  { id: "rag", q: "topic:rag" },
]);

/** The recent-creation query: these qualifiers plus `created:>=<date>` (see trending-repos). */
export const RECENT_REPO_QUERY: RepoTopicQuery = RepoTopicQuerySchema.parse({ id: "recent-llm", q: "topic:llm" });
