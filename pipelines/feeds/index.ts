/**
 * The feed registry: every snapshot type the pipelines build, keyed by type (the folder under snapshots/).
 * The runner, the scheduler and `--list-urls` all read this one list; a key must equal its feed's `type`.
 *
 * Registered: news, status, pricing, benchmarks, agents, embeddings, vector-dbs.
 */
import type { Feed } from "../lib/types.ts";
import { agentsFeed } from "./agents.ts";
import { benchmarksFeed } from "./benchmarks.ts";
import { embeddingsFeed } from "./embeddings.ts";
import { newsFeed } from "./news.ts";
import { pricingFeed } from "./pricing.ts";
import { statusFeed } from "./status.ts";
import { vectorDbsFeed } from "./vector-dbs.ts";

export const feeds = {
  news: newsFeed,
  status: statusFeed,
  pricing: pricingFeed,
  benchmarks: benchmarksFeed,
  agents: agentsFeed,
  embeddings: embeddingsFeed,
  "vector-dbs": vectorDbsFeed,
} satisfies Record<string, Feed>;
